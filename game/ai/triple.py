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
* ``corrected`` (an experiment, not used by any level): play against ``W + θ·φ``, a linear
  correction over column features fitted by LSTD on simulated games (``triple_fit.py``,
  ``manage.py fit_triple``). No fitted θ played better than θ = 0 (docs/ai.md).
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


# --- the features of the correction ---------------------------------------------------------

#: Names of the column features, in order (see ``column_features``).
UPPER_FEATURES = ("bonus_live", "bonus_live_time", "bonus_live_margin", "bonus_live_open")
YAHTZEE_FEATURES = ("y50_open", "y50_open_share")


def feature_names(box_names: tuple[str, ...]) -> list[str]:
    return ([f"m_open:{b}" for b in box_names] + [f"m_open_time:{b}" for b in box_names]
            + [f"open:{b}" for b in box_names] + [f"m_{f}" for f in UPPER_FEATURES]
            + [f"m_{f}" for f in YAHTZEE_FEATURES] + [f"pairs:{b}" for b in box_names]
            + [f"pairs_time:{b}" for b in box_names])


#: Features of one column; then two per box that see all columns together: how many pairs
#: of columns have the box open (the same box open twice competes for the same rolls).
N_COLUMN_FEATURES = 3 * N_BOXES + len(UPPER_FEATURES) + len(YAHTZEE_FEATURES)
N_FEATURES = N_COLUMN_FEATURES + 2 * N_BOXES


@lru_cache(maxsize=1)
def _upper_faces() -> tuple[int, ...]:
    t = advisor("triple").tables
    return tuple(int(f) for f in t.upper_face)


def column_features(key: ColumnKey, m: int, open_total: int) -> np.ndarray:
    """φ of one column (mask, upper, y50) with multiplier ``m``, ``open_total`` boxes open in
    all columns together (the position's, so after a move: one fewer)."""
    mask, upper, y50 = key
    faces = _upper_faces()
    tau = open_total / N_TURNS
    phi = np.zeros(N_FEATURES)
    open_ = np.array([0.0 if mask >> b & 1 else 1.0 for b in range(N_BOXES)])
    phi[:N_BOXES] = m * open_
    phi[N_BOXES:2 * N_BOXES] = m * tau * open_
    phi[2 * N_BOXES:3 * N_BOXES] = open_
    live, margin, open_upper = _upper_state(mask, upper, faces)
    if live:
        phi[3 * N_BOXES:3 * N_BOXES + 4] = m * np.array([1.0, tau, margin, open_upper])
    n_open = int(open_.sum())
    if y50 and n_open:
        phi[3 * N_BOXES + 4:N_COLUMN_FEATURES] = m * np.array([1.0, n_open / N_BOXES])
    return phi


def _upper_state(mask: int, upper: int, faces: tuple[int, ...]) -> tuple[bool, float, float]:
    """(bonus still in play, subtotal above par (3 of each filled face) / 10, open upper / 6)."""
    open_faces = [f for b, f in enumerate(faces) if f and not mask >> b & 1]
    filled = sum(f for b, f in enumerate(faces) if f and mask >> b & 1)
    live = bool(open_faces) and upper < 63 <= upper + 5 * sum(open_faces)
    margin = max(-2.0, min(2.0, (upper - 3 * filled) / 10))
    return live, margin, len(open_faces) / 6


def position_features(keys: tuple[ColumnKey, ...], mult: tuple[int, ...]) -> np.ndarray:
    """φ of a whole position (the sum of its columns')."""
    full = (1 << N_BOXES) - 1
    open_total = sum(N_BOXES - (k[0] & full).bit_count() for k in keys)
    phi = sum((column_features(k, m, open_total) for k, m in zip(keys, mult, strict=True)),
              np.zeros(N_FEATURES))
    k = np.array([sum(1 for key in keys if not key[0] >> b & 1) for b in range(N_BOXES)])
    pairs = k * (k - 1) / 2
    phi[N_COLUMN_FEATURES:N_COLUMN_FEATURES + N_BOXES] = pairs
    phi[N_COLUMN_FEATURES + N_BOXES:] = pairs * open_total / N_TURNS
    return phi


class Correction:
    """θ: the weights of the features (all zero gives the column bot).

    ``column`` is θ·φ of one column from tables over every (mask, upper) made once, so a
    turn's hundred-odd candidate columns cost a few lookups each.
    """

    def __init__(self, theta: np.ndarray) -> None:
        self.theta = np.asarray(theta, dtype=np.float64)
        th = self.theta
        masks = np.arange(1 << N_BOXES)
        open_ = ((masks[:, None] >> np.arange(N_BOXES)[None, :]) & 1) == 0  # (8192, 13)
        self._a = open_ @ th[:N_BOXES]
        self._b = open_ @ th[N_BOXES:2 * N_BOXES]
        self._c = open_ @ th[2 * N_BOXES:3 * N_BOXES]
        faces = np.array(_upper_faces())
        up = faces > 0
        open_faces = open_[:, up] @ faces[up]  # sum of the open upper faces
        filled = (~open_[:, up]) @ faces[up]
        n_up = open_[:, up].sum(axis=1)
        u = np.arange(UPPER_CAP + 1)[None, :]
        live = (n_up[:, None] > 0) & (u < 63) & (u + 5 * open_faces[:, None] >= 63)
        margin = np.clip((u - 3 * filled[:, None]) / 10, -2.0, 2.0)
        k = 3 * N_BOXES
        self._u0 = live * (th[k] + th[k + 2] * margin + th[k + 3] * (n_up[:, None] / 6))
        self._u1 = live * th[k + 1]
        n_open = open_.sum(axis=1)
        self._y = (n_open > 0) * (th[k + 4] + th[k + 5] * n_open / N_BOXES)

    @classmethod
    def zero(cls) -> Correction:
        return cls(np.zeros(N_FEATURES))

    def column(self, key: ColumnKey, m: int, open_total: int) -> float:
        """θ·column_features(key, m, open_total)."""
        mask, u, y = key
        tau = open_total / N_TURNS
        return float(m * (self._a[mask] + tau * self._b[mask] + self._u0[mask, u]
                          + tau * self._u1[mask, u] + y * self._y[mask]) + self._c[mask])

    def pair_change(self, box: int, open_in: int, open_total: int) -> float:
        """Change of the pair features' value when ``box``, open in ``open_in`` columns, is
        filled in one of them (``open_total``: boxes open after the move)."""
        th = self.theta[N_COLUMN_FEATURES:]
        return -(open_in - 1) * (th[box] + th[N_BOXES + box] * open_total / N_TURNS)


# --- exact play of a turn against W + θ·φ ----------------------------------------------------

class TurnValues:
    """Values of ending the turn, for one position and one correction (cached per position).

    A move changes one column c: its gain is ``m_c · (points + bonuses) + U_c(after) −
    U_c(before)`` with ``U_c = m_c · F_c + θ·φ_c`` at the position's open count after the
    move; the other columns' terms are the same for every move, so they cancel.
    """

    def __init__(self, adv: Advisor, keys: tuple[ColumnKey, ...], mult: tuple[int, ...],
                 corr: Correction):
        self.adv, self.keys, self.mult, self.corr = adv, keys, mult, corr
        full = (1 << N_BOXES) - 1
        self.after_open = sum(N_BOXES - k[0].bit_count() for k in keys) - 1
        self.before = [self.u(c, k) if k[0] != full else 0.0 for c, k in enumerate(keys)]
        self._u: dict[tuple[int, ColumnKey], float] = {}
        open_in = [sum(1 for k in keys if not k[0] >> b & 1) for b in range(N_BOXES)]
        self.pairs = [corr.pair_change(b, n, self.after_open) if n else 0.0
                      for b, n in enumerate(open_in)]
        self._best: np.ndarray | None = None

    def u(self, c: int, key: ColumnKey) -> float:
        m = self.mult[c]
        full = (1 << N_BOXES) - 1
        f = 0.0 if key[0] == full else float(self.adv.solution.values[key])
        return m * f + self.corr.column(key, m, self.after_open)

    def gain_after(self, c: int, key: ColumnKey) -> float:
        """U_c(after) − U_c(before), cached."""
        found = self._u.get((c, key))
        if found is None:
            box = (key[0] ^ self.keys[c][0]).bit_length() - 1
            found = self._u[(c, key)] = self.u(c, key) - self.before[c] + self.pairs[box]
        return found

    def slot_value(self, game: Game, slot: Slot, dice: tuple[int, ...]) -> float:
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
        return self.mult[c] * (pts + bonus) + self.gain_after(c, (mask | 1 << b, nu, ny))

    def _no_joker(self) -> np.ndarray:
        if self._best is not None:
            return self._best
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
                        per[k] = m * (pts + bonus) + self.gain_after(
                            c, (nm, min(UPPER_CAP, u + pts), y))
                    vals = per[COUNTS[:, face - 1]]
                elif b == t.yahtzee_box:
                    hit = t.base[:, b] > 0
                    vals = np.where(hit, m * 50.0 + self.gain_after(c, (nm, u, 1)),
                                    self.gain_after(c, (nm, u, 0)))
                else:
                    vals = m * t.base[:, b] + self.gain_after(c, (nm, u, y))
                np.maximum(best, vals, out=best)
        self._best = best
        return best

    def roll_values(self, game: Game) -> np.ndarray:
        """(252,): each final roll's best gain (five of a kind: legality and points from the
        scorecard, for the Joker)."""
        best = self._no_joker().copy()
        for f in range(1, 7):
            dice = (f,) * 5
            best[YAHTZEE_ROLLS[f - 1]] = max(self.slot_value(game, s, dice)
                                             for s in game.scorecard.legal_slots(dice))
        return best

    def pick_slot(self, game: Game) -> Slot:
        dice = tuple(game.dice)  # type: ignore[arg-type]
        return max(game.legal_slots(), key=lambda s: self.slot_value(game, s, dice))


_turn_cache: dict[tuple, TurnValues] = {}


def turn_values(game: Game, corr: Correction) -> TurnValues:
    """The TurnValues of ``game``'s current position (a small cache: a turn asks 2–3 times)."""
    keys = position_keys(game)
    cache_key = (game.ruleset.name, keys, id(corr))
    found = _turn_cache.get(cache_key)
    if found is None or found.corr is not corr:
        if len(_turn_cache) > 64:
            _turn_cache.clear()
        found = _turn_cache[cache_key] = TurnValues(advisor(game.ruleset), keys,
                                                    game.ruleset.multipliers, corr)
    return found


def corrected_roll_values(game: Game, corr: Correction) -> np.ndarray:
    return turn_values(game, corr).roll_values(game)


def corrected_pick_slot(game: Game, corr: Correction) -> Slot:
    return turn_values(game, corr).pick_slot(game)


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
    faces = np.array(_upper_faces())
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


def bot(corr: Correction | None, endgame_open: int = ENDGAME_OPEN
        ) -> tuple[Callable[[Game], np.ndarray], Callable[[Game], Slot]]:
    """(roll values, slot pick) of a triple bot: exact when at most ``endgame_open`` boxes are
    open, else against W + θ·φ (``corr=None``: against W alone, the column bot)."""
    def late(g: Game) -> bool:
        return endgame_open > 0 and open_boxes(g) <= endgame_open

    def roll_values(g: Game) -> np.ndarray:
        if late(g):
            return endgame_roll_values(g)
        return column_roll_values(g) if corr is None else corrected_roll_values(g, corr)

    def pick_slot(g: Game) -> Slot:
        if late(g):
            return endgame_pick_slot(g)
        return column_pick_slot(g) if corr is None else corrected_pick_slot(g, corr)

    return roll_values, pick_slot


_optimal = bot(None)
