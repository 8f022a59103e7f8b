"""Playing one column to finish above a known number: the best chance from every state.

``chance(s, n)``: the best chance, over every way of playing the rest of the column, that the
points still to come from state ``s`` (between turns) are more than ``n`` — a tie (exactly
``n``) counted as ``tie`` of a win (½: ties as halves; 0: only a strict win counts). A player
who knows the final score T of an opponent playing for points, with B points banked, wins
with ``chance(s, T − B)``. Chances are kept for ``n`` from 0 (more than nothing is certain
below it) up to ``most`` less the points the state has surely banked (:func:`banked`; a
player with B banked is never asked for more than ``most`` − B).

Built backwards one level (number of filled boxes) at a time like the strategy table, but
each state carries a whole row over ``n``: after the last roll a box is worth the row of the
state it leads to shifted by the points it earns; a hold the mean of its rolls' rows; every
choice the best for each ``n`` separately (the max is taken element-wise over the row, so
the player may play differently for each target). Rows are float32, vectorised over chunks of
(states × n).

Above the largest ``n`` any state of a level reaches with a chance over ``TAIL`` a row counts
as 0 (yahtzee: runs of Yahtzee bonuses): each level may lose at most ``TAIL`` of a chance, so
the chances are low by at most ``TAIL`` × the number of boxes.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
from numpy.lib.stride_tricks import sliding_window_view

from .multisets import N_ROLLS, PARENTS, ROLL_PROBABILITY, YAHTZEE_ROLLS, hold_values
from .scoring import IntArray, Outcome, ScoreTables, score_box
from .solver import Solution, _states, reachable_uppers

F32Array = npt.NDArray[np.float32]
StateKey = tuple[int, int, int]

#: Chances below this, above a level's largest ``n`` that reaches it, count as 0.
TAIL = 1e-9
#: (states × n) columns per vectorised step: (252 × COLUMNS) float32 rows stay in cache.
COLUMNS = 2048
_UNREACHABLE = np.iinfo(np.int32).min


@dataclass
class TargetTable:
    """Every state's best chance to score more than ``n`` more points, for n = 0 … ``most``
    less what the state has surely banked (0 is kept past that)."""

    #: row[mask, upper, y]: the state's row, or −2³¹ where the state is unreachable.
    row: npt.NDArray[np.int32]
    #: State r's chances for n = lo[r], lo[r] + 1, … are values[start[r]:start[r + 1]]; below
    #: lo[r] the chance is 1 (to float32), past them 0.
    start: npt.NDArray[np.int64]
    lo: npt.NDArray[np.int32]
    values: F32Array
    #: The share of a win a tie counts for.
    tie: float
    #: The largest ``n`` kept.
    most: int

    @property
    def nbytes(self) -> int:
        return sum(a.nbytes for a in (self.row, self.start, self.lo, self.values))

    def chances(self, key: StateKey, width: int | None = None) -> npt.NDArray[np.float64]:
        """The chances for n = 0 … ``width`` − 1 (default: ``most``) from state ``key``."""
        r = int(self.row[key])
        if r == _UNREACHABLE:
            raise ValueError(f"No chances for the unreachable state {key}.")
        width = self.most + 1 if width is None else width
        out = np.zeros(width)
        lo = int(self.lo[r])
        out[:min(lo, width)] = 1.0
        kept = self.values[self.start[r]:self.start[r + 1]]
        end = min(width, lo + len(kept))
        if end > lo:
            out[lo:end] = kept[:end - lo]
        return out

    def chance(self, key: StateKey, need: int) -> float:
        """The best chance to score more than ``need`` more points from ``key``."""
        if need < 0:
            return 1.0
        if need > self.most:
            return 0.0
        return float(self.chances(key, need + 1)[need])


def _terminal(tie: float) -> F32Array:
    """A full card scores nothing more: n < 0 is won (the padding), n = 0 a tie."""
    return np.array([[tie]], dtype=np.float32)


def max_gain(tables: ScoreTables) -> int:
    """The most one turn can earn: a box's best points and both bonuses."""
    rs = tables.ruleset
    joker = 0 if tables.joker_points is None else int(tables.joker_points.max())
    return max(int(tables.base.max()), joker) + rs.upper_bonus + rs.yahtzee_bonus


def solve(solution: Solution, most: int, tie: float = 0.5,
          progress: Callable[[int], None] | None = None,
          max_open: int | None = None, workers: int = 1) -> TargetTable:
    """Every reachable state's chances for n = 0 … ``most`` less what it has surely banked
    (:func:`banked`: more is never asked of it), from the full card back to the empty one (or
    to the states with ``max_open`` boxes open: for tests); ``progress(k)`` hears of every
    ``k`` states done; ``workers`` processes share each level (forked: Linux)."""
    t = solution.tables
    n_boxes, full = t.n_boxes, t.full
    shape = solution.values.shape
    row = np.full(shape, _UNREACHABLE, dtype=np.int32)
    row[full] = 0
    pieces = [_ragged(_terminal(tie))]
    n_rows = 1
    nxt = _terminal(tie)
    level_row = np.zeros(shape, dtype=np.int64)  # every full card is row 0 of ``nxt``
    uppers = reachable_uppers(t)
    upper_bits = sum(1 << b for b, f in enumerate(t.upper_face) if f)
    by_level: list[list[int]] = [[] for _ in range(n_boxes + 1)]
    for mask in range(full):
        by_level[mask.bit_count()].append(mask)
    gain_most = max_gain(t)
    ends = np.array([1 if tie else 0])  # how many of each row of ``nxt`` may be above 0
    stop = -1 if max_open is None else n_boxes - 1 - max_open
    for filled in range(n_boxes - 1, stop, -1):
        m, u, y, cm, cu, cy, cfrom = _states(t, by_level[filled], uppers, upper_bits)
        # Past every state after's end (shifted by what the turn earns) a row is 0: each
        # state is computed that far only, in chunks of states that reach about as far.
        reach = np.minimum(most + 1 - banked(t, u, y), _reach(t, level_row, ends, m, u, y))
        reach = np.maximum(1, reach)
        width = int(reach.max())
        # Row n - g of a state after: 1 below 0 (already past the target), 0 past its end.
        padded = np.concatenate([np.ones((len(nxt), gain_most), dtype=np.float32), nxt,
                                 np.zeros((len(nxt), width + gain_most - nxt.shape[1]),
                                          dtype=np.float32)], axis=1)
        new = np.zeros((len(m), width), dtype=np.float32)
        order = np.argsort(-reach, kind="stable")
        chunks = []
        a = 0
        while a < len(m):
            part = order[a:a + max(1, COLUMNS // int(reach[order[a]]))]
            chunks.append((int(reach[part[0]]), part))
            a += len(part)
        _LEVEL.update(t=t, padded=padded, level_row=level_row, gain_most=gain_most, m=m, u=u,
                      y=y)
        for done in _run(chunks, workers):
            for part, rows in done:
                new[part, :rows.shape[1]] = rows
                if progress:
                    progress(len(part))
        _LEVEL.clear()
        # What no state reaches with a chance above TAIL is dropped (counted as 0).
        above = new > TAIL
        ends = np.where(above.any(axis=1), width - np.argmax(above[:, ::-1], axis=1), 0)
        new[np.arange(width)[None, :] >= ends[:, None]] = 0.0
        new = np.ascontiguousarray(new[:, :max(1, int(ends.max()))])
        here = np.zeros(shape, dtype=np.int64)
        here[m, u, y] = np.arange(len(m))
        here[cm, cu, cy] = here[cm, cfrom, cy]
        pieces.append(_ragged(new))
        row[m, u, y] = n_rows + np.arange(len(m))
        row[cm, cu, cy] = row[cm, cfrom, cy]
        n_rows += len(m)
        nxt, level_row = new, here
    lengths = np.concatenate([k for _, _, k in pieces])
    return TargetTable(
        row=row,
        start=np.concatenate(([0], np.cumsum(lengths))).astype(np.int64),
        lo=np.concatenate([lo for _, lo, _ in pieces]).astype(np.int32),
        values=np.concatenate([v for v, _, _ in pieces]).astype(np.float32),
        tie=tie, most=most)


def _ragged(rows: F32Array) -> tuple[F32Array, npt.NDArray[np.int32], IntArray]:
    """Each row without its leading 1s and trailing 0s: the rest end to end, each row's first
    kept ``n`` and how many are kept."""
    w = rows.shape[1]
    below = rows < 1.0
    lo = np.where(below.any(axis=1), np.argmax(below, axis=1), w)
    nonzero = rows > 0
    hi = np.maximum(lo, np.where(nonzero.any(axis=1), w - np.argmax(nonzero[:, ::-1], axis=1),
                                 0))
    cols = np.arange(w)[None, :]
    keep = (cols >= lo[:, None]) & (cols < hi[:, None])
    return rows[keep], lo.astype(np.int32), (hi - lo).astype(np.intp)


def banked(t: ScoreTables, u: IntArray, y: IntArray) -> IntArray:
    """The points a state has surely banked: its upper subtotal (and bonus), and the 50 in
    the yahtzee box when it holds them; every other filled box may hold 0."""
    rs = t.ruleset
    fifty = 0 if t.yahtzee_box is None else int(t.base[:, t.yahtzee_box].max())
    return np.asarray(u + rs.upper_bonus * (u >= t.threshold) + fifty * y, dtype=np.intp)


#: The level being solved, for the worker processes (inherited when they are forked).
_LEVEL: dict[str, Any] = {}
#: Chunks a worker computes per message.
BATCH = 16


def _run(chunks: list[tuple[int, IntArray]], workers: int
         ) -> Iterator[list[tuple[IntArray, F32Array]]]:
    """Each chunk's rows (width, states of the level), here or in ``workers`` processes."""
    batches = [chunks[i:i + BATCH] for i in range(0, len(chunks), BATCH)]
    if workers <= 1:
        yield from map(_work, batches)
        return
    with multiprocessing.get_context("fork").Pool(workers) as pool:
        yield from pool.imap_unordered(_work, batches)


def _work(batch: list[tuple[int, IntArray]]) -> list[tuple[IntArray, F32Array]]:
    lv = _LEVEL
    out = []
    for w, part in batch:
        windows = sliding_window_view(lv["padded"], w, axis=1)  # [state, g_most - g, n]
        out.append((part, _turn(lv["t"], windows, lv["level_row"], lv["gain_most"],
                                lv["m"][part], lv["u"][part], lv["y"][part])))
    return out


def _reach(t: ScoreTables, level_row: npt.NDArray[np.int64], ends: IntArray, m: IntArray,
           u: IntArray, y: IntArray) -> IntArray:
    """For states (m, u, y): past which n every choice of the turn leads to a row that is 0
    (the largest end of a state after, plus what the box earns)."""
    reach = np.zeros(len(m), dtype=np.intp)
    for b in range(t.n_boxes):
        is_open = (m >> b & 1) == 0
        if not is_open.any():
            continue
        out = score_box(t, b, m, u, y, t.point_values[b][:, None])
        far = ends[level_row[out.mask, out.upper, out.yahtzee_50]] + out.points + out.bonuses
        np.maximum(reach, np.where(is_open, np.max(far, axis=0), 0), out=reach)
    if t.joker_legal is not None and t.joker_points is not None:
        cols = np.nonzero(t.joker_on(m))[0]
        if len(cols):
            mj, uj, yj = m[cols], u[cols], y[cols]
            legal = t.joker_legal[mj].transpose(1, 2, 0)
            points = t.joker_points[mj].transpose(1, 2, 0).astype(np.intp)
            for b in range(t.n_boxes):
                if not legal[:, b].any():
                    continue
                out = score_box(t, b, mj, uj, yj, points[:, b], joker=True)
                far = (ends[level_row[out.mask, out.upper, out.yahtzee_50]] + out.points
                       + out.upper_bonus + out.yahtzee_bonus)
                reach[cols] = np.maximum(reach[cols],
                                         np.where(legal[:, b], far, 0).max(axis=0))
    return reach


def _turn(t: ScoreTables, windows: F32Array, level_row: npt.NDArray[np.int64], gain_most: int,
          m: IntArray, u: IntArray, y: IntArray) -> F32Array:
    """(S, width): the chances of states (m, u, y) at the start of a turn."""
    s, width = len(m), windows.shape[2]
    best: F32Array | None = None
    tmp = np.empty((N_ROLLS, s, width), dtype=np.float32)
    for b in range(t.n_boxes):
        is_open = (m >> b & 1) == 0
        if not is_open.any():
            continue
        # Each distinct score of the box (K of them), then each roll by its score.
        out = score_box(t, b, m, u, y, t.point_values[b][:, None])
        worth = _after(windows, level_row, gain_most, out.points + out.bonuses, out)
        if not is_open.all():
            worth[:, ~is_open] = 0.0  # chances are ≥ 0: a filled box never wins the max
        if best is None:
            best = np.take(worth, t.point_index[:, b], axis=0)
        else:
            np.take(worth, t.point_index[:, b], axis=0, out=tmp)
            np.maximum(best, tmp, out=best)
    assert best is not None
    _jokers(t, windows, level_row, gain_most, m, u, y, best)
    rows = best.reshape(N_ROLLS, s * width)
    for _ in range(2):
        rows = _best_holds(hold_values(rows))
    return np.asarray(_ROLL_PROBABILITY @ rows).reshape(s, width)


#: float32, so the last sum stays in single precision (no float64 copy of every row).
_ROLL_PROBABILITY = ROLL_PROBABILITY.astype(np.float32)


def _best_holds(levels: list[F32Array]) -> F32Array:
    """``multisets.best_hold_values`` without its copies: the first max makes the array."""
    best = levels[0]
    for k in range(1, 6):
        parents = PARENTS[k]
        acc = np.maximum(levels[k], best[parents[:, 0]])
        for j in range(1, parents.shape[1]):
            np.maximum(acc, best[parents[:, j]], out=acc)
        best = acc
    return best


def _after(windows: F32Array, level_row: npt.NDArray[np.int64], gain_most: int,
           gain: object, out: Outcome) -> F32Array:
    """(K, S, width): the rows of the states after, shifted by the points earned."""
    rows = level_row[out.mask, out.upper, out.yahtzee_50]
    rows, gain = np.broadcast_arrays(rows, np.asarray(gain, dtype=np.intp))
    return np.asarray(windows[rows, gain_most - gain])


def _jokers(t: ScoreTables, windows: F32Array, level_row: npt.NDArray[np.int64],
            gain_most: int, m: IntArray, u: IntArray, y: IntArray, best: F32Array) -> None:
    """Re-value the six five-of-a-kind rolls where the Joker rule applies (yahtzee box
    filled): only its legal boxes, at its points, with the Yahtzee bonus."""
    if t.joker_legal is None or t.joker_points is None:
        return
    cols = np.nonzero(t.joker_on(m))[0]
    if not len(cols):
        return
    m, u, y = m[cols], u[cols], y[cols]
    legal = t.joker_legal[m].transpose(1, 2, 0)  # (faces, boxes, S')
    points = t.joker_points[m].transpose(1, 2, 0)
    top = np.zeros((6, len(cols), best.shape[2]), dtype=np.float32)
    for b in range(t.n_boxes):
        ok = legal[:, b]
        if not ok.any():
            continue
        out = score_box(t, b, m, u, y, points[:, b].astype(np.intp), joker=True)
        worth = _after(windows, level_row, gain_most,
                       out.points + out.upper_bonus + out.yahtzee_bonus, out)
        worth[~ok] = 0.0
        np.maximum(top, worth, out=top)
    best[YAHTZEE_ROLLS[:, None], cols[None, :]] = top
