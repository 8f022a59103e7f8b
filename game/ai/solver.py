"""Exact dynamic programming for one scorecard: the expected final score of optimal play.

A state between turns is (filled boxes as a bitmask, upper subtotal capped at 63, and — for
rulesets with a Yahtzee bonus — whether the yahtzee box holds 50). ``values[mask, upper, y]``
is the expected number of points still to come (bonuses included) under optimal play, so the
expected final score of a card is what it has banked plus that value. The upper bonus is
counted when the subtotal crosses the threshold, so a full card is worth 0 more.
``second[mask, upper, y]`` and ``third[…]`` are E[(points still to come)²] and E[(…)³] under
the same play (the same choice at every step, ties to the first best as the advisor ranks
them): every position has a standard deviation and a skewness (``Solution.spread``).

States are solved from the fullest cards back to the empty one, a whole level (number of
filled boxes) at a time, each level in chunks of states vectorised over the 252 rolls: the
value of every roll with no rolls left (best box), then for each of the two re-rolls the
expected value of every hold and the best hold of every roll (see ``multisets``). The second
and third moments go along: after the last roll they follow from the best box's value and the
central moments of the state it leads to; a hold's are the means of its rolls' (like its
value); a roll's are its best hold's.
Unreachable states (an upper subtotal the filled upper boxes cannot make) stay NaN.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np

from .multisets import (
    N_ROLLS,
    ROLL_PROBABILITY,
    YAHTZEE_ROLLS,
    best_hold_moments,
    best_hold_values,
    hold_certainties,
    hold_values,
)
from .scoring import UPPER_CAP, FloatArray, IntArray, ScoreTables, score_box

CHUNK = 2048  # states per vectorised step: (252 × 6 × CHUNK) float64 temporaries ≈ 25 MB


@dataclass
class Solution:
    tables: ScoreTables
    #: values[mask, upper, y]: expected points still to come; NaN where unreachable.
    values: FloatArray
    #: second[mask, upper, y], third[…]: E[(points still to come)²] and E[(…)³] under the
    #: same (optimal) play.
    second: FloatArray
    third: FloatArray
    #: The play's taste for risk (``risk.py``): 0 maximises the expected points; otherwise
    #: ``values`` are certainty equivalents (the moments are not kept).
    risk: float = 0.0

    def hold_values(self, roll_values: FloatArray) -> list[FloatArray]:
        """Every hold's value, level by level, under this play (:func:`multisets.hold_values`)."""
        if self.risk:
            return hold_certainties(roll_values, self.risk)
        return hold_values(roll_values)

    def value(self, mask: int, upper: int, yahtzee_50: bool | int = False) -> float:
        return float(self.values[mask, min(upper, UPPER_CAP), int(yahtzee_50)])

    def spread(self, mask: int, upper: int, yahtzee_50: bool | int = False
               ) -> tuple[float, float]:
        """The standard deviation and the skewness of the points still to come."""
        key = (mask, min(upper, UPPER_CAP), int(yahtzee_50))
        return spread_of(float(self.values[key]), float(self.second[key]),
                         float(self.third[key]))


def spread_of(mean: float, second: float, third: float) -> tuple[float, float]:
    """(standard deviation, skewness) from the first three raw moments; (0, 0) for a sure
    thing (rounding can leave a variance of ±1e-9 where it is 0)."""
    variance = second - mean * mean
    if variance < 1e-9:
        return 0.0, 0.0
    central_third = third - 3 * mean * second + 2 * mean ** 3
    return math.sqrt(variance), central_third / variance ** 1.5


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
    yb = tables.yahtzee_box
    solve_rows: list[tuple[int, IntArray]] = []
    copy_rows: list[tuple[int, IntArray, int]] = []
    for mask in masks:
        us = uppers[mask & upper_bits]
        settled = tables.upper_settled(mask, us)
        dead, alive = us[settled], us[~settled]
        reps = alive if not len(dead) else np.concatenate(([dead[0]], alive))
        solve_rows.append((mask, reps))
        if len(dead) > 1:
            copy_rows.append((mask, dead[1:], int(dead[0])))
    ys = (0, 1) if yb is not None else (0,)

    def expand(rows: list[Any], with_rep: bool) -> tuple[np.ndarray, ...]:
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


def last_roll_values(tables: ScoreTables, values: FloatArray, m: IntArray, u: IntArray,
                     y: IntArray) -> FloatArray:
    """(252, S): for states (m, u, y), the value of each roll with no roll left (best box).

    The value counts the box's points, any bonus it earns, and the expected rest of the game.
    """
    return _last_roll(tables, values, None, m, u, y)[0]


def last_roll_moments(solution: Solution, m: IntArray, u: IntArray, y: IntArray
                      ) -> tuple[FloatArray, FloatArray, FloatArray]:
    """:func:`last_roll_values`, and (252, S) each the second and third moments of the points
    to come after each roll under the same choice of box."""
    value, central = _last_roll(solution.tables, solution.values,
                                (solution.second, solution.third), m, u, y)
    assert central is not None
    variance, third = central
    # The box's points and bonuses shift the rest of the game by a constant: w = g + V'.
    square = value * value
    return value, square + variance, value * (square + 3 * variance) + third


def _last_roll(tables: ScoreTables, values: FloatArray,
               raw: tuple[FloatArray, FloatArray] | None, m: IntArray, u: IntArray,
               y: IntArray) -> tuple[FloatArray, tuple[FloatArray, FloatArray] | None]:
    """The best box's value for each roll and (given the ``raw`` second and third moment
    tables) the variance and third central moment of the rest of the game after it (ties: the
    first best box in scorecard order, as the advisor ranks them)."""
    best = np.full((N_ROLLS, len(m)), -np.inf)
    tmp = np.empty_like(best)
    central = None if raw is None else (np.zeros_like(best), np.zeros_like(best))
    for b in range(tables.n_boxes):
        is_open = (m & 1 << b) == 0
        if not is_open.any():
            continue
        # Each distinct score of the box (K of them, shape (K, 1)), then each roll by its score.
        out = score_box(tables, b, m, u, y, tables.point_values[b][:, None])
        after_state = (out.mask, out.upper, out.yahtzee_50)
        after = values[after_state]
        same_after = after.ndim == 1 and np.ndim(out.bonuses) < 2
        if same_after:
            # The state after does not depend on the score (most lower boxes): add the points
            # of every roll at once.
            rest = np.where(is_open, out.bonuses + after, -np.inf)
            np.add(tables.base[:, b][:, None], rest, out=tmp)
        else:
            per_score = np.where(is_open, out.points + out.bonuses + after, -np.inf)
            np.take(per_score, tables.point_index[:, b], axis=0, out=tmp)
        if central is not None and raw is not None:
            better = tmp > best
            for kept, moment in zip(central, _central(after, raw, after_state), strict=True):
                rows = (moment[None, :] if same_after
                        else np.take(moment, tables.point_index[:, b], axis=0))
                np.copyto(kept, np.broadcast_to(rows, kept.shape), where=better)
        np.maximum(best, tmp, out=best)
    _joker_rows(tables, values, raw, m, u, y, best, central)
    return best, central


def _central(mean: FloatArray, raw: tuple[FloatArray, FloatArray], state: tuple[Any, ...]
             ) -> tuple[FloatArray, FloatArray]:
    """Variance and third central moment of the points to come from ``state`` (mean given)."""
    second, third = raw[0][state], raw[1][state]
    return second - mean * mean, third - mean * (3 * second - 2 * mean * mean)


def _joker_rows(tables: ScoreTables, values: FloatArray,
                raw: tuple[FloatArray, FloatArray] | None, m: IntArray, u: IntArray,
                y: IntArray, best: FloatArray,
                central: tuple[FloatArray, FloatArray] | None) -> None:
    """Re-value the six five-of-a-kind rolls where the Joker rule applies (yahtzee box filled)."""
    if tables.joker_legal is None or tables.joker_points is None:
        return
    cols = np.nonzero(tables.joker_on(m))[0]
    if not len(cols):
        return
    m, u, y = m[cols], u[cols], y[cols]
    legal = tables.joker_legal[m].transpose(1, 2, 0)  # (faces, boxes, S')
    points = tables.joker_points[m].transpose(1, 2, 0)
    top = np.full((6, len(cols)), -np.inf)
    top_central = (np.zeros_like(top), np.zeros_like(top))
    yahtzee_bonus: object = 0
    for b in range(tables.n_boxes):
        ok = legal[:, b]
        if not ok.any():
            continue
        out = score_box(tables, b, m, u, y, points[:, b], joker=True)
        after_state = (out.mask, out.upper, out.yahtzee_50)
        after = values[after_state]
        cand = np.where(ok, out.points + out.upper_bonus + after, -np.inf)
        if raw is not None:
            better = cand > top
            for kept, moment in zip(top_central, _central(after, raw, after_state),
                                    strict=True):
                np.copyto(kept, moment, where=better)
        np.maximum(top, cand, out=top)
        yahtzee_bonus = out.yahtzee_bonus
    # The Yahtzee bonus is the same whichever box takes the Joker: added after the best.
    rows = (YAHTZEE_ROLLS[:, None], cols[None, :])
    best[rows] = top + yahtzee_bonus
    if central is not None:
        for kept, moment in zip(central, top_central, strict=True):
            kept[rows] = moment


def turn_values(tables: ScoreTables, values: FloatArray, m: IntArray, u: IntArray,
                y: IntArray) -> FloatArray:
    """Expected final value (points to come) of states (m, u, y) at the start of a turn."""
    v = last_roll_values(tables, values, m, u, y)
    for _ in range(2):
        v = best_hold_values(hold_values(v))
    return np.asarray(ROLL_PROBABILITY @ v)


def turn_moments(solution: Solution, m: IntArray, u: IntArray, y: IntArray
                 ) -> tuple[FloatArray, ...]:
    """:func:`turn_values` and the second and third moments of the points to come, all under
    the same play."""
    rows: tuple[FloatArray, ...] = last_roll_moments(solution, m, u, y)
    for _ in range(2):
        rows = best_hold_moments(*map(hold_values, rows))
    return tuple(np.asarray(ROLL_PROBABILITY @ r) for r in rows)


def turn_certainties(solution: Solution, m: IntArray, u: IntArray, y: IntArray
                     ) -> FloatArray:
    """:func:`turn_values` under a play with a taste for risk (``solution.risk``): the
    certainty equivalent of the points to come (a throw of all five dice is the empty hold)."""
    v = last_roll_values(solution.tables, solution.values, m, u, y)
    for _ in range(2):
        v = best_hold_values(solution.hold_values(v))
    return solution.hold_values(v)[0][0]


def _chunks(n: int) -> Iterator[slice]:
    for start in range(0, n, CHUNK):
        yield slice(start, min(n, start + CHUNK))


def solve(tables: ScoreTables, progress: Callable[[int], None] | None = None,
          risk: float = 0.0, max_open: int | None = None) -> Solution:
    """Solve every reachable state (or those with at most ``max_open`` boxes open: for tests);
    ``progress(n)`` is told of each ``n`` states done. With a ``risk`` (``risk.py``) the values
    are certainty equivalents and no moments are kept."""
    n = tables.n_boxes
    ydim = 2 if tables.yahtzee_box is not None else 1
    values = np.full((1 << n, UPPER_CAP + 1, ydim), np.nan)
    values[(1 << n) - 1] = 0.0
    solution = Solution(tables, values, values.copy(), values.copy(), risk)
    uppers = reachable_uppers(tables)
    upper_bits = sum(1 << b for b, f in enumerate(tables.upper_face) if f)
    by_level: list[list[int]] = [[] for _ in range(n + 1)]
    for mask in range((1 << n) - 1):
        by_level[mask.bit_count()].append(mask)
    for level in range(n - 1, -1 if max_open is None else n - max_open - 1, -1):
        m, u, y, copy_m, copy_u, copy_y, copy_from_u = _states(
            tables, by_level[level], uppers, upper_bits)
        for part in _chunks(len(m)):
            state = (m[part], u[part], y[part])
            if risk:
                values[state] = turn_certainties(solution, *state)
            else:
                values[state], solution.second[state], solution.third[state] = turn_moments(
                    solution, *state)
            if progress:
                progress(part.stop - part.start)
        for table in (values, solution.second, solution.third):
            table[copy_m, copy_u, copy_y] = table[copy_m, copy_from_u, copy_y]
    return solution


def count_states(tables: ScoreTables) -> int:
    """How many states ``solve`` evaluates (for progress bars)."""
    n = tables.n_boxes
    uppers = reachable_uppers(tables)
    upper_bits = sum(1 << b for b, f in enumerate(tables.upper_face) if f)
    return len(_states(tables, list(range((1 << n) - 1)), uppers, upper_bits)[0])
