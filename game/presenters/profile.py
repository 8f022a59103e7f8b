"""The profile's charts as geometry for server-drawn SVG (no script, no inline style: the
site's CSP): a histogram of final scores and the trend of the latest games; and its figures of
the choices in words (``choice_figures``)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..domain.translated import figure
from .review import grade_label

#: The charts' drawing box (the SVG's viewBox; CSS scales it to the column's width).
WIDTH, HEIGHT = 320, 140
#: Room at the left for the axis labels and at the bottom for the score labels.
LEFT, BOTTOM, TOP = 30, 18, 8
BIN = 25


def _n(value: float) -> str:
    """A coordinate as SVG reads it, written once here: the template's localisation would cost
    a call per number and could write a decimal comma."""
    return f"{value:.1f}".removesuffix(".0")


@dataclass(frozen=True)
class Bar:
    x: str
    y: str
    width: str
    height: str
    low: int
    high: int
    count: int


@dataclass(frozen=True)
class Tick:
    x: str
    y: str
    label: str


def histogram(finals: Sequence[int] | Mapping[int, int], bin_width: int = BIN
              ) -> dict[str, object]:
    """Bars of ``bin_width`` points from the lowest score's bin to the highest's; ``finals``
    are the scores, or how many times each score was made."""
    if not finals:
        return {"bars": [], "ticks": [], "width": WIDTH, "height": HEIGHT, "bin": bin_width}
    counts: Counter[int] = Counter()
    for final, n in (finals.items() if isinstance(finals, Mapping)
                     else ((f, 1) for f in finals)):
        counts[final // bin_width] += n
    first, last = min(counts), max(counts)
    slots = last - first + 1
    step = (WIDTH - LEFT) / slots
    tall = max(counts.values())
    plot = HEIGHT - BOTTOM - TOP
    bars = []
    for i, b in enumerate(range(first, last + 1)):
        h = plot * counts.get(b, 0) / tall
        bars.append(Bar(_n(LEFT + i * step + 1), _n(TOP + plot - h), _n(max(step - 2, 1)),
                        _n(h), b * bin_width,
                        b * bin_width + bin_width - 1,
                        counts.get(b, 0)))
    every = max(1, slots // 5)
    ticks = [Tick(_n(LEFT + i * step), _n(HEIGHT - 4), str(b * bin_width))
             for i, b in enumerate(range(first, last + 1)) if i % every == 0]
    return {"bars": bars, "ticks": ticks, "most": Tick(_n(LEFT - 4), _n(TOP + 8), str(tall)),
            "width": WIDTH, "height": HEIGHT, "baseline": HEIGHT - BOTTOM, "left": LEFT,
            "bin": bin_width}


def trend(finals: Sequence[int]) -> dict[str, object]:
    """A line through the final scores (oldest first) and a line at their mean."""
    if not finals:
        return {"points": "", "ticks": [], "width": WIDTH, "height": HEIGHT}
    low, high = min(finals), max(finals)
    span = max(high - low, 1)
    plot = HEIGHT - BOTTOM - TOP
    dx = (WIDTH - LEFT) / max(len(finals) - 1, 1)

    def y(v: float) -> float:
        return TOP + plot * (high - v) / span

    points = " ".join(f"{_n(LEFT + i * dx)},{_n(y(v))}" for i, v in enumerate(finals))
    mean = sum(finals) / len(finals)
    return {"points": points, "mean_y": _n(y(mean)), "mean": round(mean), "width": WIDTH,
            "height": HEIGHT, "right": WIDTH, "left": LEFT,
            "ticks": [Tick(_n(LEFT - 4), _n(y(high) + 4), str(high)),
                      Tick(_n(LEFT - 4), _n(y(low)), str(low))],
            "games": len(finals)}


def choice_figures(grades: Mapping[str, int], mean_loss: float | None) -> dict[str, Any]:
    """A player's graded choices as the profile writes them: the share that were the best or
    good, in percent ("87"; None without choices), the points a choice lost on average ("0.32"),
    and each grade's count with its name in the reader's language ("3 blunders")."""
    total = sum(grades.values())
    kept = grades.get("best", 0) + grades.get("good", 0)
    return {
        "good_percent": figure(100 * kept / total, 0) if total else None,
        "mean_loss": figure(mean_loss, 2) if mean_loss is not None else None,
        "grades": [{"grade": g, "count": n, "label": grade_label(g, n)} for g, n in grades.items()],
    }
