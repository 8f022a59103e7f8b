"""Triple Yahtzee bots built on the one-column optimal table.

Exact play of a whole game is out of reach (39 boxes), so a position is valued from the
one-column table: ``W = Σ m_c · F_c(column c)``, each column's optimal expected points to come
times its multiplier.

* ``optimal`` (the level): each turn is played exactly against ``W`` — every final roll is
  worth its best ``m_c · (points + F_c(after) − F_c(before))`` over all legal boxes of all
  columns, and holds maximise the expectation of that — until at most ``ENDGAME_OPEN`` boxes
  are open in all columns together. From there on the game is solved exactly (``EndGame``:
  expectimax over the remaining turns, all columns together), so the last turns use the
  columns' shared flexibility that ``W`` cannot see.
* ``column``: the same without the exact end game (the former ``optimal``; for comparison).

A learned correction ``W + θ·φ`` was tried and played worse (docs/ai.md; its code is in git
history, commit d2316e0).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from game.rules import Game, Slot

from .advice import Advisor, CardState, advisor
from .multisets import (
    N_ROLLS,
    ROLL_INDEX,
    ROLL_PROBABILITY,
    YAHTZEE_ROLLS,
    best_hold_values,
    hold_values,
)
from .scoring import UPPER_CAP, ScoreTables, roll_outcome, score_box
from .solver import last_roll_values
from .turn import current_dice

ColumnKey = tuple[int, int, int]  # (mask, upper capped, yahtzee holds 50)


def position_keys(game: Game) -> tuple[ColumnKey, ...]:
    """The current player's columns as solver states."""
    return tuple(CardState.of(game.scorecard, c).key for c in range(game.ruleset.columns))


def column_last_roll_values(adv: Advisor, keys: list[ColumnKey]) -> np.ndarray:
    """(252, K) last-roll values (points now + column future) for column states ``keys``."""
    arr = np.array(keys, dtype=np.intp).reshape(-1, 3)
    return last_roll_values(adv.tables, adv.solution.values, arr[:, 0], arr[:, 1], arr[:, 2])


# --- the column bot (for comparison) ---------------------------------------------------------

def _column_states(game: Game) -> list[CardState]:
    return [CardState.of(game.scorecard, c) for c in range(game.ruleset.columns)]


def column_roll_values(game: Game) -> np.ndarray:
    """Each final roll's best gain: max over columns of m × (points + value after − before)."""
    adv = advisor(game.ruleset)
    best = np.full(N_ROLLS, -np.inf)
    states = _column_states(game)
    for st, m in zip(states, game.ruleset.multipliers, strict=True):
        if st.mask != adv.tables.full:
            v0 = column_last_roll_values(adv, [st.key])[:, 0]
            np.maximum(best, m * (v0 - adv.future(st)), out=best)
    return best


def column_pick_slot(game: Game) -> Slot:
    """The legal slot with the best gain for the current dice."""
    adv = advisor(game.ruleset)
    dice = current_dice(game)
    legal = set(game.legal_slots())
    best: tuple[float, Slot] | None = None
    for c, (st, m) in enumerate(zip(_column_states(game), game.ruleset.multipliers,
                                    strict=True)):
        if st.mask == adv.tables.full:
            continue
        now = adv.future(st)
        for ch in adv.box_choices(st, dice):
            slot = Slot(ch.box or "", c)
            gain = m * (ch.expected - st.banked - now)
            if slot in legal and (best is None or gain > best[0]):
                best = (gain, slot)
    assert best is not None
    return best[1]


# --- the end of the game, solved exactly ------------------------------------------------------

class EndGame:
    """Exact expected points to come of positions with few open boxes (all columns together),
    by expectimax over whole turns: each turn's holds and box exactly optimal.

    A position's value needs those of every position it can lead to; they are found first,
    then solved level by level (fewest open boxes first), each level's turns vectorised.
    """

    def __init__(self, mult: tuple[int, ...]) -> None:
        self.adv = advisor("triple")
        self.t: ScoreTables = self.adv.tables
        self.mult = mult
        self._values: dict[tuple[ColumnKey, ...], float] = {}
        # A column's state recurs in many positions: its boxes' scores are worked out once
        # (a quarter of a solve's CPU went to working them out again).
        self._scores: dict[tuple[ColumnKey, int], list[tuple[int, int, ColumnKey]]] = {}

    def canonical(self, key: ColumnKey) -> ColumnKey:
        """The column state with an upper subtotal that no longer matters made the cap."""
        mask, u, y = key
        if mask == self.t.full:
            return (mask, UPPER_CAP, 0)
        if self.t.upper_settled(mask, u):
            return (mask, UPPER_CAP, y)
        return key

    def key(self, keys: tuple[ColumnKey, ...]) -> tuple[ColumnKey, ...]:
        return tuple(self.canonical(k) for k in keys)

    def _outcomes(self, key: ColumnKey, b: int) -> list[tuple[int, int, ColumnKey]]:
        """(points, bonuses, state after) for each distinct score box ``b`` can give a roll."""
        found = self._scores.get((key, b))
        if found is None:
            mask, u, y = key
            found = [(p, int(out.bonuses), out.state) for p in map(int, self.t.point_values[b])
                     for out in (score_box(self.t, b, mask, u, y, p),)]
            self._scores[key, b] = found
        return found

    def _moves(self, key: ColumnKey) -> list[ColumnKey]:
        """Every state a column can be in after one more box is filled (a Joker scores points
        some roll also scores there, so it leads to no other state)."""
        found: list[ColumnKey] = []
        for b in range(self.t.n_boxes):
            if not key[0] >> b & 1:
                for _, _, after in self._outcomes(key, b):
                    after = self.canonical(after)
                    if after not in found:
                        found.append(after)
        return found

    def value(self, keys: tuple[ColumnKey, ...]) -> float:
        keys = self.key(keys)
        found = self._values.get(keys)
        if found is not None:
            return found
        n_boxes, full = self.t.n_boxes, self.t.full
        # Every position below this one that is not solved yet, by number of open boxes.
        todo: dict[int, list[tuple[ColumnKey, ...]]] = {}
        seen = {keys}
        stack = [keys]
        while stack:
            pos = stack.pop()
            if all(k[0] == full for k in pos):
                self._values[pos] = 0.0
                continue
            todo.setdefault(sum(n_boxes - k[0].bit_count() for k in pos), []).append(pos)
            for c, k in enumerate(pos):
                for nk in self._moves(k):
                    nxt = pos[:c] + (nk,) + pos[c + 1:]
                    if nxt not in seen and nxt not in self._values:
                        seen.add(nxt)
                        stack.append(nxt)
        for n in sorted(todo):
            level = todo[n]
            v = np.stack([self.roll_values(pos) for pos in level], axis=1)
            for _ in range(2):
                v = best_hold_values(hold_values(v))
            for pos, val in zip(level, ROLL_PROBABILITY @ v, strict=True):
                self._values[pos] = float(val)
        return self._values[keys]

    def after(self, keys: tuple[ColumnKey, ...], c: int, key: ColumnKey) -> float:
        nxt = keys[:c] + (self.canonical(key),) + keys[c + 1:]
        found = self._values.get(nxt)
        return found if found is not None else self.value(nxt)

    def roll_values(self, keys: tuple[ColumnKey, ...]) -> np.ndarray:
        """(252,): points (multiplied, bonuses in) plus the value after, best legal box."""
        t = self.t
        best = np.full(N_ROLLS, -np.inf)
        for c, (mask, u, y) in enumerate(keys):
            m = self.mult[c]
            col = np.full(N_ROLLS, -np.inf)
            for b in range(t.n_boxes):
                if mask >> b & 1:
                    continue
                # Each distinct score of the box, then each roll by its score.
                afters: dict[ColumnKey, float] = {}
                per_score = np.array([
                    m * (points + bonuses) + (afters[after] if after in afters else
                                              afters.setdefault(after, self.after(keys, c, after)))
                    for points, bonuses, after in self._outcomes((mask, u, y), b)])
                np.maximum(col, per_score[t.point_index[:, b]], out=col)
            if t.joker_on(mask) and mask != t.full:
                # Five of a kind with this column's yahtzee box filled: the (forced) Joker
                # decides the legal boxes and points, and a 50 there adds the bonus.
                for roll in YAHTZEE_ROLLS:
                    top = -np.inf
                    for b in range(t.n_boxes):
                        out = None if mask >> b & 1 else roll_outcome(t, b, mask, u, y, int(roll))
                        if out is not None:
                            top = max(top, m * (out.points + out.bonuses)
                                      + self.after(keys, c, out.state))
                    col[roll] = top
            np.maximum(best, col, out=best)
        return best

    def slot_value(self, keys: tuple[ColumnKey, ...], slot: Slot, dice: tuple[int, ...]
                   ) -> float:
        """Points of ``dice`` in ``slot`` (multiplied, bonuses in) plus the value after."""
        c = slot.column
        out = roll_outcome(self.t, self.t.ruleset.box_names.index(slot.box), *keys[c],
                           ROLL_INDEX[tuple(sorted(dice))])
        assert out is not None, "a legal slot"
        return float(self.mult[c] * (out.points + out.bonuses) + self.after(keys, c, out.state))


#: Turns played exactly when at most this many boxes are open (all columns together).
ENDGAME_OPEN = 8

_endgames: dict[tuple[int, ...], EndGame] = {}


def endgame(mult: tuple[int, ...]) -> EndGame:
    """The shared solver; started afresh past 30,000 positions (≈ 12 MB, ten games or so) so
    a long-running server does not keep every end game it has met."""
    found = _endgames.get(mult)
    if found is None or len(found._values) > 30_000:
        found = _endgames[mult] = EndGame(mult)
    return found


def open_boxes(game: Game) -> int:
    return len(game.scorecard.open_slots())


def endgame_roll_values(game: Game) -> np.ndarray:
    return endgame(game.ruleset.multipliers).roll_values(position_keys(game))


def endgame_pick_slot(game: Game) -> Slot:
    eg = endgame(game.ruleset.multipliers)
    keys = eg.key(position_keys(game))
    dice = current_dice(game)
    return max(game.legal_slots(), key=lambda s: eg.slot_value(keys, s, dice))



def optimal_bot() -> tuple[Callable[[Game], np.ndarray], Callable[[Game], Slot]]:
    """The ``optimal`` level: the column bot, exact over the last ``ENDGAME_OPEN`` turns."""
    return _optimal


def bot(endgame_open: int = ENDGAME_OPEN
        ) -> tuple[Callable[[Game], np.ndarray], Callable[[Game], Slot]]:
    """(roll values, slot pick) of a triple bot: exact when at most ``endgame_open`` boxes are
    open, else against W (``endgame_open=0``: the column bot)."""
    def late(g: Game) -> bool:
        return endgame_open > 0 and open_boxes(g) <= endgame_open

    def roll_values(g: Game) -> np.ndarray:
        return endgame_roll_values(g) if late(g) else column_roll_values(g)

    def pick_slot(g: Game) -> Slot:
        return endgame_pick_slot(g) if late(g) else column_pick_slot(g)

    return roll_values, pick_slot


_optimal = bot()
