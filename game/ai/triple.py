"""Triple Yahtzee bots built on the one-column optimal table.

Exact play is out of reach (39 boxes), so a position is valued from the one-column table:
``W = Σ m_c · F_c(column c)``, each column's optimal expected points to come times its
multiplier.

* ``column`` (the ``optimal`` level for triple): each turn is played exactly against ``W`` —
  every final roll is worth its best ``m_c · (points + F_c(after) − F_c(before))`` over all
  legal boxes of all columns, and holds maximise the expectation of that. Mean ≈ 1845.
* ``lookahead`` (an experiment, not a level): values the end of the turn one turn deeper —
  the points now plus the expected result of playing the *next* turn exactly against ``W``.
  Measured no better than ``column`` (see docs/ai.md), at several times the cost, so the
  levels do not use it.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from game.rules import Game, Slot

from .advice import Advisor, CardState, advisor
from .multisets import (
    COUNTS,
    ROLL_INDEX,
    ROLL_PROBABILITY,
    YAHTZEE_ROLLS,
    best_hold_values,
    hold_values,
)
from .scoring import UPPER_CAP
from .solver import last_roll_values

ColumnKey = tuple[int, int, int]  # (mask, upper capped, yahtzee holds 50)


def _key(state: CardState) -> ColumnKey:
    return (state.mask, min(state.upper, UPPER_CAP), int(state.yahtzee_50))


def _lrv(adv: Advisor, keys: list[ColumnKey]) -> np.ndarray:
    """(252, K) last-roll values (points now + column future) for column states ``keys``."""
    arr = np.array(keys, dtype=np.intp).reshape(-1, 3)
    return last_roll_values(adv.tables, adv.solution.values, arr[:, 0], arr[:, 1], arr[:, 2])


def _future(adv: Advisor, key: ColumnKey) -> float:
    full = (1 << adv.tables.n_boxes) - 1
    return 0.0 if key[0] == full else float(adv.solution.values[key])


class Lookahead:
    """The per-turn tables of the lookahead bot for one position (cached per position)."""

    def __init__(self, adv: Advisor, keys: tuple[ColumnKey, ...], mult: tuple[int, ...]):
        self.adv, self.keys, self.mult = adv, keys, mult
        t = adv.tables
        full = (1 << t.n_boxes) - 1
        # Candidate column states after this turn, per column.
        cands: list[list[ColumnKey]] = []
        for mask, u, y in keys:
            found: list[ColumnKey] = []
            if mask != full:
                for b in range(t.n_boxes):
                    if mask >> b & 1:
                        continue
                    face = int(t.upper_face[b])
                    if face:
                        found += [(mask | 1 << b, min(UPPER_CAP, u + face * c), y)
                                  for c in range(6)]
                    elif b == t.yahtzee_box:
                        found += [(mask | 1 << b, u, 0), (mask | 1 << b, u, 1)]
                    else:
                        found.append((mask | 1 << b, u, y))
            cands.append(sorted(set(found)))
        self.cands = cands
        # Deltas of every column now: m_c (LRV_c - F_c), the next turn's gain in column c.
        now = [self._delta(c, [k]) [:, 0] if k[0] != full else np.full(252, -np.inf)
               for c, k in enumerate(keys)]
        self.w_now = [m * _future(adv, k) for k, m in zip(keys, mult, strict=True)]
        # For each candidate (column c, state s'): NT = W(P') + expected best next turn.
        self.nt: list[dict[ColumnKey, float]] = []
        for c, cl in enumerate(cands):
            if not cl:
                self.nt.append({})
                continue
            others = [now[j] for j in range(len(keys)) if j != c]
            other_best = np.max(others, axis=0) if others else np.full(252, -np.inf)
            mine = self._delta(c, cl) if any(s[0] != full for s in cl) else None
            v0 = np.empty((252, len(cl)))
            for i, s in enumerate(cl):
                col = mine[:, i] if mine is not None and s[0] != full else np.full(252, -np.inf)
                v0[:, i] = np.maximum(col, other_best[:])
            finite = np.isfinite(v0).any(axis=0)
            gain = np.zeros(len(cl))
            if finite.any():
                v = v0[:, finite]
                for _ in range(2):
                    v = best_hold_values(hold_values(v))
                gain[finite] = ROLL_PROBABILITY @ v
            base = sum(self.w_now) - self.w_now[c]
            self.nt.append({s: base + mult[c] * _future(adv, s) + g
                            for s, g in zip(cl, gain, strict=True)})

    def _delta(self, c: int, keys: list[ColumnKey]) -> np.ndarray:
        full = (1 << self.adv.tables.n_boxes) - 1
        live = [k for k in keys if k[0] != full]
        out = np.full((252, len(keys)), -np.inf)
        if live:
            lrv = _lrv(self.adv, live)
            fut = np.array([_future(self.adv, k) for k in live])
            idx = [i for i, k in enumerate(keys) if k[0] != full]
            out[:, idx] = self.mult[c] * (lrv - fut[None, :])
        return out

    def slot_value(self, game: Game, slot: Slot, dice: tuple[int, ...]) -> float:
        """Points (bonuses included, multiplied) now plus NT of the position after."""
        card, c = game.scorecard, slot.column
        t = self.adv.tables
        mask, u, y = self.keys[c]
        b = t.ruleset.box_names.index(slot.box)
        pts = card.score_for(dice, slot.box, c)
        bonus = card.yahtzee_bonus_due(dice, c)
        threshold = min(t.ruleset.upper_bonus_threshold, UPPER_CAP)
        nu, ny = u, y
        if t.upper_face[b]:
            nu = min(UPPER_CAP, u + pts)
            if u < threshold <= u + pts:
                bonus += t.ruleset.upper_bonus
        if b == t.yahtzee_box and pts > 0:
            ny = 1
        return self.mult[c] * (pts + bonus) + self.nt[c][(mask | 1 << b, nu, ny)]

    def roll_values(self, game: Game) -> np.ndarray:
        """(252,): each final roll's best slot value (the Joker's rolls via the scorecard)."""
        t = self.adv.tables
        best = np.full(252, -np.inf)
        threshold = min(t.ruleset.upper_bonus_threshold, UPPER_CAP)
        for c, (mask, u, y) in enumerate(self.keys):
            m = self.mult[c]
            for b in range(t.n_boxes):
                if mask >> b & 1:
                    continue
                nm = mask | 1 << b
                face = int(t.upper_face[b])
                if face:
                    per = np.empty(6)
                    for k in range(6):
                        pts = face * k
                        bonus = t.ruleset.upper_bonus if u < threshold <= u + pts else 0
                        per[k] = m * (pts + bonus) + self.nt[c][(nm, min(UPPER_CAP, u + pts), y)]
                    vals = per[COUNTS[:, face - 1]]
                elif b == t.yahtzee_box:
                    hit = t.base[:, b] > 0
                    vals = np.where(hit, m * 50.0 + self.nt[c][(nm, u, 1)],
                                    self.nt[c][(nm, u, 0)])
                else:
                    vals = m * t.base[:, b] + self.nt[c][(nm, u, y)]
                np.maximum(best, vals, out=best)
        # Five of a kind: legality (Joker) and points straight from the scorecard.
        for f in range(1, 7):
            dice = (f,) * 5
            slots = game.scorecard.legal_slots(dice)
            best[YAHTZEE_ROLLS[f - 1]] = max(self.slot_value(game, s, dice) for s in slots)
        assert ROLL_INDEX[(1, 1, 1, 1, 1)] == YAHTZEE_ROLLS[0]
        return best


# --- the column bot -------------------------------------------------------------------------

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


# --- the lookahead experiment ----------------------------------------------------------------

@lru_cache(maxsize=64)
def _lookahead(rules: str, keys: tuple[ColumnKey, ...], mult: tuple[int, ...]) -> Lookahead:
    return Lookahead(advisor(rules), keys, mult)


def lookahead_for(game: Game) -> Lookahead:
    keys = tuple(_key(CardState.of(game.scorecard, c)) for c in range(game.ruleset.columns))
    return _lookahead(game.ruleset.name, keys, game.ruleset.multipliers)


def lookahead_roll_values(game: Game) -> np.ndarray:
    return lookahead_for(game).roll_values(game)


def lookahead_pick_slot(game: Game) -> Slot:
    la = lookahead_for(game)
    dice = tuple(game.dice)  # type: ignore[arg-type]
    return max(game.legal_slots(), key=lambda s: la.slot_value(game, s, dice))
