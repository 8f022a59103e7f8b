"""The review of a game: the luck of every roll and the cost of every decision.

Every position of a player is valued by its expected final score under optimal play (the
exact table for yahtzee and yatzy). Along one player's game the values form a chain::

    E(empty card) → roll → V(after roll) → choice → V(chosen) → roll → … → final score

A roll moves the value from what was expected before the dice were thrown to the value of the
best choice the dice allow: that step is *luck* (zero on average). A choice moves it from the
best option's value to the chosen one's: that step is the *loss* Δ ≥ 0. The value of a box
chosen is the expected score at the player's next turn (bonuses included), so the chain
telescopes: ``final = expected_start + Σ luck − Σ loss``, exactly for yahtzee and yatzy.

Triple Yahtzee has no exact table; positions are valued as the ``optimal`` bot values them
(``game.ai.triple``): during a turn, the exact expectimax of the turn against
``W = Σ m_c · F_c`` (each column's table value times its multiplier), and the exact end game
once few boxes are open. A turn valued that way is worth more at its start than ``W`` (the
player picks a column per roll, which ``W`` does not count), so between two turns the value
jumps by that much, and once more where the exact end game takes over: *drift*. For triple,
``final = expected_start + Σ luck − Σ loss + Σ drift``; drift is 0 for yahtzee and yatzy.

Grades follow Tom Verhoeff's Yahtzee proficiency test: best (Δ = 0), good (Δ < 0.01),
inaccuracy ``?!`` (Δ < 1), mistake ``?`` (Δ < 5), blunder ``??`` (Δ ≥ 5). Only real decisions
(more than one option) are graded; the decisions of autoplay (a player away) are analysed and
count in the chain, but are left out of the player's grade.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from game.rules import (
    BonusAwarded,
    Event,
    Game,
    GameFinished,
    GameStarted,
    Rolled,
    Scored,
    Slot,
    TurnStarted,
)

from . import triple
from .advice import CardState, advisor
from .multisets import INDEX, ROLL_PROBABILITY, best_hold_values, hold_values, sub_holds
from .scoring import UPPER_CAP
from .solver import last_roll_values
from .standings import Standings, supported
from .to_win import TurnChances, turn_chances

#: Format of ``Analysis.to_dict()``; stored analyses of another version are recomputed.
VERSION = 3  # 2: win chances at every turn; 3: each decision's and roll's chances
#: (``as_high`` came later, optional: a review without it is shown without its sentence, not
#: made again — a new version would have the sweep review every stored game once more.)

GRADES = ("best", "good", "inaccuracy", "mistake", "blunder")
SYMBOLS = {"best": "", "good": "", "inaccuracy": "?!", "mistake": "?", "blunder": "??"}
#: A single legal option (the last box, a forced Joker): not a decision, not graded.
FORCED = "forced"
#: Differences below this are float noise, not a loss.
NOISE = 1e-9
#: Decimals kept in the JSON (values are expected points).
DECIMALS = 6

Hold = tuple[int, ...]
Option = Hold | str  # dice values kept (sorted), or a box name


def grade(loss: float) -> str:
    """Verhoeff's grade of a decision that lost ``loss`` expected points."""
    if loss <= 0:
        return "best"
    if loss < 0.01:
        return "good"
    if loss < 1:
        return "inaccuracy"
    if loss < 5:
        return "mistake"
    return "blunder"


def _r(x: float) -> float:
    return round(x, DECIMALS) + 0.0  # + 0.0: no "-0.0" in the JSON


def _option_json(option: Option) -> list[int] | str:
    return option if isinstance(option, str) else list(option)


@dataclass
class Decision:
    seq: int  # the event that carries it: the re-roll for a hold, the score for a box
    player: int
    kind: str  # "hold" (re-rolled, keeping ``chosen``) or "box" (scored in ``chosen``)
    chosen: Option
    best: Option
    expected_chosen: float
    expected_best: float
    loss: float
    grade: str  # one of GRADES, or FORCED
    options: int  # distinct options (holds and boxes)
    rolls_left: int  # before the decision
    by: str  # who acted: human, bot or autoplay
    #: The mover's chance to win with the chosen option, with the best one for it, and that
    #: option (None: one player, or triple).
    chance: ChanceChoice | None = None

    def to_dict(self) -> dict[str, Any]:
        out = {
            "seq": self.seq, "player": self.player, "kind": self.kind,
            "chosen": _option_json(self.chosen), "best": _option_json(self.best),
            "expected_chosen": _r(self.expected_chosen),
            "expected_best": _r(self.expected_best), "loss": _r(self.loss),
            "grade": self.grade, "options": self.options, "rolls_left": self.rolls_left,
            "by": self.by,
        }
        if self.chance is not None:
            out.update(self.chance.to_dict())
        return out


@dataclass
class ChanceChoice:
    """A decision weighed by the mover's chance to win (``to_win``)."""

    chosen: float
    best: float
    best_option: Option

    @property
    def loss(self) -> float:
        return self.best - self.chosen

    def to_dict(self) -> dict[str, Any]:
        return {"chance_chosen": _r(self.chosen), "chance_best": _r(self.best),
                "chance_loss": _r(self.loss), "best_to_win": _option_json(self.best_option)}


@dataclass
class RollLuck:
    seq: int
    player: int
    roll: int  # 1, 2 or 3
    before: float  # expected final score before the dice were thrown
    after: float  # the value of the best choice the dice allow
    chance_luck: float | None = None  # what the dice did to the mover's chance to win

    @property
    def luck(self) -> float:
        return self.after - self.before

    def to_dict(self) -> dict[str, Any]:
        # ``after`` is the player's value in the series at this seq; ``before`` the hold's
        # value (the decision of the same seq) or, for a first roll, the value at turn start.
        out = {"seq": self.seq, "player": self.player, "roll": self.roll,
               "luck": _r(self.luck)}
        if self.chance_luck is not None:
            out["chance_luck"] = _r(self.chance_luck)
        return out


@dataclass
class ChanceChain:
    """One player's chance to win along the game, as a sum::

        final (1 won, 0 lost, 1/k a k-way tie) = start + luck − loss + others + drift

    ``luck``: what every roll (anyone's dice) did to it; ``loss``: what the player's own
    decisions cost it against their best option for winning; ``others``: what the other
    players' decisions did to it; ``drift``: the jumps at each turn's start, where the player
    to move is taken to play that turn for the win instead of for points (``to_win``).
    """

    start: float
    luck: float = 0.0
    loss: float = 0.0
    others: float = 0.0
    drift: float = 0.0
    final: float = 0.0  # the chance the chain ends on: the game's outcome once it is over

    def to_dict(self) -> dict[str, Any]:
        return {"start": _r(self.start), "luck": _r(self.luck), "loss": _r(self.loss),
                "others": _r(self.others), "drift": _r(self.drift), "final": _r(self.final)}


@dataclass
class PlayerSummary:
    name: str
    expected_start: float = 0.0
    luck: float = 0.0  # Σ luck of every roll
    loss: float = 0.0  # Σ Δ of every decision, autoplay's included (the chain needs them)
    drift: float = 0.0  # triple only: jumps of the valuation between turns
    final: int = 0  # the score on the card (so far, while the game is running)
    expected: float = 0.0  # the chain's last value: ``final`` once the game is over
    decisions: int = 0  # real decisions graded (not forced, not autoplay)
    graded_loss: float = 0.0
    grades: dict[str, int] = field(default_factory=lambda: dict.fromkeys(GRADES, 0))
    autoplay_decisions: int = 0
    autoplay_loss: float = 0.0
    chance: ChanceChain | None = None  # games of two or more players, yahtzee and yatzy
    #: The chance, from the empty card, of a final score at least this high (yahtzee and
    #: yatzy games played to the end; else None).
    as_high: float | None = None

    @property
    def mean_loss(self) -> float:
        return self.graded_loss / self.decisions if self.decisions else 0.0

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name, "expected_start": _r(self.expected_start),
            "luck": _r(self.luck), "loss": _r(self.loss), "final": self.final,
            "decisions": self.decisions, "mean_loss": _r(self.mean_loss),
            "grades": dict(self.grades), "drift": _r(self.drift),
            "expected": _r(self.expected), "autoplay_decisions": self.autoplay_decisions,
            "autoplay_loss": _r(self.autoplay_loss),
            "chance": self.chance.to_dict() if self.chance is not None else None,
            "as_high": _r(self.as_high) if self.as_high is not None else None,
        }


@dataclass
class Analysis:
    rules: str
    valuation: str  # "exact", or how triple positions are valued
    finished: bool
    players: list[PlayerSummary]
    decisions: list[Decision]
    rolls: list[RollLuck]
    #: (seq, player, expected final score): each change of a player's value, in game order.
    series: list[tuple[int, int, float]]
    #: (seq, each player's chance to win) at the start of every turn and at the end; empty
    #: for one player, and for triple (its valuation gives no spread).
    chances: list[tuple[int, list[float]]]

    def to_dict(self) -> dict[str, Any]:
        return {
            "version": VERSION, "rules": self.rules, "valuation": self.valuation,
            "finished": self.finished,
            "players": [p.to_dict() for p in self.players],
            "decisions": [d.to_dict() for d in self.decisions],
            "rolls": [r.to_dict() for r in self.rolls],
            "series": [[s, p, _r(v)] for s, p, v in self.series],
            "chances": [[s, [round(c, 4) for c in cs]] for s, cs in self.chances],
        }


# --- valuations: what a position of the player to move is worth --------------------------

class ExactValuation:
    """Yahtzee and yatzy: the solved table, through the Advisor.

    The holds of every turn of the game are valued in one vectorised pass over all the turns'
    states (as ``Advisor._turn_levels`` does one state at a time): a 6-player game in about a
    tenth of the time.
    """

    name = "exact"

    def __init__(self, game: Game, events: Sequence[Event] | None) -> None:
        """``events``: the game's history, each turn's state valued in one pass; None: only
        the turn ``game`` is in (its card as the turn started)."""
        self.adv = advisor(game.ruleset)
        keys: dict[StateKey, int] = {}
        if events is None:
            keys[_key(CardState.of(game.scorecard))] = 0
        else:
            played = Game.from_events(events[:1])
            for event in events[1:]:
                played.apply(event)
                if isinstance(event, TurnStarted):
                    keys.setdefault(_key(CardState.of(played.scorecard)), len(keys))
        self.levels = self._turn_levels(keys)

    def _turn_levels(self, keys: dict[StateKey, int]
                     ) -> dict[StateKey, tuple[list[np.ndarray], list[np.ndarray], int]]:
        """For each state a turn starts from (``keys``: the states and their columns): its
        hold values with one and with two rolls to come, and its column in them."""
        if not keys:
            return {}
        m, u, y = (np.array(col, dtype=np.intp) for col in zip(*keys, strict=True))
        v0 = last_roll_values(self.adv.tables, self.adv.solution.values, m, u, y)
        one = hold_values(v0)
        two = hold_values(best_hold_values(one))
        return {k: (one, two, i) for k, i in keys.items()}

    def turn_start(self, game: Game) -> float:
        self.state = CardState.of(game.scorecard)  # unchanged until the box is scored
        self.turn = self.levels[_key(self.state)]
        return self.adv.expected_score(self.state)

    def holds(self, game: Game, dice: Hold, rolls_left: int) -> dict[Hold, float]:
        levels, i = (self.turn[0] if rolls_left == 1 else self.turn[1]), self.turn[2]
        return {h: self.state.banked + float(levels[len(h)][INDEX[len(h)][h], i])
                for h in sub_holds(dice)}

    def boxes(self, game: Game, dice: Hold) -> dict[str, float]:
        return {c.box: c.expected for c in self.adv.box_choices(self.state, dice)
                if c.box is not None}


StateKey = tuple[int, int, int]


def _key(state: CardState) -> StateKey:
    return (state.mask, min(state.upper, UPPER_CAP), int(state.yahtzee_50))


class TripleValuation:
    """Triple: the ``optimal`` bot's own measure (see the module's docstring)."""

    name = (f"triple: the optimal bot's valuation — each turn exact against W = Σ m_c·F_c, "
            f"the whole game exact once at most {triple.ENDGAME_OPEN} boxes are open")

    def __init__(self, game: Game, events: Sequence[Event] | None) -> None:
        self.adv = advisor(game.ruleset)
        self.mult = game.ruleset.multipliers
        # The analysis's own end-game solver (the bot's, ``triple.endgame``, starts afresh past
        # 30,000 positions, which the end games of a few players pass: it would solve again).
        self.eg = triple.EndGame(self.mult)

    def turn_start(self, game: Game) -> float:
        card = game.scorecard
        states = [CardState.of(card, c) for c in range(len(self.mult))]
        self.banked = sum(m * s.banked for m, s in zip(self.mult, states, strict=True))
        self.late = triple.open_boxes(game) <= triple.ENDGAME_OPEN
        full = (1 << self.adv.tables.n_boxes) - 1
        self.futures = [self.adv.future(s) if s.mask != full else 0.0 for s in states]
        self.states = states
        if self.late:
            self.keys = self.eg.key(triple.position_keys(game))
            # Roll values are points to come from here: the base is what is banked.
            self.base: float = self.banked
            roll_values = self.eg.roll_values(self.keys)
        else:
            # Roll values are gains over W: the base is W.
            self.base = self.banked + sum(
                m * f for m, f in zip(self.mult, self.futures, strict=True))
            roll_values = triple.column_roll_values(game)
        # The whole turn as the bot plays it: every hold with one and with two rolls to come.
        one = hold_values(roll_values.reshape(-1, 1))
        two = hold_values(best_hold_values(one))
        self.levels = {1: one, 2: two}
        return self.base + float(ROLL_PROBABILITY @ best_hold_values(two)[:, 0])

    def holds(self, game: Game, dice: Hold, rolls_left: int) -> dict[Hold, float]:
        levels = self.levels[rolls_left]
        return {h: self.base + float(levels[len(h)][INDEX[len(h)][h], 0])
                for h in sub_holds(dice)}

    def boxes(self, game: Game, dice: Hold) -> dict[str, float]:
        legal = game.legal_slots()
        if self.late:
            return {s.name(3): self.banked + self.eg.slot_value(self.keys, s, dice)
                    for s in legal}
        found: dict[str, float] = {}
        for c, (st, m) in enumerate(zip(self.states, self.mult, strict=True)):
            if not any(s.column == c for s in legal):
                continue
            for ch in self.adv.box_choices(st, dice):
                slot = Slot(ch.box or "", c)
                if slot in legal:
                    gain = m * (ch.expected - st.banked - self.futures[c])
                    found[slot.name(3)] = self.base + gain
        return found


# --- win chances -------------------------------------------------------------------------

class _Chances:
    """Every player's chance to win along the game: the standings' at the start of every turn
    (``series``: what the live rooms show), and in between the turn played for the win
    (``to_win.TurnChances``): each roll's luck, each decision's cost, each player's chain."""

    def __init__(self, game: Game) -> None:
        self.on = len(game.players) > 1 and supported(game.ruleset)
        self.standings = Standings(game.ruleset) if self.on else None
        self.series: list[tuple[int, list[float]]] = []
        self.value = np.zeros(len(game.players))
        self.chains: list[ChanceChain] = []
        self.turn: TurnChances | None = None

    def turn_started(self, game: Game, seq: int, player: int) -> None:
        if self.standings is None:
            return
        between = self.standings.chances(game.scorecards)
        self.series.append((seq, between))
        if not self.chains:
            self.value = np.array(between)
            self.chains = [ChanceChain(start=c) for c in between]
        states = [CardState.of(card) for card in game.scorecards]
        self.turn = turn_chances(self.standings, states, player)
        self._move(self.turn.start, "drift")

    def _move(self, value: np.ndarray, term: str, player: int | None = None) -> None:
        """The chances become ``value``; the change goes to each player's ``term`` (for a
        decision: the mover's ``loss``, the others' ``others``)."""
        change = value - self.value
        for p, chain in enumerate(self.chains):
            if term == "decision":
                if p == player:
                    chain.loss -= float(change[p])
                else:
                    chain.others += float(change[p])
            else:
                setattr(chain, term, getattr(chain, term) + float(change[p]))
        self.value = np.array(value)

    def rolled(self, game: Game, player: int) -> float | None:
        """The chances once the dice landed (their best option's): the mover's luck."""
        if self.turn is None:
            return None
        before = float(self.value[player])
        self._move(self.turn.after_roll(game.dice or (), game.rolls_left), "luck")
        return float(self.value[player]) - before

    def decide(self, game: Game, player: int, kind: str, chosen: Option
               ) -> ChanceChoice | None:
        """The decision weighed by the mover's chance (before it is applied to ``game``)."""
        if self.turn is None:
            return None
        dice = tuple(game.dice or ())
        options: dict[Option, np.ndarray] = {}
        for box, chances in self.turn.boxes(dice).items():
            options[box] = chances
        for hold, chances in (self.turn.holds(dice, game.rolls_left)
                              if game.rolls_left else {}).items():
            options[hold] = chances
        best_option = self.turn.best(dice, game.rolls_left)
        value, best = options[chosen], options[best_option]
        if value[player] > best[player] - NOISE:
            best_option, best = chosen, value
        self._move(value, "decision", player)
        return ChanceChoice(float(value[player]), float(best[player]), best_option)

    def finished(self, game: Game, seq: int) -> None:
        if self.on and game.winners:  # a game ended early by staff has no winner
            shares = 1 / len(game.winners)
            self.series.append((seq, [shares if p in game.winners else 0.0
                                      for p in range(len(game.players))]))

    def close(self) -> list[ChanceChain | None]:
        """Each player's chain, ending on the chances as they stand (the outcome once the game
        is over)."""
        for chain, value in zip(self.chains, self.value, strict=False):
            chain.final = float(value)
        return list(self.chains) if self.chains else []


# --- the walk through the game -------------------------------------------------------------

def _options(val: ExactValuation | TripleValuation, game: Game, dice: Hold, rolls_left: int
             ) -> tuple[dict[Hold, float], dict[str, float]]:
    """Every hold (with a roll left) and every legal box of ``dice``, with its value."""
    boxes = val.boxes(game, dice)
    holds = val.holds(game, dice, rolls_left) if rolls_left else {}
    return holds, boxes


class _Walk:
    def __init__(self, game: Game, events: Sequence[Event], start_seq: int) -> None:
        self.start_seq = start_seq
        kind = TripleValuation if game.ruleset.columns > 1 else ExactValuation
        self.val = kind(game, events)
        names = game.players
        self.columns = game.ruleset.columns
        self.players = [PlayerSummary(n) for n in names]
        self.value: list[float | None] = [None] * len(names)  # each player's last chain value
        self.before = 0.0  # the current player's value before the next roll
        self.decisions: list[Decision] = []
        self.rolls: list[RollLuck] = []
        self.series: list[tuple[int, int, float]] = []

    def point(self, seq: int, player: int, value: float) -> None:
        self.value[player] = value
        self.series.append((seq, player, value))

    def turn_started(self, game: Game, seq: int, player: int) -> None:
        v = self.val.turn_start(game)
        if self.value[player] is None:
            # The first turn: every card is empty and worth the same.
            for p, summary in enumerate(self.players):
                summary.expected_start = v
                self.point(self.start_seq, p, v)
        last = self.value[player]
        assert last is not None  # set above on the first turn, by point() since
        self.players[player].drift += v - last  # float noise only, but for triple
        if abs(v - last) > NOISE:
            self.point(seq, player, v)
        else:
            self.value[player] = v
        self.before = v

    def options(self, game: Game, dice: Hold, rolls_left: int
                ) -> tuple[dict[Hold, float], dict[str, float]]:
        return _options(self.val, game, dice, rolls_left)

    @staticmethod
    def best(holds: dict[Hold, float], boxes: dict[str, float]) -> tuple[Option, float]:
        """The best option: scoring now on a tie, else the larger hold (as the bot plays).
        Keeping all five dice is never better than the best of the rest (it can only be
        worth scoring now or re-rolling next time), so it is not offered as the best."""
        cands: list[tuple[float, int, Option]] = [(v, 6, b) for b, v in boxes.items()]
        cands += [(v, len(h), h) for h, v in holds.items() if len(h) < 5]
        top = max(c[0] for c in cands)
        _, _, option = max((c for c in cands if c[0] >= top - NOISE), key=lambda c: c[1])
        return option, top

    def after_roll(self, game: Game, seq: int, event: Rolled,
                   chance_luck: float | None = None) -> None:
        holds, boxes = self.options(game, tuple(game.dice), game.rolls_left)  # type: ignore[arg-type]
        _, top = self.best(holds, boxes)
        self.rolls.append(RollLuck(seq, event.player, event.roll, self.before, top,
                                   chance_luck))
        self.point(seq, event.player, top)

    def decide(self, game: Game, seq: int, player: int, kind: str, chosen: Option,
               by: str, chance: ChanceChoice | None = None) -> None:
        dice = tuple(game.dice)  # type: ignore[arg-type]
        holds, boxes = self.options(game, dice, game.rolls_left)
        best, top = self.best(holds, boxes)
        value = boxes[chosen] if kind == "box" else holds[chosen]  # type: ignore[index]
        loss = top - value
        if loss < NOISE:
            loss, best = 0.0, chosen
        n = len(boxes) + sum(len(h) < 5 for h in holds)
        d = Decision(seq, player, kind, chosen, best, value, top, loss,
                     grade(loss) if n > 1 else FORCED, n, game.rolls_left, by, chance)
        self.decisions.append(d)
        summary = self.players[player]
        summary.loss += loss
        if n > 1 and by == "autoplay":
            summary.autoplay_decisions += 1
            summary.autoplay_loss += loss
        elif n > 1:
            summary.decisions += 1
            summary.graded_loss += loss
            summary.grades[d.grade] += 1
        self.before = value


def analyse(events: Sequence[Event], by: Sequence[str] | None = None,
            seqs: Sequence[int] | None = None) -> Analysis:
    """The analysis of a game (finished or not) from its events.

    ``by[i]`` says who acted for ``events[i]`` (the stored ``GameEvent.by``: human, bot,
    autoplay or system; default human), ``seqs[i]`` its seq (default ``i + 1``).
    """
    if not events or not isinstance(events[0], GameStarted):
        raise ValueError("A game's history starts with a game_started event.")
    by = list(by) if by is not None else ["human"] * len(events)
    seqs = list(seqs) if seqs is not None else list(range(1, len(events) + 1))
    if not len(by) == len(seqs) == len(events):
        raise ValueError("by and seqs must be as long as the events.")
    game = Game.from_events(events[:1])
    walk = _Walk(game, events, seqs[0])
    chances = _Chances(game)
    for event, who, seq in zip(events[1:], by[1:], seqs[1:], strict=True):
        if isinstance(event, TurnStarted):
            game.apply(event)
            walk.turn_started(game, seq, event.player)
            chances.turn_started(game, seq, event.player)
        elif isinstance(event, Rolled):
            if event.roll > 1:
                prev = game.dice
                kept = tuple(sorted(prev[i] for i in event.held))  # type: ignore[index]
                walk.decide(game, seq, event.player, "hold", kept, who,
                            chances.decide(game, event.player, "hold", kept))
            game.apply(event)
            walk.after_roll(game, seq, event, chances.rolled(game, event.player))
        elif isinstance(event, Scored):
            slot = Slot(event.box, event.column).name(walk.columns)
            walk.decide(game, seq, event.player, "box", slot, who,
                        chances.decide(game, event.player, "box", slot))
            game.apply(event)
            walk.point(seq, event.player, walk.before)
        elif isinstance(event, BonusAwarded):
            game.apply(event)
        elif isinstance(event, GameFinished):
            game.apply(event)
            chances.finished(game, seq)
        else:
            raise ValueError(f"Cannot analyse event {event!r}.")
    for p, summary in enumerate(walk.players):
        summary.final = game.scorecards[p].total
        last = walk.value[p]
        summary.expected = last if last is not None else summary.expected_start
        summary.luck = sum(r.luck for r in walk.rolls if r.player == p)
    for summary, chain in zip(walk.players, chances.close(), strict=False):
        summary.chance = chain
    if game.is_over and not game.unfinished and supported(game.ruleset):
        for summary, chance in zip(walk.players, _as_high(events, walk.players), strict=True):
            summary.as_high = chance
    return Analysis(game.ruleset.name, walk.val.name, game.is_over, walk.players,
                    walk.decisions, walk.rolls, walk.series, chances.series)


def _as_high(events: Sequence[Event], players: Sequence[PlayerSummary]) -> list[float]:
    """Each player's chance, from the start of the game, of finishing at least as high as
    they did: the standings' of the empty cards (the same for every player, so one figure
    per distinct final)."""
    start = Game.from_events(events[:1])
    standings = Standings(start.ruleset)
    found: dict[int, float] = {}
    for p, summary in enumerate(players):
        if summary.final not in found:
            # At or above a whole number: above the half point below it.
            found[summary.final] = standings.finishes_above(start.scorecards, p,
                                                            summary.final - 0.5)
    return [found[summary.final] for summary in players]


# --- one decision, every option ------------------------------------------------------------

@dataclass(frozen=True)
class DecisionOptions:
    """Every option of one decision of a game, valued exactly as :func:`analyse` values them
    (so the chosen and the best options' values are its ``expected_chosen`` and
    ``expected_best``): what a reviewer may choose instead, on the same dice."""

    seq: int
    player: int
    kind: str  # what was chosen: "hold" or "box"
    dice: Hold  # the dice as they lay, in position order
    rolls_left: int
    chosen: Option
    best: Option
    expected_best: float
    holds: dict[Hold, float]  # every distinct hold (sorted values), keeping all five too
    boxes: dict[str, float]  # every legal box (``box@c`` in triple)
    points: dict[str, int]  # what the dice score in each legal box, bonuses aside

    def loss(self, option: Option) -> float:
        """What ``option`` gives up against the best, 0 below float noise."""
        value = self.boxes[option] if isinstance(option, str) else self.holds[option]
        loss = self.expected_best - value
        return 0.0 if loss < NOISE else loss


class NoDecision(ValueError):
    """A move that carries no decision to value: its English sentence, and the ``template`` and
    ``params`` the game's page translates it from (this package imports no Django)."""

    def __init__(self, template: str, params: dict[str, Any]) -> None:
        super().__init__(template % params)
        self.template, self.params = template, params


def gettext_noop(message: str) -> str:
    """``message`` unchanged: marks it for the catalogs (xgettext extracts the calls)."""
    return message


def decision_options(events: Sequence[Event], seq: int,
                     seqs: Sequence[int] | None = None) -> DecisionOptions:
    """The options of the decision carried by the event of ``seq`` (a re-roll: the hold; a
    score: the box), ``seqs`` as for :func:`analyse`. Only that turn is valued.

    Raises ValueError for a seq the game does not have or that carries no decision.
    """
    if not events or not isinstance(events[0], GameStarted):
        raise ValueError("A game's history starts with a game_started event.")
    seqs = list(seqs) if seqs is not None else list(range(1, len(events) + 1))
    game = Game.from_events(events[:1])
    event: Event = events[0]
    for i, (event, at) in enumerate(zip(events, seqs, strict=True)):
        if at == seq:
            break
        if i:  # the first made the game
            game.apply(event)
    else:
        raise NoDecision(gettext_noop("This game has no move %(seq)s."), {"seq": seq})
    columns = game.ruleset.columns
    chosen: Option
    if isinstance(event, Rolled) and event.roll > 1 and game.dice is not None:
        kind, chosen = "hold", tuple(sorted(game.dice[i] for i in event.held))
    elif isinstance(event, Scored) and game.dice is not None:
        kind, chosen = "box", Slot(event.box, event.column).name(columns)
    else:
        raise NoDecision(gettext_noop("Move %(seq)s is not a decision (a re-roll or a score)."),
                         {"seq": seq})
    player = game.current_player
    assert player is not None  # a decision is made in a game being played
    val = (TripleValuation if columns > 1 else ExactValuation)(game, None)
    val.turn_start(game)
    dice = tuple(game.dice)
    holds, boxes = _options(val, game, dice, game.rolls_left)
    best, top = _Walk.best(holds, boxes)
    value = boxes[chosen] if isinstance(chosen, str) else holds[chosen]
    if top - value < NOISE:
        best = chosen  # as the analysis does: a tie with the best is the best
    points = {slot.name(columns): n for slot, n in game.potential_scores().items()}
    return DecisionOptions(seq, player, kind, dice, game.rolls_left, chosen, best, top,
                           holds, boxes, points)
