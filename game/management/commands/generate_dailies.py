"""Fill today's daily challenge with made-up finished attempts, for looking at its pages and
timing them (benchmarks/daily_scale.py, docs/benchmarks.md).

    python manage.py generate_dailies --players 10000 --rules yahtzee --seed 1

Each attempt is a new player (an account for ``--accounts`` of them, a guest otherwise) with
its room, seat and finished game (no event log: its page shows no replay) and its attempt,
finished within the last ``--within`` minutes, its score drawn like real ones on a shared tape
(expected start + the day's luck + a little of each player's own − Σ loss by the player's
hidden strength) and its loss and turn grades like a review's. Bulk inserts, in batches.
"""

from __future__ import annotations

import random
from datetime import timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction
from django.utils import timezone

from game.ai.review import GRADES
from game.domain.clock import utc_today
from game.models import DailyAttempt, Game, Player, Room, Seat
from game.services.daily import DAILY_RULES, challenge

from .generate_history import EXPECTED_START, NAMES

#: A solo game's graded decisions, typically (13 boxes, about two kept rolls a turn).
DECISIONS = 38

BATCH = 1000
#: Turns of each daily ruleset (its boxes).
TURNS = {"yahtzee": 13, "yatzy": 15}


class Command(BaseCommand):
    help = "Generate finished attempts at today's daily challenge (no event logs)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--players", type=int, default=100)
        parser.add_argument("--rules", choices=DAILY_RULES, default="yahtzee")
        parser.add_argument("--accounts", type=float, default=0.8,
                            help="the share of players with an account (default 0.8)")
        parser.add_argument("--within", type=int, default=60,
                            help="minutes in which they finished (default 60)")
        parser.add_argument("--seed", type=int, default=1)

    def handle(self, *args: Any, **options: Any) -> None:
        count = options["players"]
        if not 1 <= count <= 100_000 or not 0 <= options["accounts"] <= 1:
            raise CommandError("Choose 1 to 100000 players and an account share of 0 to 1.")
        rules = options["rules"]
        rng = random.Random(options["seed"])
        day = challenge(utc_today(), rules)
        day_luck = rng.gauss(0.0, 40.0)  # the tape: easy or hard for everyone alike
        now = timezone.now()
        for start in range(0, count, BATCH):
            n = min(BATCH, count - start)
            with transaction.atomic():
                self._batch(rng, rules, day, day_luck, now, n, options)
            self.stdout.write(f"{start + n} attempts")
        self.stdout.write(f"Generated {count} attempts at {day}.")

    def _batch(self, rng: random.Random, rules: str, day: Any, day_luck: float, now: Any,
               n: int, options: dict[str, Any]) -> None:
        tag = f"{rng.getrandbits(48):012x}"
        accounts = [rng.random() < options["accounts"] for _ in range(n)]
        users = get_user_model().objects.bulk_create([
            get_user_model()(username=f"daily-{tag}-{i}", password="!")
            for i, account in enumerate(accounts) if account])
        made = iter(users)
        players = Player.objects.bulk_create([
            Player(name=f"{rng.choice(NAMES)}{rng.randrange(1000)}",
                   user=next(made) if account else None) for account in accounts])
        rooms = Room.objects.bulk_create([
            Room(name=f"Daily {rules}", rules=rules, seats_count=1, daily=day,
                 status=Room.Status.FINISHED, chances=Room.Chances.OFF) for _ in players])
        Seat.objects.bulk_create([
            Seat(room=room, index=0, nickname=p.name, player=p, guest_key=f"generated-{p.pk}")
            for room, p in zip(rooms, players, strict=True)])
        rows = []
        for _ in players:
            loss = max(0.0, rng.gauss(rng.triangular(3.0, 95.0, 30.0), 8.0))
            final = max(40, round(EXPECTED_START[rules] + day_luck + rng.gauss(0, 25) - loss))
            finished = now - timedelta(seconds=rng.uniform(0, options["within"] * 60))
            rows.append((final, loss, finished))
        games = Game.objects.bulk_create([
            Game(room=room, rules=rules, status=Game.Status.FINISHED, players=[p.name],
                 player_names=p.name, totals=[final], winners=[0], finished=finished,
                 commitment=day.commitment, daily=day)
            for room, p, (final, _, finished) in zip(rooms, players, rows, strict=True)])
        DailyAttempt.objects.bulk_create([
            DailyAttempt(challenge=day, player=p, room=room, game=game, account=account,
                         final=final, finished=finished, decisions=DECISIONS, loss=round(loss, 3),
                         turn_grades=self._grades(rng, loss, TURNS[rules]))
            for p, room, game, account, (final, loss, finished)
            in zip(players, rooms, games, accounts, rows, strict=True)])

    @staticmethod
    def _grades(rng: random.Random, loss: float, turns: int) -> list[str]:
        """A grade a turn: costly turns as many as the loss allows (about 5 points each)."""
        costly = min(turns, round(loss / 5))
        grades = [rng.choice(GRADES[2:]) for _ in range(costly)]
        grades += [rng.choice(GRADES[:2]) for _ in range(turns - costly)]
        rng.shuffle(grades)
        return grades
