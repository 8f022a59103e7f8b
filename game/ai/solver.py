"""Exact dynamic programming for one scorecard: the expected final score of optimal play.

A state between turns is (filled boxes as a bitmask, upper subtotal capped at 63, and — for
rulesets with a Yahtzee bonus — whether the yahtzee box holds 50). ``values[mask, upper, y]``
is the expected number of points still to come (bonuses included) under optimal play, so the
expected final score of a card is what it has banked plus that value. The upper bonus is
counted when the subtotal crosses the threshold, so a full card is worth 0 more.

States are solved from the fullest cards back to the empty one, a whole level (number of
filled boxes) at a time, each level in chunks of states vectorised over the 252 rolls: the
value of every roll with no rolls left (best box), then for each of the two re-rolls the
expected value of every hold and the best hold of every roll (see ``multisets``).
Unreachable states (an upper subtotal the filled upper boxes cannot make) stay NaN.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

import numpy as np

from .multisets import (
    COUNTS,
    ROLL_PROBABILITY,
    YAHTZEE_ROLLS,
    best_hold_values,
    hold_values,
)
from .scoring import UPPER_CAP, ScoreTables

CHUNK = 2048  # states per vectorised step: (252 × 6 × CHUNK) float64 temporaries ≈ 25 MB


@dataclass
class Solution:
    tables: ScoreTables
    #: values[mask, upper, y]: expected points still to come; NaN where unreachable.
    values: np.ndarray

    def value(self, mask: int, upper: int, yahtzee_50: bool = False) -> float:
        return float(self.values[mask, min(upper, UPPER_CAP), int(yahtzee_50)])


def reachable_uppers(tables: ScoreTables) -> dict[int, np.ndarray]:
    """For each set of filled upper boxes (a bitmask over the boxes), the subtotals possible."""
    faces = [(b, int(f)) for b, f in enumerate(tables.upper_face) if f]
    result: dict[int, np.ndarray] = {}
    for sub in range(1 << len(faces)):
        totals = {0}
        bits = 0
        for i, (b, f) in enumerate(faces):
            if sub >> i & 1:
                bits |= 1 << b
                totals = {min(UPPER_CAP, t + f * k) for t in totals for k in range(6)}
        result[bits] = np.array(sorted(totals), dtype=np.intp)
    return result


def _states(tables: ScoreTables, masks: list[int], uppers: dict[int, np.ndarray],
            upper_bits: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    ms, us, ys = [], [], []
    yb = tables.yahtzee_box
    for mask in masks:
        u = uppers[mask & upper_bits]
        for y in (0, 1) if yb is not None and mask >> yb & 1 else (0,):
            ms.append(np.full(len(u), mask))
            us.append(u)
            ys.append(np.full(len(u), y))
    return (np.concatenate(ms).astype(np.intp), np.concatenate(us).astype(np.intp),
            np.concatenate(ys).astype(np.intp))


def last_roll_values(tables: ScoreTables, values: np.ndarray, m: np.ndarray, u: np.ndarray,
                     y: np.ndarray) -> np.ndarray:
    """(252, S): for states (m, u, y), the value of each roll with no roll left (best box).

    The value counts the box's points, any bonus it earns, and the expected rest of the game.
    """
    rs = tables.ruleset
    s = len(m)
    best = np.full((len(COUNTS), s), -np.inf)
    cap_bonus = rs.upper_bonus
    threshold = min(rs.upper_bonus_threshold, UPPER_CAP)
    yb = tables.yahtzee_box
    for b in range(tables.n_boxes):
        bit = 1 << b
        is_open = (m & bit) == 0
        if not is_open.any():
            continue
        nm = m | bit
        face = int(tables.upper_face[b])
        if face:
            val = np.empty((6, s))
            for c in range(6):
                pts = face * c
                nu = np.minimum(UPPER_CAP, u + pts)
                bonus = np.where((u < threshold) & (u + pts >= threshold), cap_bonus, 0)
                val[c] = np.where(is_open, pts + bonus + values[nm, nu, y], -np.inf)
            np.maximum(best, val[COUNTS[:, face - 1]], out=best)
        elif b == yb:
            # Scoring 50 here turns the Yahtzee bonus on for the rest of the game.
            fut0 = np.where(is_open, values[nm, u, 0], -np.inf)
            fut1 = np.where(is_open, values[nm, u, 1], -np.inf)
            hit = tables.base[:, b] > 0
            cand = np.where(hit[:, None], fut1[None, :], fut0[None, :])
            cand += tables.base[:, b][:, None]
            np.maximum(best, cand, out=best)
        else:
            fut = np.where(is_open, values[nm, u, y], -np.inf)
            np.maximum(best, tables.base[:, b][:, None] + fut[None, :], out=best)
    if tables.joker_legal is not None and yb is not None:
        _joker_rows(tables, values, m, u, y, best)
    return best


def _joker_rows(tables: ScoreTables, values: np.ndarray, m: np.ndarray, u: np.ndarray,
                y: np.ndarray, best: np.ndarray) -> None:
    """Re-value the six five-of-a-kind rolls where the Joker rule applies (yahtzee box filled)."""
    rs = tables.ruleset
    cols = np.nonzero(m >> tables.yahtzee_box & 1)[0]
    if not len(cols):
        return
    m, u, y = m[cols], u[cols], y[cols]
    threshold = min(rs.upper_bonus_threshold, UPPER_CAP)
    bonus_y = np.where(y == 1, rs.yahtzee_bonus, 0)
    for f in range(6):
        legal = tables.joker_legal[m, f]  # (S', boxes)
        top = np.full(len(cols), -np.inf)
        for b in range(tables.n_boxes):
            ok = legal[:, b]
            if not ok.any():
                continue
            pts = tables.joker_points[m, f, b]
            nm = m | (1 << b)
            if tables.upper_face[b]:
                nu = np.minimum(UPPER_CAP, u + pts.astype(np.intp))
                extra = np.where((u < threshold) & (u + pts >= threshold), rs.upper_bonus, 0)
            else:
                nu, extra = u, 0
            cand = np.where(ok, pts + extra + values[nm, nu, y], -np.inf)
            np.maximum(top, cand, out=top)
        best[YAHTZEE_ROLLS[f], cols] = top + bonus_y


def turn_values(tables: ScoreTables, values: np.ndarray, m: np.ndarray, u: np.ndarray,
                y: np.ndarray) -> np.ndarray:
    """Expected final value (points to come) of states (m, u, y) at the start of a turn."""
    v = last_roll_values(tables, values, m, u, y)
    for _ in range(2):
        v = best_hold_values(hold_values(v))
    return ROLL_PROBABILITY @ v


def _chunks(n: int) -> Iterator[slice]:
    for start in range(0, n, CHUNK):
        yield slice(start, min(n, start + CHUNK))


def solve(tables: ScoreTables, progress: Callable[[int], None] | None = None) -> Solution:
    """Solve every reachable state; ``progress(n)`` is told of each ``n`` states done."""
    n = tables.n_boxes
    ydim = 2 if tables.yahtzee_box is not None else 1
    values = np.full((1 << n, UPPER_CAP + 1, ydim), np.nan)
    values[(1 << n) - 1] = 0.0
    uppers = reachable_uppers(tables)
    upper_bits = sum(1 << b for b, f in enumerate(tables.upper_face) if f)
    by_level: list[list[int]] = [[] for _ in range(n + 1)]
    for mask in range((1 << n) - 1):
        by_level[mask.bit_count()].append(mask)
    for level in range(n - 1, -1, -1):
        m, u, y = _states(tables, by_level[level], uppers, upper_bits)
        for part in _chunks(len(m)):
            values[m[part], u[part], y[part]] = turn_values(
                tables, values, m[part], u[part], y[part])
            if progress:
                progress(part.stop - part.start)
    return Solution(tables, values)


def count_states(tables: ScoreTables) -> int:
    """How many states ``solve`` evaluates (for progress bars)."""
    n = tables.n_boxes
    uppers = reachable_uppers(tables)
    upper_bits = sum(1 << b for b, f in enumerate(tables.upper_face) if f)
    total = 0
    for mask in range((1 << n) - 1):
        k = len(uppers[mask & upper_bits])
        yb = tables.yahtzee_box
        total += k * (2 if yb is not None and mask >> yb & 1 else 1)
    return total
