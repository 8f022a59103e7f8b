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
from functools import lru_cache

import numpy as np

from game.rules import Game, Slot

from .advice import Advisor, CardState, advisor
from .multisets import COUNTS, ROLL_PROBABILITY, YAHTZEE_ROLLS, best_hold_values, hold_values
from .scoring import UPPER_CAP
from .solver import last_roll_values

ColumnKey = tuple[int, int, int]  # (mask, upper capped, yahtzee holds 50)

N_BOXES = 13
N_TURNS = 39


def _key(state: CardState) -> ColumnKey:
    return (state.mask, min(state.upper, UPPER_CAP), int(state.yahtzee_50))


def position_keys(game: Game) -> tuple[ColumnKey, ...]:
    """The current player's columns as solver states."""
    return tuple(_key(CardState.of(game.scorecard, c)) for c in range(game.ruleset.columns))


def _lrv(adv: Advisor, keys: list[ColumnKey]) -> np.ndarray:
    """(252, K) last-roll values (points now + column future) for column states ``keys``."""
    arr = np.array(keys, dtype=np.intp).reshape(-1, 3)
    return last_roll_values(adv.tables, adv.solution.values, arr[:, 0], arr[:, 1], arr[:, 2])


# --- the column bot (for comparison) ---------------------------------------------------------

def _column_states(game: Game) -> list[CardState]:
    return [CardState.of(game.scorecard, c) for c in range(game.ruleset.columns)]


def column_roll_values(game: Game) -> np.ndarray:
    """Each final roll's best gain: max over columns of m × (points + value after − before)."""
    adv = advisor(game.ruleset)
    full = (1 << adv.tables.n_boxes) - 1
    best = np.full(252, -np.inf)
    states = _column_states(game)
    for st, m in zip(states, game.ruleset.multipliers, strict=True):
        if st.mask != full:
            v0 = _lrv(adv, [_key(st)])[:, 0]
            np.maximum(best, m * (v0 - adv.future(st)), out=best)
    return best


def column_pick_slot(game: Game) -> Slot:
    """The legal slot with the best gain for the current dice."""
    adv = advisor(game.ruleset)
    dice = tuple(game.dice)  # type: ignore[arg-type]
    legal = set(game.legal_slots())
    best: tuple[float, Slot] | None = None
    full = (1 << adv.tables.n_boxes) - 1
    for c, (st, m) in enumerate(zip(_column_states(game), game.ruleset.multipliers,
                                    strict=True)):
        if st.mask == full:
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

@lru_cache(maxsize=1)
def _open_face_sums() -> np.ndarray:
    """For every mask, the sum of the faces of its open upper boxes."""
    faces = np.array([int(f) for f in advisor("triple").tables.upper_face])
    masks = np.arange(1 << N_BOXES)
    open_ = ((masks[:, None] >> np.arange(N_BOXES)[None, :]) & 1) == 0
    return (open_ * faces[None, :]).sum(axis=1)


class EndGame:
    """Exact expected points to come of positions with few open boxes (all columns together),
    by expectimax over whole turns: each turn's holds and box exactly optimal.

    A position's value needs those of every position it can lead to; they are found first,
    then solved level by level (fewest open boxes first), each level's turns vectorised.
    """

    def __init__(self, mult: tuple[int, ...]) -> None:
        self.adv = advisor("triple")
        self.t = self.adv.tables
        self.mult = mult
        self.open_faces = _open_face_sums()
        self._values: dict[tuple[ColumnKey, ...], float] = {}

    def canonical(self, key: ColumnKey) -> ColumnKey:
        """The column state with an upper subtotal that no longer matters made 63."""
        mask, u, y = key
        if mask == (1 << N_BOXES) - 1:
            return (mask, 63, 0)
        if u >= 63 or u + 5 * int(self.open_faces[mask]) < 63:
            return (mask, 63, y)
        return key

    def key(self, keys: tuple[ColumnKey, ...]) -> tuple[ColumnKey, ...]:
        return tuple(self.canonical(k) for k in keys)

    def _moves(self, key: ColumnKey) -> list[ColumnKey]:
        """Every state a column can be in after one more box is filled."""
        mask, u, y = key
        found = []
        for b in range(N_BOXES):
            if mask >> b & 1:
                continue
            nm = mask | 1 << b
            face = int(self.t.upper_face[b])
            if face:
                found += [self.canonical((nm, min(UPPER_CAP, u + face * k), y))
                          for k in range(6)]
            elif b == self.t.yahtzee_box:
                found += [(nm, u, 0), (nm, u, 1)]
            else:
                found.append(self.canonical((nm, u, y)))
        return found

    def value(self, keys: tuple[ColumnKey, ...]) -> float:
        keys = self.key(keys)
        found = self._values.get(keys)
        if found is not None:
            return found
        full = (1 << N_BOXES) - 1
        # Every position below this one that is not solved yet, by number of open boxes.
        todo: dict[int, list[tuple[ColumnKey, ...]]] = {}
        seen = {keys}
        stack = [keys]
        while stack:
            pos = stack.pop()
            if all(k[0] == full for k in pos):
                self._values[pos] = 0.0
                continue
            todo.setdefault(sum(N_BOXES - k[0].bit_count() for k in pos), []).append(pos)
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
        rs = t.ruleset
        yb = t.yahtzee_box
        best = np.full(252, -np.inf)
        for c, (mask, u, y) in enumerate(keys):
            m = self.mult[c]
            col = np.full(252, -np.inf)
            for b in range(N_BOXES):
                if mask >> b & 1:
                    continue
                nm = mask | 1 << b
                face = int(t.upper_face[b])
                if face:
                    per = np.empty(6)
                    for k in range(6):
                        pts = face * k
                        bonus = rs.upper_bonus if u < 63 <= u + pts else 0
                        per[k] = m * (pts + bonus) + self.after(
                            keys, c, (nm, min(UPPER_CAP, u + pts), y))
                    vals = per[COUNTS[:, face - 1]]
                elif b == yb:
                    vals = np.where(t.base[:, b] > 0, m * 50.0 + self.after(keys, c, (nm, u, 1)),
                                    self.after(keys, c, (nm, u, 0)))
                else:
                    vals = m * t.base[:, b] + self.after(keys, c, (nm, u, y))
                np.maximum(col, vals, out=col)
            if mask >> yb & 1 and mask != (1 << N_BOXES) - 1:
                # Five of a kind with this column's yahtzee box filled: the (forced) Joker
                # decides the legal boxes and points, and a 50 there adds the bonus.
                for f in range(6):
                    top = -np.inf
                    for b in range(N_BOXES):
                        if mask >> b & 1 or not t.joker_legal[mask, f, b]:
                            continue
                        pts = int(t.joker_points[mask, f, b])
                        nu, extra = u, rs.yahtzee_bonus if y else 0
                        if t.upper_face[b]:
                            nu = min(UPPER_CAP, u + pts)
                            extra += rs.upper_bonus if u < 63 <= u + pts else 0
                        top = max(top, m * (pts + extra)
                                  + self.after(keys, c, (mask | 1 << b, nu, y)))
                    col[YAHTZEE_ROLLS[f]] = top
            np.maximum(best, col, out=best)
        return best

    def slot_value(self, game: Game, keys: tuple[ColumnKey, ...], slot: Slot,
                   dice: tuple[int, ...]) -> float:
        """Points of ``dice`` in ``slot`` (multiplied, bonuses in) plus the value after."""
        t = self.adv.tables
        card, c = game.scorecard, slot.column
        mask, u, y = keys[c]
        b = t.ruleset.box_names.index(slot.box)
        pts = card.score_for(dice, slot.box, c)
        bonus = card.yahtzee_bonus_due(dice, c)
        nu, ny = u, y
        if t.upper_face[b]:
            nu = min(UPPER_CAP, u + pts)
            if u < 63 <= u + pts:
                bonus += t.ruleset.upper_bonus
        if b == t.yahtzee_box and pts > 0:
            ny = 1
        return self.mult[c] * (pts + bonus) + self.after(keys, c, (mask | 1 << b, nu, ny))


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
    return sum(N_BOXES - k[0].bit_count() for k in position_keys(game))


def endgame_roll_values(game: Game) -> np.ndarray:
    return endgame(game.ruleset.multipliers).roll_values(position_keys(game))


def endgame_pick_slot(game: Game) -> Slot:
    eg = endgame(game.ruleset.multipliers)
    keys = eg.key(position_keys(game))
    dice = tuple(game.dice)  # type: ignore[arg-type]
    return max(game.legal_slots(), key=lambda s: eg.slot_value(game, keys, s, dice))


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
