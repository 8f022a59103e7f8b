"""The to-win bot that plays every turn for the win, not only the current one.

``to_win.TurnChances`` values the card a box leaves as if every later turn were played for
points. Here the card left is valued by the ceiling table (``targets.py``): the best chance,
over every way of playing the rest of the column, that the points still to come exceed what is
needed. Against opponents whose best final score is distributed as the standings say, T, a
card left in state ``s`` with ``b`` points banked is worth

    ceiling(s, b) = Σ_T P(T) · chance(s, T − b)

— the chance of a player who learns T now and plays for it. That is optimistic (a real player
learns the opponents' scores one turn at a time), and playing for points later is pessimistic
(a real player adapts), so a turn's end is worth ``mix`` × the first plus (1 − ``mix``) × the
second (:class:`AheadEnds`). By default (``MIX``, :data:`PROGRESS`) the ceiling's share is the
share of their boxes the opponents have filled: T told at the first turn is the furthest from
what a player can know then, at the last it is what they know; once every opponent's card is
full, T is known and the ceiling is exact, so it counts alone. Within the turn the play is
``TurnChances``'s.

Against several opponents, T is the best of their final scores (independent, so its
distribution is the product of theirs) and a tie with it counts as the table's half, whatever
the number tied. Without the table on disk (``build_ceiling``), the bot plays as ``to_win``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, Literal

import numpy as np

from game.rules import Game

from . import ceiling, to_win
from .actions import Action
from .advice import CardState
from .scoring import FloatArray, IntArray
from .standings import Standings
from .targets import TargetTable
from .to_win import Distribution, PointsPlay, StateKey, TurnChances, win_weights

#: The ceiling's share of a turn's end grows with the opponents' game (:func:`ceiling_share`).
PROGRESS: Final = "progress"
#: The ceiling's share of a turn's end (the rest: later turns played for points): a number from
#: 0 to 1, or :data:`PROGRESS`. The ceiling alone (1) needs no distribution of the mover's points
#: to come: a turn costs a fifth.
Mix = float | Literal["progress"]
MIX: Mix = PROGRESS
#: The table's chances are float32 (and low by up to ``targets.TAIL`` per level): closer than
#: this they are equal, and the expected points decide.
TIE = 1e-6
_SURE = np.ones(1)


def best_of(dists: Sequence[Distribution]) -> Distribution:
    """The distribution of the largest of independent scores distributed as ``dists``."""
    lo = min(d[0] for d in dists)
    hi = max(d[0] + len(d[1]) for d in dists)
    below = np.ones(hi - lo)  # P(every score ≤ lo + k)
    for start, probs in dists:
        cdf = np.zeros(hi - lo)
        cdf[start - lo:start - lo + len(probs)] = np.cumsum(probs / probs.sum())
        cdf[start - lo + len(probs):] = 1.0
        below *= cdf
    return lo, np.diff(below, prepend=0.0)


def ceiling_chances(table: TargetTable, after: StateKey, banked: IntArray,
                    target: Distribution) -> FloatArray:
    """For each total in ``banked``: Σ_T P(T) · chance(after, T − banked), T distributed as
    ``target`` (more than T wins, T itself counts as the table's tie)."""
    lo, probs = target
    need = lo - np.asarray(banked)[:, None] + np.arange(len(probs))[None, :]
    width = max(0, min(table.most, int(need.max())) + 1)
    row = table.chances(after, width) if width else np.zeros(0)
    # Below n = 0 a win is sure, past the row it is out of reach.
    padded = np.concatenate(([1.0], row, [0.0]))
    return np.asarray(padded[np.clip(need + 1, 0, width + 1)] @ (probs / probs.sum()))


class AheadEnds:
    """The mover's chance at a turn's end (one column): ``mix`` × the ceiling's + (1 − ``mix``)
    × the chance when later turns are played for points (``points``; None: the ceiling
    alone)."""

    players = 1
    tie = TIE

    def __init__(self, table: TargetTable, target: Distribution, points: PointsPlay | None,
                 mover: int, mix: float) -> None:
        self.table, self.target, self.points = table, target, points
        self.mover, self.mix = mover, mix

    def __call__(self, afters: Sequence[StateKey], totals: Sequence[IntArray]
                 ) -> list[FloatArray]:
        high = [ceiling_chances(self.table, a, t, self.target)
                for a, t in zip(afters, totals, strict=True)]
        if self.points is None or self.mix >= 1:
            return [h[None, :] for h in high]
        low = self.points(afters, totals)
        return [(self.mix * h + (1 - self.mix) * p[self.mover])[None, :]
                for h, p in zip(high, low, strict=True)]


def ceiling_share(mix: Mix, states: Sequence[CardState], mover: int, boxes: int) -> float:
    """The ceiling's share of a turn's end: ``mix`` itself, or with :data:`PROGRESS` the share
    of their ``boxes`` the least advanced opponent has filled."""
    if mix != PROGRESS:
        return float(mix)
    return min(s.mask.bit_count() for p, s in enumerate(states) if p != mover) / boxes


def ahead_turn(standings: Standings, table: TargetTable, states: Sequence[CardState],
               mover: int, mix: Mix = MIX) -> TurnChances:
    """The mover's turn valued by :class:`AheadEnds` (column 0: the mover's chance)."""
    # The mover's own distribution is not needed (win_weights ignores it): not computed.
    dists = [(0, _SURE) if p == mover else standings.distribution(p, s)
             for p, s in enumerate(states)]
    target = best_of([d for p, d in enumerate(dists) if p != mover])
    tables = standings.adv.tables
    done = all(s.mask == tables.full for p, s in enumerate(states) if p != mover)
    share = 1.0 if done else ceiling_share(mix, states, mover, tables.n_boxes)
    points = (PointsPlay(win_weights(dists, mover), standings.points_to_come) if share < 1
              else None)
    ends = AheadEnds(table, target, points, mover, share)
    return TurnChances(standings.adv, states[mover], 0, ends)


def choose(game: Game, mix: Mix = MIX) -> Action:
    """The move with the best chance to win, every later turn played for the win too (as
    ``to_win.choose`` where the ceiling table is missing or the mover is alone)."""
    if len(game.players) == 1:
        return to_win.choose(game)
    table = ceiling.loaded(to_win.standings_of(game).adv.solution)
    if table is None:
        return to_win.choose(game)

    def solve(standings: Standings, states: tuple[CardState, ...], mover: int
              ) -> TurnChances:
        return ahead_turn(standings, table, states, mover, mix)

    return to_win.play(game, f"ahead {mix}", solve)
