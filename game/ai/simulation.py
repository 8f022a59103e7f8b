"""Play-outs of the optimal solitaire policy, vectorised over games: thousands of games at once.

The optimal bot (``optimal.choose``) plays one decision at a time through the advisor; this
plays the same policy for many independent games together with NumPy, for measuring the
spread of final scores and checking win chances. Each turn, the hold values of every distinct
state in play are solved at once (``solver.last_roll_values`` and the hold levels), every game
rolls its own dice, keeps its best hold (ties: the larger hold, as ``Advisor.hold_choices``
sorts them; keeping all five means scoring now, as the bot does) and finally takes its best
box (ties: the first in scorecard order, as ``Advisor.box_choices`` sorts them).
"""

from __future__ import annotations

import numpy as np

from .advice import Advisor, CardState
from .multisets import (
    FACES,
    HOLD_COUNTS,
    HOLD_SIZE,
    ROLL_INDEX,
    ROLLS,
    best_hold_values,
    hold_choices_table,
    hold_values,
)
from .scoring import FloatArray, IntArray, score_roll
from .solver import CHUNK, last_roll_values

_POWERS = 6 ** np.arange(6)
#: The roll with given face counts, by the counts written as a base-6 number.
_ROLL_OF_CODE = np.full(6 ** 6, -1, dtype=np.intp)
_ROLL_OF_CODE[np.array([[r.count(f) for f in FACES] for r in ROLLS]) @ _POWERS] = [
    ROLL_INDEX[r] for r in ROLLS]


def play_out(adv: Advisor, state: CardState, games: int, rng: np.random.Generator
             ) -> FloatArray:
    """Final scores of ``games`` independent games played by the optimal policy of ``adv``
    from ``state`` at the start of a turn (what is banked included)."""
    adv.check(state)
    t = adv.tables
    mask, upper, y = state.key
    m = np.full(games, mask, dtype=np.intp)
    u = np.full(games, upper, dtype=np.intp)
    y50 = np.full(games, y, dtype=np.intp)
    score = np.full(games, float(state.banked))
    for _ in range(t.n_boxes - mask.bit_count()):  # one box filled per turn
        codes = (m * 64 + u) * 2 + y50
        unique, inverse = np.unique(codes, return_inverse=True)
        order = np.argsort(inverse, kind="stable")
        bounds = np.searchsorted(inverse[order], np.arange(0, len(unique) + CHUNK, CHUNK))
        for start, lo, hi in zip(range(0, len(unique), CHUNK), bounds[:-1], bounds[1:],
                                 strict=False):
            games_here = order[lo:hi]
            states = unique[start:start + CHUNK]
            sm, su, sy = states // 128, states // 2 % 64, states % 2
            column = inverse[games_here] - start
            _play_turn(adv, (sm, su, sy), column, games_here, m, u, y50, score, rng)
    return score


def _play_turn(adv: Advisor, states: tuple[IntArray, IntArray, IntArray], column: IntArray,
               games: IntArray, m: IntArray, u: IntArray, y50: IntArray, score: FloatArray,
               rng: np.random.Generator) -> None:
    """One turn of ``games`` (their states are ``states[column]``); updates them in place."""
    t, values = adv.tables, adv.solution.values
    one = hold_values(last_roll_values(t, values, *states))
    two = hold_values(best_hold_values(one))
    n = len(games)
    roll = _reroll(np.zeros((n, 6), dtype=np.intp), rng)
    done = np.zeros(n, dtype=bool)
    for levels in (two, one):
        flat = np.concatenate(levels)  # (462, states)
        choices = hold_choices_table()[roll]  # (n, 32)
        best = choices[np.arange(n), np.argmax(flat[choices, column[:, None]], axis=1)]
        done |= HOLD_SIZE[best] == 5
        roll = np.where(done, roll, _reroll(HOLD_COUNTS[best], rng))
    _score_best_box(adv, roll, games, m, u, y50, score)


def _reroll(held: IntArray, rng: np.random.Generator) -> IntArray:
    """The rolls made by keeping ``held`` (face counts, (n, 6)) and throwing the other dice."""
    n = len(held)
    faces = rng.integers(0, 6, size=(n, 5))
    thrown = np.arange(5)[None, :] < (5 - held.sum(axis=1))[:, None]
    counts = held + ((faces[:, :, None] == np.arange(6)) & thrown[:, :, None]).sum(axis=1)
    return np.asarray(_ROLL_OF_CODE[counts @ _POWERS], dtype=np.intp)


def _score_best_box(adv: Advisor, roll: IntArray, games: IntArray, m: IntArray, u: IntArray,
                    y50: IntArray, score: FloatArray) -> None:
    """Score each game's final ``roll`` in its best legal box; updates the games in place."""
    t, values = adv.tables, adv.solution.values
    gm, gu, gy = m[games], u[games], y50[games]
    outcomes, worth = [], []
    for b in range(t.n_boxes):
        out, legal = score_roll(t, b, gm, gu, gy, roll)
        outcomes.append(out)
        worth.append(np.where(legal & ((gm >> b & 1) == 0), out.points + out.bonuses
                              + values[out.mask, out.upper, out.yahtzee_50], -np.inf))
    box = np.argmax(np.array(worth), axis=0)  # the first best box, as the advisor ranks them
    for b, out in enumerate(outcomes):
        here = box == b
        if here.any():
            g = games[here]
            score[g] += np.broadcast_to(out.points + out.bonuses, here.shape)[here]
            m[g] = np.broadcast_to(out.mask, here.shape)[here]
            u[g] = np.broadcast_to(out.upper, here.shape)[here]
            y50[g] = np.broadcast_to(out.yahtzee_50, here.shape)[here]

