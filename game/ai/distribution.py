"""Distributions of a column's final score under optimal play, for win chances.

A final score takes lumpy values (a Yahtzee or not, the bonus or not), which three moments
describe badly. Each turn is followed roll by roll through the bot's own holds (the best one;
on equal values the larger; keeping all five means scoring now) to the box it takes, and the
turns after it are solved the same way for every state it can lead to.

:func:`table_distribution` plays the current turn that way over the score table's
distributions of the states after it (``score_table.py``: every state's, built once): what
the standings use. Without that table, :func:`estimated_distribution` takes the exact end game
for players near the end and the three-moment fit of ``win_chances`` before.
:func:`win_chances_of` turns distributions into chances.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import numpy as np

from .advice import Advisor, CardState
from .multisets import (
    HOLD_SIZE,
    N_HOLDS,
    ROLL_INDEX,
    ROLL_PROBABILITY,
    ROLLS,
    best_hold_values,
    hold_choices_table,
    throw_table,
)
from .score_table import ScoreTable
from .scoring import UPPER_CAP, FloatArray, score_roll
from .solver import last_roll_values
from .win_chances import SPAN, score_distribution, shares

StateKey = tuple[int, int, int]

#: A distribution of points: (the smallest, the chance of each value from it on).
Distribution = tuple[int, FloatArray]


def final_distribution(adv: Advisor, state: CardState, dice: tuple[int, ...] | None = None,
                       rolls_left: int = 0) -> Distribution:
    """The distribution of the column's final score from ``state`` — at the start of a turn,
    or (with ``dice``) when they have just landed with ``rolls_left`` re-rolls allowed.
    Costs grow quickly with the open boxes: meant for the last two or three turns."""
    adv.check(state)
    if dice is None:
        lo, probs = _future(adv, state.key)
    else:
        start = np.zeros(len(ROLLS))
        start[ROLL_INDEX[tuple(sorted(dice))]] = 1.0
        lo, probs = _turn(adv, state.key, start, rolls_left)
    return lo + state.banked, probs


def _future(adv: Advisor, key: StateKey) -> Distribution:
    """The points still to come from ``key`` at the start of a turn: they depend on the state
    alone, so they are kept on the advisor for every game of its table (read-only arrays).
    Only end-game states are asked for, so they stay few (docs/ai.md)."""
    if key[0] == adv.tables.full:
        return 0, _CERTAIN
    found = adv.distributions.get(key)
    if found is None:
        lo, probs = _turn(adv, key, ROLL_PROBABILITY.copy(), 2)
        probs.flags.writeable = False
        found = adv.distributions[key] = (lo, probs)
    return found


_CERTAIN = np.ones(1)
_CERTAIN.flags.writeable = False


def _turn(adv: Advisor, key: StateKey, rolls: FloatArray, rolls_left: int,
          future: Callable[[Advisor, StateKey], Distribution] | None = None) -> Distribution:
    """The points to come when the dice show ``rolls`` (chances of each roll), with
    ``rolls_left`` re-rolls allowed, then optimal play (``future``: the points to come from
    the state after the turn; by default computed exactly)."""
    return turns(adv, [key], rolls[None, :], rolls_left, future)[0]


def turns(adv: Advisor, keys: Sequence[StateKey], rolls: FloatArray, rolls_left: int,
          future: Callable[[Advisor, StateKey], Distribution] | None = None
          ) -> list[Distribution]:
    """:func:`_turn` for several states at once (``rolls``: (states, 252)), vectorised over
    them: one state's distribution does not depend on the others it is computed with."""
    future = future or _future
    t = adv.tables
    s = len(keys)
    m, u, y = (np.array(col, dtype=np.intp) for col in zip(*keys, strict=True))
    levels = [adv.solution.hold_values(last_roll_values(t, adv.solution.values, m, u, y))]
    levels.append(adv.solution.hold_values(best_hold_values(levels[0])))
    rolls = rolls.T.copy()  # (252, S)
    final = np.zeros((len(ROLLS), s))
    choices = hold_choices_table()
    rows = np.arange(len(ROLLS))
    cols = np.arange(s)
    for left in range(rolls_left, 0, -1):
        flat = np.concatenate(levels[left - 1])  # every hold's value (462, S)
        hold = choices[rows[:, None], np.argmax(flat[choices], axis=1)]  # (252, S)
        score_now = HOLD_SIZE[hold] == 5
        final += np.where(score_now, rolls, 0.0)
        kept = np.bincount((cols[None, :] * N_HOLDS + hold).ravel(),
                           weights=np.where(score_now, 0.0, rolls).ravel(),
                           minlength=s * N_HOLDS).reshape(s, N_HOLDS)
        rolls = (kept @ throw_table()).T
    final += rolls
    # The best box of every roll (the first best, as the advisor ranks them).
    worth, outcomes = [], []
    for b in range(t.n_boxes):
        out, legal = score_roll(t, b, m[None, :], u[None, :], y[None, :], rows[:, None])
        outcomes.append(out)
        worth.append(np.where(legal & ((m[None, :] >> b & 1) == 0), out.points + out.bonuses
                              + adv.solution.values[out.mask, out.upper, out.yahtzee_50],
                              -np.inf))
    box = np.argmax(np.array(worth), axis=0)  # (252, S)
    shape = (len(ROLLS), s)
    # What each roll leads to, read for every roll and state at once: (points now, state
    # after) from the chosen box.
    fields = [np.stack([np.broadcast_to(v, shape) for v in per_box])
              for per_box in ([o.points + o.bonuses for o in outcomes], [o.mask for o in outcomes],
                              [o.upper for o in outcomes], [o.yahtzee_50 for o in outcomes])]
    found = []
    for i in range(s):
        # Group the rolls by what they lead to: one code each, summed at once (a loop over
        # the rolls was most of a standings update).
        reached = np.nonzero(final[:, i] > 0)[0]
        chosen = box[reached, i]
        gain, after_mask, after_upper, after_y = (f[chosen, reached, i].astype(np.intp)
                                                  for f in fields)
        code = ((gain * (t.full + 1) + after_mask) * (UPPER_CAP + 1) + after_upper) * 2 + after_y
        groups, inverse = np.unique(code, return_inverse=True)
        chances = np.bincount(inverse, weights=final[reached, i])
        parts = []
        for c, p in zip(groups.tolist(), chances.tolist(), strict=True):
            c, after_yahtzee = divmod(c, 2)
            c, upper = divmod(c, UPPER_CAP + 1)
            points, mask = divmod(c, t.full + 1)
            parts.append((p, points, future(adv, (mask, upper, after_yahtzee))))
        found.append(_mix(parts))
    return found


def _mix(parts: list[tuple[float, int, Distribution]]) -> Distribution:
    """The mixture of distributions shifted by their gains, weighted by their chances."""
    lo = min(gain + d[0] for _, gain, d in parts)
    hi = max(gain + d[0] + len(d[1]) for _, gain, d in parts)
    out = np.zeros(hi - lo)
    for p, gain, (start, probs) in parts:
        at = gain + start - lo
        out[at:at + len(probs)] += p * probs
    return lo, out


#: Without the score table (``score_table.py``), players with at most this many turns to play
#: get their exact distribution (two turns: ≈ 0.1 s; three: 0.1–0.3 s; four: seconds); the
#: others a shifted gamma with their three moments.
EXACT_TURNS = 2


def estimated_distribution(adv: Advisor, state: CardState,
                           dice: tuple[int, ...] | None = None, rolls_left: int = 0,
                           exact_turns: int = EXACT_TURNS) -> Distribution:
    """A column's final score distribution for win chances: exact for the last
    ``exact_turns`` turns, else fitted to its expectation, sd and skewness (see win_chances)."""
    if adv.tables.n_boxes - state.mask.bit_count() <= exact_turns:
        return final_distribution(adv, state, dice, rolls_left)
    estimate = (adv.estimate(state) if dice is None
                else adv.after_roll(state, dice, rolls_left))
    lo = math.floor(estimate.expected - SPAN * estimate.sd) - 1
    hi = math.ceil(estimate.expected + SPAN * estimate.sd) + 1
    k = np.arange(lo, hi + 1, dtype=np.float64)
    return lo, score_distribution(k, estimate.expected, estimate.sd, estimate.skew)


def table_distribution(adv: Advisor, table: ScoreTable, state: CardState,
                       dice: tuple[int, ...] | None = None, rolls_left: int = 0
                       ) -> Distribution:
    """A column's final score distribution from the score table: the state's own when the
    table keeps it whole (exact), else this turn played out exactly over the distributions of
    the states it leads to — exact when they are kept whole, else from their quantiles."""
    adv.check(state)
    key = state.key

    def future(_: Advisor, after: StateKey) -> Distribution:
        return table.distribution(after)

    if dice is None:
        lo, probs = table_futures(adv, table, [key])[0]
    else:
        start = np.zeros(len(ROLLS))
        start[ROLL_INDEX[tuple(sorted(dice))]] = 1.0
        lo, probs = _turn(adv, key, start, rolls_left, future)
    return lo + state.banked, probs


def table_futures(adv: Advisor, table: ScoreTable, keys: Sequence[StateKey]
                  ) -> list[Distribution]:
    """The points still to come from each state between turns, as
    :func:`table_distribution` gives them (nothing banked): the table's own where it keeps
    the state whole, else the turn played out over the states after it, for all of those
    states at once."""

    read: dict[StateKey, Distribution] = {}  # the states after the turns: they repeat

    def future(_: Advisor, after: StateKey) -> Distribution:
        found = read.get(after)
        if found is None:
            found = read[after] = table.distribution(after)
        return found

    played = [k for k in keys if not table.is_exact(k)]
    start = np.broadcast_to(ROLL_PROBABILITY, (len(played), len(ROLLS)))
    found = dict(zip(played, turns(adv, played, start, 2, future), strict=True)) if played else {}
    return [found[k] if k in found else table.distribution(k) for k in keys]


def is_exact(adv: Advisor, table: ScoreTable, state: CardState) -> bool:
    """Whether :func:`table_distribution` is exact for ``state`` (at any moment of its turn):
    the turn leads to states the table keeps whole (at most ``EXACT_LEVELS`` boxes open)."""
    open_boxes = adv.tables.n_boxes - state.mask.bit_count()
    return open_boxes <= table.exact_levels + 1


def win_chances_of(distributions: list[Distribution]) -> list[float]:
    """Each player's chance to win (ties shared) from their final scores' distributions."""
    lo = min(d[0] for d in distributions)
    hi = max(d[0] + len(d[1]) for d in distributions)
    at = np.zeros((len(distributions), hi - lo))
    for i, (start, probs) in enumerate(distributions):
        at[i, start - lo:start - lo + len(probs)] = probs
    return shares(at)

