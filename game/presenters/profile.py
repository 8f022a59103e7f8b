"""The profile's charts as geometry for server-drawn SVG (no script, no inline style: the
site's CSP): a histogram of final scores and the trend of the latest games."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

#: The charts' drawing box (the SVG's viewBox; CSS scales it to the column's width).
WIDTH, HEIGHT = 320, 140
#: Room at the left for the axis labels and at the bottom for the score labels.
LEFT, BOTTOM, TOP = 30, 18, 8
BIN = 25


@dataclass(frozen=True)
class Bar:
    x: float
    y: float
    width: float
    height: float
    low: int
    high: int
    count: int


@dataclass(frozen=True)
class Tick:
    x: float
    y: float
    label: str


def histogram(finals: Sequence[int], bin_width: int = BIN) -> dict[str, object]:
    """Bars of ``bin_width`` points from the lowest score's bin to the highest's."""
    if not finals:
        return {"bars": [], "ticks": [], "width": WIDTH, "height": HEIGHT, "bin": bin_width}
    counts = Counter(f // bin_width for f in finals)
    first, last = min(counts), max(counts)
    slots = last - first + 1
    step = (WIDTH - LEFT) / slots
    tall = max(counts.values())
    plot = HEIGHT - BOTTOM - TOP
    bars = []
    for i, b in enumerate(range(first, last + 1)):
        h = plot * counts.get(b, 0) / tall
        bars.append(Bar(round(LEFT + i * step + 1, 1), round(TOP + plot - h, 1),
                        round(max(step - 2, 1), 1), round(h, 1), b * bin_width,
                        b * bin_width + bin_width - 1,
                        counts.get(b, 0)))
    every = max(1, slots // 5)
    ticks = [Tick(round(LEFT + i * step, 1), HEIGHT - 4, str(b * bin_width))
             for i, b in enumerate(range(first, last + 1)) if i % every == 0]
    return {"bars": bars, "ticks": ticks, "most": Tick(LEFT - 4, TOP + 8, str(tall)),
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
        return round(TOP + plot * (high - v) / span, 1)

    points = " ".join(f"{round(LEFT + i * dx, 1)},{y(v)}" for i, v in enumerate(finals))
    mean = sum(finals) / len(finals)
    return {"points": points, "mean_y": y(mean), "mean": round(mean), "width": WIDTH,
            "height": HEIGHT, "right": WIDTH, "left": LEFT,
            "ticks": [Tick(LEFT - 4, y(high) + 4, str(high)), Tick(LEFT - 4, y(low), str(low))],
            "games": len(finals)}
