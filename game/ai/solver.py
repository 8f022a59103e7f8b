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
            upper_bits: int) -> tuple[np.ndarray, ...]:
    """The states of ``masks`` to solve, and the states that share a solved one's value.

    The upper subtotal only matters while the bonus is still in play: once no open upper box
    is left, or the open ones cannot reach the threshold any more, every such subtotal has the
    same value, so one representative is solved and copied to the others.
    Returns (m, u, y) to solve and (m, u, y, u_rep) to copy from (m, u_rep, y).
    """
    threshold = min(tables.ruleset.upper_bonus_threshold, UPPER_CAP)
    yb = tables.yahtzee_box
    solve_rows: list[tuple[int, np.ndarray]] = []
    copy_rows: list[tuple[int, np.ndarray, int]] = []
    for mask in masks:
        us = uppers[mask & upper_bits]
        still = sum(int(f) for b, f in enumerate(tables.upper_face) if f and not mask >> b & 1)
        lo = threshold - 5 * still if still else UPPER_CAP + 1
        dead, alive = us[us < lo], us[us >= lo]
        reps = alive if not len(dead) else np.concatenate(([dead[0]], alive))
        solve_rows.append((mask, reps))
        if len(dead) > 1:
            copy_rows.append((mask, dead[1:], int(dead[0])))
    ys = (0, 1) if yb is not None else (0,)

    def expand(rows: list, with_rep: bool) -> tuple[np.ndarray, ...]:
        out: list[list[np.ndarray]] = [[], [], [], []]
        for row in rows:
            mask, us = row[0], row[1]
            for y in ys:
                if y and not mask >> yb & 1:
                    continue
                out[0].append(np.full(len(us), mask))
                out[1].append(us)
                out[2].append(np.full(len(us), y))
                if with_rep:
                    out[3].append(np.full(len(us), row[2]))
        n = 4 if with_rep else 3
        return tuple(np.concatenate(col).astype(np.intp) if col else np.zeros(0, np.intp)
                     for col in out[:n])

    return expand(solve_rows, False) + expand(copy_rows, True)


def last_roll_values(tables: ScoreTables, values: np.ndarray, m: np.ndarray, u: np.ndarray,
                     y: np.ndarray) -> np.ndarray:
    """(252, S): for states (m, u, y), the value of each roll with no roll left (best box).

    The value counts the box's points, any bonus it earns, and the expected rest of the game.
    """
    rs = tables.ruleset
    s = len(m)
    best = np.full((len(COUNTS), s), -np.inf)
    tmp = np.empty_like(best)
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
        col = tables.base[:, b][:, None]
        if face:
            val = np.empty((6, s))
            for c in range(6):
                pts = face * c
                nu = np.minimum(UPPER_CAP, u + pts)
                bonus = np.where((u < threshold) & (u + pts >= threshold), cap_bonus, 0)
                val[c] = np.where(is_open, pts + bonus + values[nm, nu, y], -np.inf)
            np.take(val, COUNTS[:, face - 1], axis=0, out=tmp)
        elif b == yb:
            # Scoring 50 here turns the Yahtzee bonus on for the rest of the game.
            fut0 = np.where(is_open, values[nm, u, 0], -np.inf)
            fut1 = np.where(is_open, values[nm, u, 1], -np.inf)
            np.copyto(tmp, np.where(col > 0, fut1[None, :], fut0[None, :]))
            tmp += col
        else:
            fut = np.where(is_open, values[nm, u, y], -np.inf)
            np.add(col, fut[None, :], out=tmp)
        np.maximum(best, tmp, out=best)
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
        m, u, y, cm, cu, cy, crep = _states(tables, by_level[level], uppers, upper_bits)
        for part in _chunks(len(m)):
            values[m[part], u[part], y[part]] = turn_values(
                tables, values, m[part], u[part], y[part])
            if progress:
                progress(part.stop - part.start)
        values[cm, cu, cy] = values[cm, crep, cy]
    return Solution(tables, values)


def count_states(tables: ScoreTables) -> int:
    """How many states ``solve`` evaluates (for progress bars)."""
    n = tables.n_boxes
    uppers = reachable_uppers(tables)
    upper_bits = sum(1 << b for b, f in enumerate(tables.upper_face) if f)
    return len(_states(tables, list(range((1 << n) - 1)), uppers, upper_bits)[0])
