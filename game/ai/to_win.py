"""Chances to win at every moment of a turn, and the computer player that plays for them.

The model is the standings' (``standings.py``): the players' final scores are independent,
each distributed as optimal (points-maximising) play from their card makes it — except that
the player to move plays **the rest of this turn** to maximise their chance to win, knowing
everyone's distributions. So, for the player to move:

* a box is worth the chance to win from the card it leaves (its final-score distribution from
  the standings, shifted by the points the box earns, against everyone else's): exactly what
  the standings give once the box is scored;
* a hold is worth the expectation, over the dice it throws, of the best next decision's chance
  (holds and boxes alike, re-rolls left permitting): a dynamic programme over the 252 rolls and
  462 holds of the turn, solved once per turn (:class:`TurnChances`).

Because every other player's distribution is fixed during the turn, the chance that player i
wins is linear in the mover's final-score distribution X: ``Σ_k P(X = k) · w_i(k)``, where
``w_i(k)`` is player i's chance to win when the mover finishes on k (:func:`win_weights`, ties
shared as in ``win_chances.shares``). Each option carries every player's chance, so the review
can say what a decision cost the mover and what it gave the others; the mover's chance decides,
and on equal chances (a decided game, say) the expected points.

Single-column rulesets (yahtzee, yatzy) only, like the standings.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from game.rules import Game

from .actions import Action, Roll, Score
from .advice import Advisor, CardState
from .multisets import (
    HOLD_SIZE,
    HOLDS,
    INDEX,
    N_ROLLS,
    ROLL_INDEX,
    ROLL_PROBABILITY,
    hold_choices_table,
    hold_values,
    positions_for,
    sub_holds,
)
from .scoring import FloatArray, IntArray, score_roll
from .standings import Standings
from .turn import current_dice
from .win_chances import _NODES, _WEIGHTS

#: A distribution of points: (the smallest, the chance of each value from it on).
Distribution = tuple[int, FloatArray]
StateKey = tuple[int, int, int]
Hold = tuple[int, ...]
#: Chances closer than this are equal (float noise): the expected points decide.
TIE = 1e-9


@dataclass(frozen=True)
class WinWeights:
    """Every player's chance to win as a function of the mover's final score.

    ``weights[i, k]``: player i's chance to win (ties shared) when the mover finishes on
    ``lo + k`` and everyone else as their distribution says; the first column is a score below
    everyone else's (the mover loses for sure) and the last one above (the mover wins for
    sure): scores beyond them count there.
    """

    lo: int
    weights: FloatArray  # (players, K)

    @property
    def players(self) -> int:
        return len(self.weights)

    def chances(self, starts: IntArray, probs: FloatArray) -> FloatArray:
        """(players, len(starts)): each player's chance to win when the mover's final score is
        ``starts[j] + t`` with chance ``probs[t]``."""
        at = starts[:, None] - self.lo + np.arange(len(probs))[None, :]
        at = np.clip(at, 0, self.weights.shape[1] - 1)
        # The table's float32 distributions sum to 1 within ~1e-7: normalised, options that
        # are equally sure to win (or lose) come out equal, and the points decide between them.
        return np.asarray(self.weights[:, at] @ (probs / probs.sum()))

    def of(self, dist: Distribution) -> FloatArray:
        """Each player's chance to win when the mover's final score is distributed as
        ``dist``."""
        return self.chances(np.array([dist[0]]), dist[1])[:, 0]


def win_weights(dists: Sequence[Distribution], mover: int) -> WinWeights:
    """The :class:`WinWeights` of player ``mover`` against the others' final-score
    distributions ``dists`` (the mover's own entry is ignored)."""
    others = [d for p, d in enumerate(dists) if p != mover]
    if not others:
        return WinWeights(0, np.ones((1, 1)))
    lo = min(d[0] for d in others) - 1  # below every other final score
    hi = max(d[0] + len(d[1]) for d in others)  # above every other final score
    at = np.zeros((len(others), hi - lo + 1))
    for j, (start, probs) in enumerate(others):
        at[j, start - lo:start - lo + len(probs)] = probs
    below = np.cumsum(at, axis=1) - at
    # f[z, j, k]: player j's factor at node z when the score in question is lo + k: below it,
    # or on it and sharing (the share of a tie is the integral over z).
    f = below[None, :, :] + at[None, :, :] * _NODES[:, None, None]
    mover_w = np.einsum("z,zk->k", _WEIGHTS, np.prod(f, axis=1))
    rows = []
    for j in range(len(others)):
        # Player j wins at l when the mover is below l (or on it, sharing) and the rest too.
        rest = np.prod(np.delete(f, j, axis=1), axis=1)  # (z, K)
        a = at[j][None, :] * rest
        above = np.cumsum(a[:, ::-1], axis=1)[:, ::-1] - a  # Σ_{l > k}
        rows.append(np.einsum("z,zk->k", _WEIGHTS, above + a * _NODES[:, None]))
    rows.insert(mover, mover_w)
    return WinWeights(lo, np.array(rows))


class PointsPlay:
    """The chances of a turn's end when every later turn is played for points: the card's
    distribution of points to come (``futures(keys)``: the standings' distributions from the
    states ``keys`` between turns, nothing banked) shifted by what is banked, against
    everyone else's (``weights``)."""

    #: Chances closer than this are equal (float noise): the expected points decide.
    tie = TIE

    def __init__(self, weights: WinWeights,
                 futures: Callable[[Sequence[StateKey]], list[Distribution]]) -> None:
        self.weights, self.futures = weights, futures
        self.players = weights.players

    def __call__(self, afters: Sequence[StateKey], totals: Sequence[IntArray]
                 ) -> list[FloatArray]:
        dists = self.futures(afters)
        return [self.weights.chances(banked + lo, probs)
                for banked, (lo, probs) in zip(totals, dists, strict=True)]


class TurnEnds(Protocol):
    """How a turn's end is valued: ``ends(afters, totals)[i][p, j]`` is player p's chance when
    the mover's card is left in state ``afters[i]`` with ``totals[i][j]`` points banked."""

    players: int
    tie: float

    def __call__(self, afters: Sequence[StateKey], totals: Sequence[IntArray]
                 ) -> list[FloatArray]: ...


class TurnChances:
    """Every player's chance to win at every moment of one turn of the player to move, who
    plays this turn to win (see the module's docstring); solved once for the turn.

    ``ends`` values the card each box leaves (:class:`PointsPlay`: later turns played for
    points, the standings' model); the mover's column decides, to within ``ends.tie``.
    """

    def __init__(self, adv: Advisor, state: CardState, mover: int, ends: TurnEnds) -> None:
        adv.check(state)
        self.adv, self.state, self.mover = adv, state, mover
        t = adv.tables
        n = ends.players
        mask, upper, y = state.key
        rows = np.arange(N_ROLLS)
        # box[b, r]: every player's chance, then the mover's expected final score, when roll r
        # is scored in box b (NaN where the box is closed or the Joker forbids it).
        self.box = np.full((t.n_boxes, N_ROLLS, n + 1), np.nan)
        # Every legal (box, roll): the points it earns and the state after it.
        scored = []
        for b in range(t.n_boxes):
            if mask >> b & 1:
                continue
            out, legal = score_roll(t, b, mask, upper, y, rows)
            legal = np.broadcast_to(legal, (N_ROLLS,))
            gain = np.broadcast_to(out.points + out.bonuses, (N_ROLLS,)).astype(np.intp)
            after_u = np.broadcast_to(out.upper, (N_ROLLS,)).astype(np.intp)
            after_y = np.broadcast_to(out.yahtzee_50, (N_ROLLS,)).astype(np.intp)
            for u2, y2 in sorted(set(zip(after_u[legal].tolist(), after_y[legal].tolist(),
                                         strict=True))):
                scored.append((b, (int(out.mask), u2, y2), gain,
                               legal & (after_u == u2) & (after_y == y2)))
        gains = [np.unique(gain[here], return_inverse=True) for _, _, gain, here in scored]
        worth = ends([after for _, after, _, _ in scored],
                     [state.banked + g for g, _ in gains])
        for (b, after, gain, here), (_, inverse), chances in zip(scored, gains, worth,
                                                                strict=True):
            self.box[b, here, :n] = chances[:, inverse].T
            self.box[b, here, n] = state.banked + gain[here] + adv.solution.values[after]
        # With no re-roll left: the best box of every roll.
        chance = np.where(np.isnan(self.box[:, :, mover]), -np.inf, self.box[:, :, mover])
        points = np.where(np.isnan(self.box[:, :, n]), -np.inf, self.box[:, :, n])
        self.best_box = _first_best(chance.T, points.T, ends.tie)
        last = self.box[self.best_box, rows]  # (252, n + 1)
        #: levels[L]: every hold's value (hold levels, as ``hold_values``) with L rolls to come;
        #: rolled[L]: each roll's value with L re-rolls left (its best option).
        self.levels: dict[int, list[FloatArray]] = {}
        self.rolled: dict[int, FloatArray] = {0: last}
        self.best_hold: dict[int, IntArray] = {}
        choices = hold_choices_table()  # larger holds first: keeping all five is scoring now
        for left in (1, 2):
            self.levels[left] = hold_values(self.rolled[left - 1])
            flat = np.concatenate(self.levels[left])
            options = flat[choices]  # (252, 32, n + 1)
            pick = _first_best(options[:, :, mover], options[:, :, n], ends.tie)
            self.best_hold[left] = choices[rows, pick]
            self.rolled[left] = flat[self.best_hold[left]]
        #: Every player's chance (and the mover's expected final score, last) before the turn's
        #: first roll.
        self.before = ROLL_PROBABILITY @ self.rolled[2]

    @property
    def start(self) -> FloatArray:
        """Every player's chance to win before the turn's first roll."""
        return self.before[:-1]

    def after_roll(self, dice: Sequence[int], rolls_left: int) -> FloatArray:
        """Every player's chance when ``dice`` have landed with ``rolls_left`` re-rolls: its
        best option's."""
        return self.rolled[rolls_left][ROLL_INDEX[tuple(sorted(dice))], :-1]

    def holds(self, dice: Sequence[int], rolls_left: int) -> dict[Hold, FloatArray]:
        """Every distinct hold of ``dice`` (with 1 or 2 re-rolls left) and every player's chance
        when it is kept and the rest thrown (keeping all five: scoring the best box now)."""
        levels = self.levels[rolls_left]
        return {h: levels[len(h)][INDEX[len(h)][h], :-1] for h in sub_holds(tuple(dice))}

    def boxes(self, dice: Sequence[int]) -> dict[str, FloatArray]:
        """Every legal box for ``dice`` and every player's chance when it is scored there."""
        r = ROLL_INDEX[tuple(sorted(dice))]
        names = self.adv.ruleset.box_names
        return {names[b]: self.box[b, r, :-1] for b in range(len(names))
                if not np.isnan(self.box[b, r, 0])}

    def best(self, dice: Sequence[int], rolls_left: int) -> Hold | str:
        """The mover's best option: the dice to keep (fewer than five) or the box to score."""
        r = ROLL_INDEX[tuple(sorted(dice))]
        if rolls_left:
            hold = HOLDS[int(self.best_hold[rolls_left][r])]
            if HOLD_SIZE[self.best_hold[rolls_left][r]] < 5:
                return hold
        return self.adv.ruleset.box_names[int(self.best_box[r])]


def _first_best(chance: FloatArray, points: FloatArray, tie: float) -> IntArray:
    """For each row, the first column whose chance is the row's best (to within ``tie``), the
    largest expected points among those."""
    top = chance.max(axis=1, keepdims=True)
    near = chance >= top - tie
    return np.asarray(np.argmax(np.where(near, points, -np.inf), axis=1))


# --- for a game ------------------------------------------------------------------------------

def turn_chances(standings: Standings, states: Sequence[CardState], mover: int
                 ) -> TurnChances:
    """The turn of player ``mover`` when the players' cards are ``states`` (at its start),
    from ``standings``' distributions — the same the live standings send, so once a box is
    scored its chances are theirs."""
    dists = [standings.distribution(p, s) for p, s in enumerate(states)]
    weights = win_weights(dists, mover)
    return TurnChances(standings.adv, states[mover], mover,
                       PointsPlay(weights, standings.points_to_come))


#: Turns kept by the to-win bot (one is solved per turn: ~0.1-0.3 s).
KEPT_TURNS = 16
_turns: OrderedDict[tuple[object, ...], TurnChances] = OrderedDict()
_standings: dict[str, Standings] = {}
#: Rooms' bots decide in worker threads at once: the kept turns and the standings' futures
#: they fill are one thread's at a time.
_lock = threading.Lock()


def choose(game: Game) -> Action:
    """The to-win bot's move: each decision the one with the best chance to win."""
    return play(game, "turn", turn_chances)


#: Solves a turn: (the game's standings, every player's card, the mover) -> its chances.
Solver = Callable[[Standings, tuple[CardState, ...], int], TurnChances]


def standings_of(game: Game) -> Standings:
    """The bots' standings for ``game``'s rules (one per process: their futures are kept)."""
    standings = _standings.get(game.ruleset.name)
    if standings is None:  # may wait for the strategy table: not under the lock
        standings = _standings.setdefault(game.ruleset.name, Standings(game.ruleset))
    return standings


def play(game: Game, kind: str, solve: Solver) -> Action:
    """The best move of the turn ``solve`` gives (solved once per turn, kept under ``kind``
    for the turn's other decisions)."""
    dice = current_dice(game)
    mover = game.current_player
    assert mover is not None  # the game has dice: someone is playing
    states = tuple(CardState.of(card) for card in game.scorecards)
    standings = standings_of(game)
    with _lock:
        key = (kind, standings.ruleset.name, states, mover)
        turn = _turns.get(key)
        if turn is None:
            turn = _turns[key] = solve(standings, states, mover)
            while len(_turns) > KEPT_TURNS:
                _turns.popitem(last=False)
    best = turn.best(dice, game.rolls_left)
    if isinstance(best, str):
        return Score(best)
    return Roll(positions_for(tuple(dice), best))
