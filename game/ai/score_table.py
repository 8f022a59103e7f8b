"""The whole distribution of the points still to come from every state, under optimal play.

A player's final score depends on their own card only (every player maximises their own
expectation), so one table serves every game: for each state between turns (mask, capped
upper subtotal, yahtzee box holds 50) the distribution of the points to come.

It is built backwards, one level (number of filled boxes) at a time, like the values: each
state's turn is followed through the optimal policy's holds (the first best; keeping all five
means scoring now) to the chance of ending the turn on each roll, then its best box (the first
best in scorecard order, as the advisor ranks them) gives the points earned and the state
after, so the distribution is the mixture of the next level's, shifted by those points. Each
level is computed exactly (float32) from the next one, then kept:

* **exactly** for the last ``EXACT_LEVELS`` levels (at most that many boxes open): each
  state's probabilities over its support, end to end (``exact_*`` arrays);
* as **quantiles** before (``QUANTILES`` of them per state at fixed levels, in 1/16 points):
  their piecewise-linear CDF is within a small distance of the exact one (measured at build
  time, ``max_ks``: the largest gap between the CDFs over a sample of states).

Points beyond ``CAP`` (yahtzee: many Yahtzee bonuses; below 1e-9 of the mass from any state)
are counted at ``CAP``.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from .multisets import (
    HOLD_SIZE,
    LEVELS,
    N_HOLDS,
    N_ROLLS,
    PARENTS,
    ROLL_PROBABILITY,
    best_hold_values,
    throw_table,
)
from .scoring import FloatArray, IntArray, score_roll
from .solver import Solution, _states, last_roll_values, reachable_uppers

#: Open boxes up to which a state's distribution is kept whole.
EXACT_LEVELS = 4
#: Quantiles kept per state before that: at fixed levels, denser in the tails.
QUANTILES = 64
#: Points to come counted at most (the rest is lumped there).
CAP = 1024
#: Points to come with at most this chance from every state of a level are counted at the
#: last one above it (yahtzee: runs of Yahtzee bonuses; ~1e-9 of the mass at most).
TAIL = 1e-11
#: States per vectorised step of the build.
CHUNK = 512
#: Quantiles are stored as uint16 in these fractions of a point (up to 4095.9 points).
SCALE = 16
#: Distributions read from the quantiles kept per table (~2-8 kB each): a turn played out
#: over the states after it reads ~30 of them, and the turns of other games reach many of
#: the same states.
DECODED = 4096


def quantile_levels(n: int = QUANTILES) -> FloatArray:
    """The cumulative chances at which quantiles are kept: 0 and 1 (the support's ends), and
    between them a mix of even steps and a normal's, so the tails (a player far behind) are
    drawn as finely as the middle."""
    from math import erf, sqrt
    inner = n - 2
    z = np.linspace(-4.5, 4.5, inner)
    normal = np.array([0.5 * (1 + erf(v / sqrt(2))) for v in z])
    even = (np.arange(inner) + 0.5) / inner
    return np.concatenate(([0.0], (normal + even) / 2, [1.0]))


Distribution = tuple[int, FloatArray]
F32Array = npt.NDArray[np.float32]


@dataclass
class ScoreTable:
    """Distributions of the points to come for every state of one ruleset's column."""

    #: row[mask, upper, y]: the state's row in ``exact_*`` (≥ 0) or in ``quantiles``
    #: (−1 − row), or −2³¹ where the state is unreachable.
    row: npt.NDArray[np.int32]
    #: exact_start[r]: where state r's probabilities start in ``exact_probs``;
    #: exact_lo[r]: the points they start at (their length: exact_start[r + 1] − exact_start[r]).
    exact_start: npt.NDArray[np.int64]
    exact_lo: npt.NDArray[np.int32]
    exact_probs: npt.NDArray[np.float32]
    #: quantiles[r, j]: the points at cumulative chance ``levels[j]``, × ``SCALE``.
    quantiles: npt.NDArray[np.uint16]
    levels: FloatArray
    #: The most boxes open in a state kept whole.
    exact_open: int = EXACT_LEVELS
    #: Distributions read from the quantiles lately, by row (the least recent go first).
    _decoded: OrderedDict[int, Distribution] = field(default_factory=OrderedDict, repr=False,
                                                     compare=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)

    @property
    def nbytes(self) -> int:
        return sum(a.nbytes for a in (self.row, self.exact_start, self.exact_lo,
                                      self.exact_probs, self.quantiles, self.levels))

    @property
    def exact_levels(self) -> int:
        """The table keeps whole the states with at most this many boxes open."""
        return int(self.exact_open)

    def is_exact(self, key: tuple[int, int, int]) -> bool:
        return int(self.row[key]) >= 0

    def distribution(self, key: tuple[int, int, int]) -> Distribution:
        """The points to come from ``key`` at the start of a turn: exact where kept whole,
        else from the quantiles (uniform density between two of them; kept for the next
        turns that lead to the same state, read-only)."""
        r = int(self.row[key])
        if r >= 0:
            a, b = int(self.exact_start[r]), int(self.exact_start[r + 1])
            return int(self.exact_lo[r]), self.exact_probs[a:b].astype(np.float64)
        if r == _UNREACHABLE:
            raise ValueError(f"No distribution for the unreachable state {key}.")
        with self._lock:
            found = self._decoded.get(r)
            if found is not None:
                self._decoded.move_to_end(r)
                return found
        found = from_quantiles(decode(self.quantiles[-1 - r]), self.levels)
        found[1].flags.writeable = False
        with self._lock:
            self._decoded[r] = found
            while len(self._decoded) > DECODED:
                self._decoded.popitem(last=False)
        return found


_UNREACHABLE = np.iinfo(np.int32).min


def encode(x: FloatArray) -> npt.NDArray[np.uint16]:
    """Quantiles (≥ −½ point) in whole 1/SCALE points, shifted by half a point."""
    return np.round((x + 0.5) * SCALE).astype(np.uint16)


def decode(stored: npt.NDArray[np.uint16]) -> FloatArray:
    return stored.astype(np.float64) / SCALE - 0.5


def from_quantiles(x: FloatArray, levels: FloatArray) -> Distribution:
    """Whole-number probabilities from quantiles ``x`` at cumulative chances ``levels``
    (x[0], x[-1]: the ends of the support, half a point outside the extreme whole numbers)."""
    lo, hi = int(np.ceil(x[0])), int(np.floor(x[-1]))
    edges = np.arange(lo, hi + 2) - 0.5
    cdf = np.interp(edges, x, levels)
    # Quantiles stored in 1/SCALE points can coincide with an end of the support: all the
    # mass is inside it all the same.
    cdf[0], cdf[-1] = 0.0, 1.0
    return lo, np.diff(cdf)


def to_quantiles(probs: FloatArray, levels: FloatArray) -> FloatArray:
    """(S, L) probabilities of 0 … L−1 points → (S, len(levels)) quantiles, each whole number
    k spread evenly over [k − ½, k + ½)."""
    s, n = probs.shape
    cdf = np.cumsum(probs, axis=1, dtype=np.float64)
    cdf /= cdf[:, -1:]
    # Rows made increasing end to end (each row's CDF in [0, 1], plus 2 × its index), so one
    # searchsorted finds every row's crossing of every level.
    flat = (cdf + 2.0 * np.arange(s)[:, None]).ravel()
    inner = levels[1:-1]
    target = inner[None, :] + 2.0 * np.arange(s)[:, None]
    at = np.searchsorted(flat, target.ravel(), side="left").reshape(s, -1) - np.arange(s)[
        :, None] * n
    at = np.minimum(at, n - 1)
    before = np.where(at > 0, np.take_along_axis(cdf, np.maximum(at - 1, 0), axis=1), 0.0)
    here = np.take_along_axis(cdf, at, axis=1)
    step = np.maximum(here - before, 1e-300)
    inner_x = at - 0.5 + np.clip((inner[None, :] - before) / step, 0.0, 1.0)
    nonzero = probs > 0
    first = np.argmax(nonzero, axis=1)
    last = n - 1 - np.argmax(nonzero[:, ::-1], axis=1)
    return np.concatenate([(first - 0.5)[:, None], inner_x, (last + 0.5)[:, None]], axis=1)


# --- one turn of many states -------------------------------------------------------------

def best_holds(levels: list[FloatArray]) -> IntArray:
    """(252, S): the best hold of every roll (an index of ``HOLDS``), as
    :func:`multisets.best_hold_values` finds it: level by level up, a parent's best replacing
    a hold only when strictly better, so on equal values the larger hold is kept."""
    best, index = levels[0], np.zeros(levels[0].shape, dtype=np.intp)
    for k in range(1, 6):
        parents = PARENTS[k]
        acc = levels[k].copy()
        idx = np.broadcast_to((_LEVEL_START[k] + np.arange(len(acc)))[:, None],
                              acc.shape).copy()
        for j in range(parents.shape[1]):
            candidate = best[parents[:, j]]
            better = candidate > acc
            np.copyto(idx, index[parents[:, j]], where=better)
            np.maximum(acc, candidate, out=acc)
        best, index = acc, idx
    return index


_LEVEL_START = np.cumsum([0] + [len(level) for level in LEVELS[:-1]])


def turn_endings(solution: Solution, m: IntArray, u: IntArray, y: IntArray
                 ) -> tuple[FloatArray, IntArray, IntArray, IntArray, IntArray]:
    """For states (m, u, y) at the start of a turn, under the solution's play: the chance
    (S, 252) that the turn ends on each roll, and what that roll's best box earns (S, 252:
    points and bonuses) and leads to (the state after: mask, upper, y)."""
    tables, values = solution.tables, solution.values
    s = len(m)
    last = last_roll_values(tables, values, m, u, y)
    one = solution.hold_values(last)
    two = solution.hold_values(best_hold_values(one))
    rolls = np.broadcast_to(ROLL_PROBABILITY, (s, N_ROLLS)).copy()
    ended = np.zeros((s, N_ROLLS))
    cols = np.arange(s)
    throws = throw_table()
    for levels in (two, one):
        hold = best_holds(levels).T  # (S, 252)
        now = HOLD_SIZE[hold] == 5
        ended += np.where(now, rolls, 0.0)
        kept = np.bincount((cols[:, None] * N_HOLDS + hold).ravel(),
                           weights=np.where(now, 0.0, rolls).ravel(),
                           minlength=s * N_HOLDS).reshape(s, N_HOLDS)
        rolls = kept @ throws
    ended += rolls
    # The best box of every roll, the first best in scorecard order.
    rows = np.arange(N_ROLLS)[:, None]
    best = np.full((N_ROLLS, s), -np.inf)
    gain = np.zeros((N_ROLLS, s), dtype=np.intp)
    after = [np.zeros((N_ROLLS, s), dtype=np.intp) for _ in range(3)]
    for b in range(tables.n_boxes):
        is_open = (m >> b & 1) == 0
        if not is_open.any():
            continue
        out, legal = score_roll(tables, b, m[None, :], u[None, :], y[None, :], rows)
        earned = np.broadcast_to(out.points + out.bonuses, best.shape)
        state = tuple(np.broadcast_to(v, best.shape) for v in
                      (out.mask, out.upper, out.yahtzee_50))
        worth = np.where(legal & is_open[None, :], earned + values[state], -np.inf)
        better = worth > best
        np.copyto(gain, earned.astype(np.intp), where=better)
        for kept_state, v in zip(after, state, strict=True):
            np.copyto(kept_state, v.astype(np.intp), where=better)
        np.maximum(best, worth, out=best)
    return ended, gain.T, after[0].T, after[1].T, after[2].T


def _mix_level(ended: FloatArray, gain: IntArray, nxt: IntArray, dist: F32Array,
               width: int) -> F32Array:
    """(S, width) distributions: Σ_roll ended · dist[nxt] shifted by gain (past ``width``
    lumped into the last column)."""
    s = len(ended)
    nonzero = ended > 0
    srow = np.nonzero(nonzero)[0]
    p, g, n = ended[nonzero], gain[nonzero], nxt[nonzero]
    # Merge the rolls that lead to the same (state, gain, next state).
    nn = dist.shape[0]
    gmax = int(g.max()) + 1
    code = (srow.astype(np.int64) * nn + n) * gmax + g
    code, inverse = np.unique(code, return_inverse=True)
    p = np.bincount(inverse, weights=p).astype(np.float32)
    g = (code % gmax).astype(np.intp)
    n = (code // gmax % nn).astype(np.intp)
    srow = (code // gmax // nn).astype(np.intp)
    out = np.zeros((s, width), dtype=np.float32)
    length = dist.shape[1]
    order = np.lexsort((srow, g))
    g, n, srow, p = g[order], n[order], srow[order], p[order]
    starts = np.concatenate(([0], np.nonzero(np.diff(g))[0] + 1, [len(g)]))
    for a, b in zip(starts[:-1], starts[1:], strict=True):
        shift = int(g[a])
        part = dist[n[a:b]] * p[a:b, None]
        runs = np.concatenate(([0], np.nonzero(np.diff(srow[a:b]))[0] + 1))
        summed = np.add.reduceat(part, runs, axis=0)
        who = srow[a:b][runs]
        room = width - shift
        if room >= length:
            out[who, shift:shift + length] += summed
        else:
            out[who, shift:] += summed[:, :room]
            out[who, -1] += summed[:, room:].sum(axis=1)
    return out


# --- the build ---------------------------------------------------------------------------


def build(solution: Solution, progress: Callable[[int], None] | None = None,
          exact_levels: int = EXACT_LEVELS, max_open: int | None = None,
          sample: int = 400) -> tuple[ScoreTable, dict[str, Any]]:
    """Every state's distribution from the fullest cards back to the empty one (or to the
    states with ``max_open`` boxes open: for tests). Returns the table and what the build
    measured: ``max_ks`` / ``mean_ks`` (the quantiles' largest CDF gap to the exact
    distribution over ``sample`` states per level), ``max_lumped`` (the most mass lumped at
    ``CAP``), and per level (``levels``) its states and those figures."""
    t = solution.tables
    n = t.n_boxes
    values = solution.values
    levels = quantile_levels()
    row = np.full(values.shape, _UNREACHABLE, dtype=np.int32)
    full = (1 << n) - 1
    row[full] = 0
    exact: list[tuple[int, F32Array]] = [(0, np.ones(1, dtype=np.float32))]
    quantiles: list[npt.NDArray[np.uint16]] = []
    n_quantiles = 0
    dist = np.ones((1, 1), dtype=np.float32)  # the level after: full cards score 0 more
    level_row = np.zeros(values.shape, dtype=np.int64)  # row of each state in ``dist``
    uppers = reachable_uppers(t)
    upper_bits = sum(1 << b for b, f in enumerate(t.upper_face) if f)
    by_level: list[list[int]] = [[] for _ in range(n + 1)]
    for mask in range(full):
        by_level[mask.bit_count()].append(mask)
    ks: list[float] = []
    level_stats: list[dict[str, Any]] = []
    lumped = 0.0
    max_gain = int(t.base.max()) + t.ruleset.upper_bonus + t.ruleset.yahtzee_bonus
    rng = np.random.default_rng(0)
    for filled in range(n - 1, n - 1 - (n if max_open is None else max_open), -1):
        open_boxes = n - filled
        m, u, y, cm, cu, cy, cfrom = _states(t, by_level[filled], uppers, upper_bits)
        width = min(CAP + 1, dist.shape[1] + max_gain)
        new = np.zeros((len(m), width), dtype=np.float32)
        for a in range(0, len(m), CHUNK):
            part = slice(a, min(len(m), a + CHUNK))
            ended, gain, am, au, ay = turn_endings(solution, m[part], u[part], y[part])
            nxt = level_row[am, au, ay]
            new[part] = _mix_level(ended, gain, nxt, dist, width)
            if progress:
                progress(part.stop - part.start)
        lumped = max(lumped, float(new[:, -1].max()) if width == CAP + 1 else 0.0)
        # Columns no state reaches with a chance above TAIL are lumped into the last kept one.
        keep = int(np.nonzero(new.max(axis=0) > TAIL)[0][-1]) + 1
        if keep < new.shape[1]:
            new[:, keep - 1] += new[:, keep:].sum(axis=1)
        new = np.ascontiguousarray(new[:, :keep])
        here = np.zeros(values.shape, dtype=np.int64)
        here[m, u, y] = np.arange(len(m))
        here[cm, cu, cy] = here[cm, cfrom, cy]
        sizes = (new > 0)
        level_stats.append({"open": open_boxes, "states": len(m),
                            "exact_bytes": 4 * int((sizes.shape[1] - np.argmax(sizes[:, ::-1], 1)
                                                    - np.argmax(sizes, 1)).sum())})
        if open_boxes <= exact_levels:
            base = len(exact)
            for i in range(len(m)):
                nz = np.nonzero(new[i])[0]
                exact.append((int(nz[0]), new[i, nz[0]:nz[-1] + 1]))
            row[m, u, y] = base + np.arange(len(m))
        else:
            q = to_quantiles(new.astype(np.float64), levels)
            pick = rng.choice(len(m), size=min(sample, len(m)), replace=False)
            gaps = _ks(new[pick].astype(np.float64), q[pick], levels)
            level_stats[-1].update(max_ks=max(gaps), mean_ks=float(np.mean(gaps)))
            ks.extend(gaps)
            quantiles.append(encode(q))
            row[m, u, y] = -1 - (n_quantiles + np.arange(len(m)))
            n_quantiles += len(m)
        row[cm, cu, cy] = row[cm, cfrom, cy]
        dist, level_row = new, here
    lengths = np.array([len(p) for _, p in exact], dtype=np.int64)
    table = ScoreTable(
        row=row,
        exact_start=np.concatenate(([0], np.cumsum(lengths))),
        exact_lo=np.array([lo for lo, _ in exact], dtype=np.int32),
        exact_probs=np.concatenate([p for _, p in exact]).astype(np.float32),
        quantiles=(np.concatenate(quantiles) if quantiles
                   else np.zeros((0, len(levels)), dtype=np.uint16)),
        levels=levels, exact_open=exact_levels)
    stats = {"max_ks": max(ks, default=0.0), "mean_ks": float(np.mean(ks)) if ks else 0.0,
             "max_lumped": lumped, "levels": level_stats}
    return table, stats


def _ks(probs: FloatArray, q: FloatArray, levels: FloatArray) -> list[float]:
    """The largest gap between each exact CDF and its quantiles' (at the whole numbers'
    edges), after storing them in 1/SCALE points."""
    out = []
    for p, x in zip(probs, q, strict=True):
        lo, approx = from_quantiles(decode(encode(x)), levels)
        exact_cdf = np.cumsum(p)
        grid = np.zeros(len(p))
        take = slice(max(0, lo), min(len(p), lo + len(approx)))
        grid[take] = approx[take.start - lo:take.stop - lo]
        out.append(float(np.max(np.abs(np.cumsum(grid) - exact_cdf))))
    return out


def count_states(solution: Solution, max_open: int | None = None) -> int:
    """How many states :func:`build` computes (for progress bars)."""
    t = solution.tables
    uppers = reachable_uppers(t)
    upper_bits = sum(1 << b for b, f in enumerate(t.upper_face) if f)
    most = t.n_boxes if max_open is None else max_open
    masks = [mk for mk in range(t.full) if t.n_boxes - mk.bit_count() <= most]
    return len(_states(t, masks, uppers, upper_bits)[0])
