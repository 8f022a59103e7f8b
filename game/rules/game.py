"""A game of 1–6 players: turn order, rolls, scoring, the end, the winners.

Commands (:meth:`Game.roll`, :meth:`Game.score`) validate an intention, then record what
happened as events and fold them into the state with :meth:`Game.apply` — the only method
that changes a game. ``Game.from_events(game.events)`` therefore equals ``game``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, cast

from .actions import Action, Roll, Score
from .dice import Dice, RandomSource, roll_dice, system_random, validate_hold
from .errors import (
    GameOver,
    InvalidEvent,
    InvalidPlayers,
    NoRollsLeft,
    NotRolledYet,
    NotYourTurn,
    gettext_noop,
)
from .events import (
    BonusAwarded,
    Event,
    GameFinished,
    GameStarted,
    Rolled,
    Scored,
    TurnStarted,
)
from .fairness import DailyDice, FairDice
from .rulesets import Ruleset, get_ruleset
from .scorecard import Scorecard, Slot

ROLLS_PER_TURN = 3
MAX_PLAYERS = 6
MAX_NAME_LENGTH = 40


class Game:
    def __init__(
        self,
        rules: str | Ruleset,
        players: Sequence[str],
        *,
        rng: RandomSource | FairDice | DailyDice | None = None,
    ) -> None:
        """Start a new game: ``players`` take turns in the order given. With ``FairDice``
        the game's dice come from its seeds (``fairness``), one client seed per player; with
        ``DailyDice`` it is one player's game of a daily challenge, rolled from the day's tape."""
        ruleset = get_ruleset(rules)
        names = tuple(players)
        if not 1 <= len(names) <= MAX_PLAYERS:
            raise InvalidPlayers(gettext_noop("A game needs 1 to %(max)d players, not %(count)d."),
                                 {"max": MAX_PLAYERS, "count": len(names)})
        if not all(isinstance(n, str) and 0 < len(n) <= MAX_NAME_LENGTH for n in names):
            raise InvalidPlayers(gettext_noop("Player names must be 1 to %(max)d characters."),
                                 {"max": MAX_NAME_LENGTH})
        self._blank(rng)
        if isinstance(rng, FairDice):
            if len(rng.client_seeds) != len(names):
                raise InvalidPlayers(gettext_noop("Fair dice need one client seed per player."))
            self._record(GameStarted(ruleset.name, names, rng.commitment, rng.client_seeds))
        elif isinstance(rng, DailyDice):
            if len(names) != 1 or rng.ruleset != ruleset.name:
                raise InvalidPlayers(gettext_noop("A daily challenge is a solo game of %(rules)s."),
                                     {"rules": rng.ruleset})
            self._record(GameStarted(ruleset.name, names, rng.commitment, daily=rng.day))
        else:
            self._record(GameStarted(ruleset.name, names))
        self._record(TurnStarted(player=0, round=1))

    @classmethod
    def from_events(cls, events: Iterable[Event], *,
                    rng: RandomSource | FairDice | DailyDice | None = None) -> Game:
        """Rebuild a game from its history (the first event must be ``game_started``)."""
        game = cls.__new__(cls)
        game._blank(rng)
        for event in events:
            game.apply(event)
        if game.ruleset is None:
            raise InvalidEvent(gettext_noop("A game’s history starts with a game_started event."))
        return game

    def _blank(self, rng: RandomSource | FairDice | DailyDice | None) -> None:
        self.rng: RandomSource | FairDice | DailyDice = (
            rng if rng is not None else system_random())
        self.events: list[Event] = []
        self.ruleset: Ruleset = None  # type: ignore[assignment]  # None until game_started
        self.players: tuple[str, ...] = ()
        self.scorecards: list[Scorecard] = []
        self.current_player: int | None = None
        self.round = 0
        self.dice: Dice | None = None
        self.rolls_used = 0
        self.winners: tuple[int, ...] = ()
        self.is_over = False
        #: Rolls of the whole game so far: roll k of fair dice is number rolls_total + 1.
        self.rolls_total = 0
        self.commitment = ""
        self.client_seeds: tuple[str, ...] = ()
        #: The server seed once ``game_finished`` revealed it ("" before; always "" for a
        #: daily game, whose seed is revealed when its day ends).
        self.server_seed = ""
        #: The day of a daily challenge's game ("" for any other game).
        self.daily = ""
        self.unfinished = False

    # --- what a player may do ------------------------------------------------------------

    @property
    def rolls_left(self) -> int:
        return ROLLS_PER_TURN - self.rolls_used

    @property
    def scorecard(self) -> Scorecard:
        """The scorecard of the player whose turn it is."""
        return self.scorecards[self._check_turn(None)]

    def legal_slots(self) -> list[Slot]:
        """Where the current dice may be scored (none before the first roll)."""
        if self.is_over or self.dice is None:
            return []
        return self.scorecard.legal_slots(self.dice)

    def potential_scores(self) -> dict[Slot, int]:
        """What the current dice would score in each legal box."""
        if self.is_over or self.dice is None:
            return {}
        return {s: self.scorecard.score_for(self.dice, *s) for s in self.legal_slots()}

    # --- commands ------------------------------------------------------------------------

    def roll(self, hold: Iterable[int] = (), *, player: int | None = None) -> list[Event]:
        """Roll all dice, or re-roll those whose positions (0–4) are not in ``hold``."""
        me = self._check_turn(player)
        held = validate_hold(hold)
        if self.rolls_left == 0:
            raise NoRollsLeft(gettext_noop("No rolls left: choose a box to score this roll."))
        dice = roll_dice(self._roll_source(), self.dice, held)
        return [self._record(Rolled(me, dice, tuple(sorted(held)), self.rolls_used + 1))]

    def _roll_source(self) -> RandomSource:
        """Where the next roll's dice come from: a daily tape by the turn and the roll of the
        turn, fair dice by the roll's number in the game."""
        rng = self.rng
        if self.daily or isinstance(rng, DailyDice):
            # a daily game rebuilt without its own tape must not roll any other dice
            if not isinstance(rng, DailyDice) or (rng.commitment, rng.day, rng.ruleset) != (
                    self.commitment, self.daily, self.ruleset.name):
                raise InvalidEvent(gettext_noop("A daily game rolls from its own day’s tape only."))
            return rng.for_roll(self.round, self.rolls_used + 1)
        if isinstance(rng, FairDice):
            return rng.for_roll(self.rolls_total + 1)
        return rng

    def score(self, box: str, column: int = 0, *, player: int | None = None) -> list[Event]:
        """Score the current dice in ``box`` of ``column``; the turn passes on."""
        me = self._check_turn(player)
        card = self.scorecard
        self.ruleset.box(box)
        self.ruleset.check_column(column)
        if self.dice is None:
            raise NotRolledYet(gettext_noop("Roll the dice before choosing a box."))
        card.check_can_score(self.dice, box, column)

        dice = self.dice
        upper_before = card.upper_bonus_earned(column)
        points = card.score_for(dice, box, column)
        yahtzee_bonus = card.yahtzee_bonus_due(dice, column)
        events = [self._record(Scored(me, box, column, points, card.joker_applies(dice, column)))]
        if yahtzee_bonus:
            events.append(self._record(BonusAwarded(me, column, "yahtzee", yahtzee_bonus)))
        if card.upper_bonus_earned(column) and not upper_before:
            events.append(self._record(
                BonusAwarded(me, column, "upper", self.ruleset.upper_bonus)))
        if all(c.is_full for c in self.scorecards):
            totals = tuple(c.total for c in self.scorecards)
            best = max(totals)
            winners = tuple(i for i, t in enumerate(totals) if t == best)
            events.append(self._record(GameFinished(totals, winners, self._reveal())))
        else:
            nxt = (me + 1) % len(self.players)
            events.append(self._record(TurnStarted(nxt, self.round + (nxt == 0))))
        return events

    def end(self) -> list[Event]:
        """End the game now, unfinished (staff ending an abandoned game): no winner, the
        totals as they stand, and the server seed revealed like at a normal end."""
        self._check_not_over()
        totals = tuple(c.total for c in self.scorecards)
        return [self._record(GameFinished(totals, (), self._reveal(), unfinished=True))]

    def _reveal(self) -> str:
        """The server seed for ``game_finished``, if this game rolls fair dice (never a daily
        game's day seed: other players still roll from it until the day ends)."""
        if not isinstance(self.rng, FairDice) or not self.commitment:
            return ""
        if self.rng.commitment != self.commitment:
            raise InvalidEvent(
                gettext_noop("These fair dice are not the ones this game committed to."))
        return self.rng.reveal()

    def play(self, action: Action, *, player: int | None = None) -> list[Event]:
        """Apply a :class:`Roll` or a :class:`Score`."""
        if isinstance(action, Roll):
            return self.roll(action.hold, player=player)
        if isinstance(action, Score):
            return self.score(action.box, action.column, player=player)
        raise TypeError(f"Not an action: {action!r}")

    def _check_turn(self, player: int | None) -> int:
        """The player whose turn it is, once ``player`` (if given) is known to be that one."""
        self._check_not_over()
        me = self.current_player
        if me is None:  # a history that stops before its first turn
            raise NotYourTurn(gettext_noop("No turn has started yet."))
        if player is not None and player != me:
            raise NotYourTurn(gettext_noop("It is %(name)s’s turn, not yours."),
                              {"name": self.players[me]})
        return me

    def _check_not_over(self) -> None:
        if self.is_over:
            raise GameOver(gettext_noop("The game is over."))

    # --- the fold ------------------------------------------------------------------------

    def _record(self, event: Event) -> Event:
        self.apply(event)
        return event

    def apply(self, event: Event) -> None:
        """Fold one event into the state; the only place the state changes."""
        if self.ruleset is None and not isinstance(event, GameStarted):
            raise InvalidEvent(gettext_noop("A game’s history starts with a game_started event."))
        if isinstance(event, GameStarted):
            if self.ruleset is not None:
                raise InvalidEvent(gettext_noop("This game has already started."))
            self.ruleset = get_ruleset(event.rules)
            self.players = tuple(event.players)
            self.scorecards = [Scorecard(self.ruleset) for _ in self.players]
            self.commitment, self.client_seeds = event.commitment, tuple(event.client_seeds)
            self.daily = event.daily
        elif self.is_over:
            raise InvalidEvent(gettext_noop("No %(kind)s event can follow the end of the game."),
                               {"kind": event.kind})
        elif isinstance(event, TurnStarted):
            self.current_player, self.round = event.player, event.round
            self.dice, self.rolls_used = None, 0
        elif isinstance(event, Rolled):
            self._check_event_player(event.player)
            self.dice, self.rolls_used = cast(Dice, tuple(event.dice)), event.roll
            self.rolls_total += 1
        elif isinstance(event, Scored):
            self._check_event_player(event.player)
            self.scorecards[event.player].fill(event.box, event.column, event.points)
        elif isinstance(event, BonusAwarded):
            self.scorecards[event.player].add_bonus(event.bonus, event.column, event.points)
        elif isinstance(event, GameFinished):
            self.is_over, self.winners = True, tuple(event.winners)
            self.server_seed, self.unfinished = event.server_seed, event.unfinished
            self.current_player, self.dice = None, None
        else:
            raise InvalidEvent(gettext_noop("Unknown event %(event)s."), {"event": repr(event)})
        self.events.append(event)

    def _check_event_player(self, player: int) -> None:
        if player != self.current_player:
            raise InvalidEvent(
                gettext_noop("Event for player %(player)s during player %(current)s’s turn."),
                {"player": player, "current": self.current_player})

    # --- views of the state --------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """The whole state, JSON-friendly: what a client needs to draw the game."""
        return {
            "rules": self.ruleset.name,
            "players": list(self.players),
            "round": self.round,
            "rounds": len(self.ruleset.boxes) * self.ruleset.columns,
            "current_player": self.current_player,
            "dice": list(self.dice) if self.dice else None,
            "rolls_left": self.rolls_left if not self.is_over else 0,
            "scorecards": [c.to_dict() for c in self.scorecards],
            "options": self._options(),
            "finished": self.is_over,
            "winners": list(self.winners),
            "fairness": self._fairness(),
        }

    def _fairness(self) -> dict[str, Any] | None:
        """The dice's commitment and client seeds; the server seed only once revealed."""
        if not self.commitment:
            return None
        fairness = {"commitment": self.commitment, "client_seeds": list(self.client_seeds),
                    "server_seed": self.server_seed or None, "unfinished": self.unfinished}
        return {**fairness, "daily": self.daily} if self.daily else fairness

    def _options(self) -> list[dict[str, Any]]:
        """Every open box of the current player, with its score now and whether it is legal."""
        if self.is_over or self.dice is None:
            return []
        card, legal = self.scorecard, set(self.legal_slots())
        return [
            {"box": s.box, "column": s.column, "points": card.score_for(self.dice, *s),
             "allowed": s in legal}
            for s in card.open_slots()
        ]

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, Game) and self.events == other.events
                and self.to_dict() == other.to_dict())

    def __repr__(self) -> str:
        state = "over" if self.is_over else f"round {self.round}, player {self.current_player}"
        return f"<Game {self.ruleset.name} {list(self.players)} {state}>"
