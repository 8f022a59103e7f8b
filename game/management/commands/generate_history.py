"""Fill the database with a made-up history of reviewed games, for looking at the profiles and
the leaderboards and for timing pages over a large history (docs/benchmarks.md).

    python manage.py generate_history --players 10000 --games 100000 --seed 1

Each generated game is a finished room and game of two to four seats (people, sometimes a
computer player), with its whole event log, its final state (``Game.snapshot``) and a stored
review summary, dated over the last ``DAYS`` days. The logs are real games: every seat's turns
are those of a solitaire game a computer player (easy or medium) played with the rules engine,
the seats' turns interleaved as the engine takes them; a game's log folds
(``rules.Game.from_events``) into its stored totals and snapshot, so its replay, its admin page,
its dice count and ``manage.py analyse`` read it as any game. The review summary is drawn from
the shape of real ones: each seat's Σ loss from the player's hidden strength (the rating
benchmark's: 0 for the optimal bot to ~95 points for a weak player), a final score near
expected start + Σ luck − Σ loss with Σ luck spread like real dice (sd ≈ 55 points), and
Σ luck then set so that the review's chain holds for the final of the solitaire game chosen.
Reviews have no per-decision rows. Some players play far more than others (activity spread
log-normally). Players already in the database take part alongside the new ones.

Rows are written in batches (``bulk_create``), then every game is recorded as a real game's end
records it (``services.record_game``), in the order the games finished.
"""

from __future__ import annotations

import bisect
import itertools
import json
import random
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from functools import cache
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connection, models, transaction
from django.utils import timezone

from game.ai.bots import choose_action
from game.ai.review import GRADES, VERSION
from game.models import Game, GameAnalysis, GameEvent, Player, Room, Seat
from game.rules import (
    BonusAwarded,
    Event,
    GameFinished,
    GameStarted,
    Rolled,
    Scored,
    TurnStarted,
)
from game.rules import Game as RulesGame
from game.services import record_games
from game.services.games import insert_events_sql

#: Expected final score of optimal play from an empty card (the review's ``expected_start``).
EXPECTED_START = {"yahtzee": 254.59, "yatzy": 248.63, "triple": 1537.2}
LUCK_SD = {"yahtzee": 55.0, "yatzy": 50.0, "triple": 200.0}
BOT_LOSS = {"optimal": 0.0, "medium": 20.3, "easy": 36.5}
RULES_WEIGHTS = {"yahtzee": 0.7, "yatzy": 0.2, "triple": 0.1}
#: Solitaire games played per ruleset, whose turns make up the generated logs, at most; a
#: smaller history plays one for every ``GAMES_PER_CARD`` games of the ruleset (at least
#: ``MIN_CARDS``): every seat takes one of the three nearest its target final, so a few dozen
#: cards already spread the finals, and playing them is most of a small history's time.
CARDS = {"yahtzee": 400, "yatzy": 200, "triple": 40}
GAMES_PER_CARD = 4
MIN_CARDS = 4
NAMES = ("Ann", "Bea", "Cy", "Dot", "Ed", "Flo", "Gus", "Hal", "Ivy", "Jo", "Kai", "Lou",
         "Mo", "Nia", "Oz", "Pia", "Quin", "Rae", "Sam", "Tia", "Uma", "Vic", "Wes", "Xia")
DAYS = 120
BATCH = 500
#: Seconds a turn takes, roughly (the events of a game are dated along it).
TURN_SECONDS = 20


@dataclass(frozen=True, eq=False)  # hashed as itself: a key of the caches below
class Card:
    """One solitaire game: its turns' events (player 0; no ``turn_started``), its final."""

    final: int
    turns: tuple[tuple[Event, ...], ...]
    #: The decisions the review would grade (every roll kept or not, every box chosen).
    decisions: int


def play_cards(rules: str, count: int, rng: random.Random) -> list[Card]:
    """``count`` solitaire games of ``rules`` played by the easy and the medium bots, by final."""
    cards = []
    for i in range(count):
        game = RulesGame(rules, ["Solo"], rng=random.Random(rng.getrandbits(64)))
        level = ("easy", "medium")[i % 2]
        while not game.is_over:
            game.play(choose_action(game, level))
        turns: list[list[Event]] = []
        for event in game.events:
            if isinstance(event, TurnStarted):
                turns.append([])
            elif isinstance(event, Rolled | Scored | BonusAwarded):
                turns[-1].append(event)
        decisions = sum(isinstance(e, Rolled) and e.roll > 1 or isinstance(e, Scored)
                        for e in game.events)
        cards.append(Card(game.scorecards[0].total, tuple(map(tuple, turns)), decisions))
    return sorted(cards, key=lambda c: c.final)


def game_log(rules: str, names: list[str], cards: list[Card]) -> list[Event]:
    """The events of a game whose seat i plays the turns of ``cards[i]``: turn by turn, as the
    rules engine takes them."""
    events: list[Event] = [GameStarted(rules, tuple(names))]
    seats = [_as_seat(card, player) for player, card in enumerate(cards)]
    for number, turns in enumerate(zip(*seats, strict=True), start=1):
        for player, turn in enumerate(turns):
            events.append(TurnStarted(player=player, round=number))
            events += turn
    totals = tuple(c.final for c in cards)
    best = max(totals)
    events.append(GameFinished(totals, tuple(i for i, t in enumerate(totals) if t == best)))
    return events


@cache
def _as_seat(card: Card, player: int) -> tuple[tuple[Event, ...], ...]:
    """The card's turns played by seat ``player`` (kept: the same cards make every game)."""
    return tuple(tuple(replace(e, player=player) for e in turn)  # type: ignore[call-arg]
                 for turn in card.turns)


@cache
def _payload(event: Event) -> str:
    """The stored payload of an event (its dict without the kind), as JSON."""
    data = event.to_dict()
    del data["kind"]
    return json.dumps(data)


@contextmanager
def dated_as_given(*kinds: type[models.Model]) -> Iterator[None]:
    """Rows of these models keep the creation and change times set on them (a history is dated
    in the past): their ``auto_now`` and ``auto_now_add`` fields are off meanwhile."""
    fields = [f for kind in kinds for f in kind._meta.concrete_fields
              if getattr(f, "auto_now", False) or getattr(f, "auto_now_add", False)]
    saved = [(f, f.auto_now, f.auto_now_add) for f in fields]
    for f in fields:
        f.auto_now = f.auto_now_add = False
    try:
        yield
    finally:
        for f, now, now_add in saved:
            f.auto_now, f.auto_now_add = now, now_add


class Command(BaseCommand):
    help = "Generate players and reviewed finished games, with their event logs, for timing."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--players", type=int, default=50)
        parser.add_argument("--games", type=int, default=1000)
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument(
            "--logs-every", type=int, default=1, metavar="N",
            help="store the event log of one game in N (default: every game's); the others "
                 "keep their final state and review only, as games from before the event log")
        parser.add_argument(
            "--include", action="append", default=[], metavar="PUBLIC_ID",
            help="play the games among the new players and these (repeatable); "
                 "without it, among every player in the database")

    def handle(self, *args: Any, **options: Any) -> None:
        players, games = options["players"], options["games"]
        if not 0 <= players <= 100_000 or not 1 <= games <= 1_000_000:
            raise CommandError("Choose 0 to 100000 players and 1 to 1000000 games.")
        if not 1 <= options["logs_every"] <= 1000:
            raise CommandError("--logs-every takes 1 to 1000.")
        wanted = set(options["include"])
        if Player.objects.filter(public_id__in=wanted).count() != len(wanted):
            raise CommandError("No player has one of the public ids given to --include.")
        rng = random.Random(options["seed"])
        now = timezone.now()
        with transaction.atomic(), dated_as_given(Player):
            made = [Player(name=f"{rng.choice(NAMES)}{rng.randrange(100)}",
                           created=now - timedelta(days=DAYS + 1)) for _ in range(players)]
            Player.objects.bulk_create(made, batch_size=BATCH)
        if options["include"]:
            pool = list(Player.objects.filter(
                public_id__in=wanted | {p.public_id for p in made}))
        else:
            pool = list(Player.objects.all())
        if len(pool) < 2:
            raise CommandError("Two players at least are needed.")
        # Each player's mean Σ loss a game (most between a good and a weak player), and how
        # often they play (a few play every day, most now and then).
        strength = {p.pk: rng.triangular(3.0, 95.0, 30.0) for p in pool}
        # Players named by --include are among the regulars: their history is the one looked at.
        often = sorted((rng.lognormvariate(0.0, 1.2) for _ in pool), reverse=True)
        pool.sort(key=lambda p: p.public_id not in wanted)
        activity = list(itertools.accumulate(often))
        self.stdout.write("Playing the solitaire games the logs are made of…")
        decks = {rules: play_cards(rules, min(count, max(
                     MIN_CARDS, round(games * RULES_WEIGHTS[rules] / GAMES_PER_CARD))), rng)
                 for rules, count in CARDS.items()}
        finals = {rules: [c.final for c in deck] for rules, deck in decks.items()}
        ends = sorted(now - timedelta(days=DAYS * rng.random()) for _ in range(games))
        events = 0
        for batch in range(0, games, BATCH):
            plans = [self._plan(rng, pool, activity, strength, decks, finals, end)
                     for end in ends[batch:batch + BATCH]]
            for n, plan in enumerate(plans, start=batch):
                plan.logged = n % options["logs_every"] == 0
            events += self._store(plans)
            record_games([p.game_id for p in plans])
            self.stdout.write(f"{min(batch + BATCH, games)} games, {events} events")
        self.stdout.write(f"Generated {len(made)} players and {games} reviewed games "
                          f"({events} events).")

    def _plan(self, rng: random.Random, pool: list[Player], activity: list[float],
              strength: dict[int, float], decks: dict[str, list[Card]],
              finals: dict[str, list[int]], finished: datetime) -> _Plan:
        rules = rng.choices(list(RULES_WEIGHTS), weights=list(RULES_WEIGHTS.values()))[0]
        bot = rng.choice(list(BOT_LOSS)) if rng.random() < 0.3 else None
        count = min(rng.choice((1, 1, 2, 3)) if bot else rng.choice((2, 2, 2, 3, 4)), len(pool))
        people: list[Player] = []
        while len(people) < count:
            person = rng.choices(pool, cum_weights=activity)[0]
            if person not in people:
                people.append(person)
        seats: list[Player | str] = [*people, *([bot] if bot else [])]
        start, scale = EXPECTED_START[rules], EXPECTED_START[rules] / EXPECTED_START["yahtzee"]
        cards, losses = [], []
        for seat in seats:
            mean_loss = (BOT_LOSS[seat] if isinstance(seat, str) else strength[seat.pk]) * scale
            loss = max(0.0, rng.gauss(mean_loss, mean_loss / 3 + 1))
            target = start + rng.gauss(0.0, LUCK_SD[rules]) - loss
            # One of the three solitaire games whose final is nearest the target.
            at = bisect.bisect_left(finals[rules], target)
            low = max(0, min(at - 1, len(finals[rules]) - 3))
            cards.append(decks[rules][rng.randrange(low, min(low + 3, len(finals[rules])))])
            losses.append(loss)
        names = [f"Bot 1 ({s})" if isinstance(s, str) else s.name or f"Player {s.pk}"
                 for s in seats]
        return _Plan(rules, seats, names, cards, losses, finished, rng.getrandbits(32))

    def _store(self, plans: list[_Plan]) -> int:
        """The plans' rooms, seats, games, event logs and reviews, in one transaction; the
        number of events."""
        with transaction.atomic(), dated_as_given(Room, Game, GameAnalysis):
            rooms = Room.objects.bulk_create([
                Room(name="Generated table", rules=p.rules, seats_count=len(p.seats),
                     status=Room.Status.FINISHED, created=p.started, updated=p.finished)
                for p in plans])
            Seat.objects.bulk_create([
                Seat(room=room, index=i, kind=Seat.Kind.BOT if isinstance(s, str) else
                     Seat.Kind.HUMAN, bot_level=s if isinstance(s, str) else "",
                     nickname=p.names[i], player=None if isinstance(s, str) else s,
                     guest_key="" if isinstance(s, str) else f"generated-{s.pk}")
                for room, p in zip(rooms, plans, strict=True) for i, s in enumerate(p.seats)],
                batch_size=BATCH)
            logs = [game_log(p.rules, p.names, p.cards) for p in plans]
            games = []
            for room, p, log in zip(rooms, plans, logs, strict=True):
                final = RulesGame.from_events(log)
                games.append(Game(
                    room=room, rules=p.rules, status=Game.Status.FINISHED, players=p.names,
                    player_names=", ".join(p.names), seq=len(log) if p.logged else 0,
                    snapshot=final.to_dict(),
                    totals=[c.total for c in final.scorecards], winners=list(final.winners),
                    created=p.started, finished=p.finished))
            Game.objects.bulk_create(games, batch_size=BATCH)
            # Millions of rows: written as the services write a move's events (one prepared
            # INSERT), without a model instance each.
            rows = [row for game, p, log in zip(games, plans, logs, strict=True)
                    if p.logged for row in _event_rows(game.pk, p, log)]
            with connection.cursor() as cursor:
                cursor.executemany(insert_events_sql(connection.vendor, 1), rows)
            GameAnalysis.objects.bulk_create([
                GameAnalysis(game=game, version=VERSION, created=p.finished,
                             data=p.review(game.totals))
                for game, p in zip(games, plans, strict=True)], batch_size=BATCH)
        for game, p in zip(games, plans, strict=True):
            p.game_id = game.pk
        return len(rows)


def _event_rows(game_id: int, plan: _Plan, log: list[Event]) -> Iterator[list[Any]]:
    """The stored events of ``log`` (the columns of ``insert_events_sql``), each turn's dated
    along the game, each said made by whoever's command made it (a move's events and the next
    turn's start: its player's)."""
    span, steps = plan.finished - plan.started, max(1, len(log) - 1)
    seat: int | None = None
    by = [str(GameEvent.By.BOT) if isinstance(s, str) else str(GameEvent.By.HUMAN)
          for s in plan.seats]
    when = connection.ops.adapt_datetimefield_value(plan.started)
    for seq, event in enumerate(log, start=1):
        if isinstance(event, Rolled | Scored | BonusAwarded):
            seat = event.player
        elif isinstance(event, TurnStarted | GameFinished):  # a turn's events share its time
            when = connection.ops.adapt_datetimefield_value(plan.started + span * (seq - 1) / steps)
        yield [game_id, seq, event.kind, _payload(event), when,
               str(GameEvent.By.SYSTEM) if seat is None else by[seat], seat, ""]


@dataclass
class _Plan:
    """One game to generate: its seats, the solitaire game each plays, each one's Σ loss."""

    rules: str
    seats: list[Player | str]
    names: list[str]
    cards: list[Card]
    losses: list[float]
    finished: datetime
    #: Seeds the spread of the review's grades.
    seed: int
    #: The game's event log is stored (``--logs-every``).
    logged: bool = True
    game_id: int = 0

    @property
    def started(self) -> datetime:
        return self.finished - timedelta(seconds=TURN_SECONDS * len(self.cards[0].turns)
                                         * len(self.seats))

    def review(self, totals: list[int]) -> dict[str, Any]:
        start = EXPECTED_START[self.rules]
        rng = random.Random(self.seed)
        players = [_summary(rng, self.names[i], final, final - start + loss, loss, start,
                            card.decisions)
                   for i, (final, loss, card) in enumerate(
                       zip(totals, self.losses, self.cards, strict=True))]
        n = len(totals)
        if n > 1 and self.rules in ("yahtzee", "yatzy"):
            # The real review's chance chain, made to order: of each outcome's distance from
            # the even start, the dice's part (most of it, as in real games) is the luck.
            best = max(totals)
            winners = [i for i, t in enumerate(totals) if t == best]
            for i, summary in enumerate(players):
                outcome = 1 / len(winners) if i in winners else 0.0
                summary["chance"] = {"luck": round((outcome - 1 / n) * rng.uniform(0.5, 1), 6)}
        return {"version": VERSION, "rules": self.rules, "valuation": "exact", "finished": True,
                "players": players,
                "decisions": [], "rolls": [], "series": [], "chances": []}


def _summary(rng: random.Random, name: str, final: int, luck: float, loss: float,
             start: float, decisions: int) -> dict[str, Any]:
    """A review's player summary: the loss spread over decisions as real games spread it
    (most decisions best, a few costly ones)."""
    grades = dict.fromkeys(GRADES, 0)
    left = loss
    for _ in range(decisions):
        if left > 5 and rng.random() < 0.25:
            cost = rng.uniform(5, min(left, 20))
            grades["blunder"] += 1
        elif left > 1 and rng.random() < 0.3:
            cost = rng.uniform(1, min(left, 5))
            grades["mistake"] += 1
        elif left > 0.01 and rng.random() < 0.3:
            cost = rng.uniform(0.01, min(left, 1))
            grades["inaccuracy"] += 1
        else:
            cost = 0.0
            grades["best" if rng.random() < 0.85 else "good"] += 1
        left -= cost
    return {"name": name, "final": final, "luck": round(luck, 6), "loss": round(loss, 6),
            "decisions": decisions, "mean_loss": round(loss / decisions, 6),
            "grades": grades, "autoplay_decisions": 0, "autoplay_loss": 0.0,
            "expected_start": start, "drift": 0.0, "expected": final}
