"""Fill the database with a made-up history of reviewed games, for looking at the profiles and
the leaderboards and for timing their pages (docs/benchmarks.md).

    python manage.py generate_history --players 200 --games 5000 --seed 1

Each generated game is a finished room and game of two to four seats (people, sometimes a
computer player) with final scores and a stored review summary drawn from the shape of real
ones: final = expected start + Σ luck − Σ loss, Σ luck spread like real dice (sd ≈ 55 points),
Σ loss set by each player's hidden strength (the benchmark's: 0 for the optimal bot to ~95 for
a weak player). Games have no event log (their pages show no replay) and their reviews no
per-decision rows. Players already in the database take part alongside the new ones. Every
game is then recorded as a real game's end records it (``services.record_game``).
"""

from __future__ import annotations

import random
from datetime import timedelta
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction
from django.utils import timezone

from game.ai.review import GRADES, VERSION
from game.models import Game, GameAnalysis, Player, Room, Seat
from game.services import record_game

#: Expected final score of optimal play from an empty card (the review's ``expected_start``).
EXPECTED_START = {"yahtzee": 254.59, "yatzy": 248.63, "triple": 700.0}
LUCK_SD = {"yahtzee": 55.0, "yatzy": 50.0, "triple": 110.0}
BOT_LOSS = {"optimal": 0.0, "medium": 20.3, "easy": 36.5}
RULES_WEIGHTS = {"yahtzee": 0.7, "yatzy": 0.2, "triple": 0.1}
DECISIONS = 38
NAMES = ("Ann", "Bea", "Cy", "Dot", "Ed", "Flo", "Gus", "Hal", "Ivy", "Jo", "Kai", "Lou",
         "Mo", "Nia", "Oz", "Pia", "Quin", "Rae", "Sam", "Tia", "Uma", "Vic", "Wes", "Xia")
DAYS = 120
BATCH = 500


class Command(BaseCommand):
    help = "Generate players and reviewed finished games (no event logs) for looking and timing."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--players", type=int, default=50)
        parser.add_argument("--games", type=int, default=1000)
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument(
            "--include", action="append", default=[], metavar="PUBLIC_ID",
            help="play the games among the new players and these (repeatable); "
                 "without it, among every player in the database")

    def handle(self, *args: Any, **options: Any) -> None:
        players, games = options["players"], options["games"]
        if not 0 <= players <= 100_000 or not 1 <= games <= 1_000_000:
            raise CommandError("Choose 0 to 100000 players and 1 to 1000000 games.")
        wanted = set(options["include"])
        if Player.objects.filter(public_id__in=wanted).count() != len(wanted):
            raise CommandError("No player has one of the public ids given to --include.")
        rng = random.Random(options["seed"])
        with transaction.atomic():
            made = [Player(name=f"{rng.choice(NAMES)}{rng.randrange(100)}")
                    for _ in range(players)]
            Player.objects.bulk_create(made)
        if options["include"]:
            pool = list(Player.objects.filter(
                public_id__in=wanted | {p.public_id for p in made}))
        else:
            pool = list(Player.objects.all())
        if len(pool) < 2:
            raise CommandError("Two players at least are needed.")
        # Each player's mean Σ loss a game: most are between a good and a weak player.
        strength = {p.pk: rng.triangular(3.0, 95.0, 30.0) for p in pool}
        now = timezone.now()
        starts = sorted(now - timedelta(days=DAYS * rng.random()) for _ in range(games))
        for batch in range(0, games, BATCH):
            with transaction.atomic():  # one commit per batch: SQLite syncs at each
                for when in starts[batch:batch + BATCH]:
                    self._one_game(rng, pool, strength, when)
            self.stdout.write(f"{min(batch + BATCH, games)} games")
        self.stdout.write(f"Generated {len(made)} players and {games} reviewed games.")

    def _one_game(self, rng: random.Random, pool: list[Player], strength: dict[int, float],
                  finished: Any) -> None:
        rules = rng.choices(list(RULES_WEIGHTS), weights=list(RULES_WEIGHTS.values()))[0]
        bot = rng.choice(list(BOT_LOSS)) if rng.random() < 0.3 else None
        count = rng.choice((1, 1, 2, 3)) if bot else rng.choice((2, 2, 2, 3, 4))
        people = rng.sample(pool, min(count, len(pool)))
        seats: list[Player | str] = [*people, *([bot] if bot else [])]
        rows = []
        for seat in seats:
            mean_loss = BOT_LOSS[seat] if isinstance(seat, str) else strength[seat.pk]
            loss = max(0.0, rng.gauss(mean_loss, mean_loss / 3 + 1))
            luck = rng.gauss(0.0, LUCK_SD[rules])
            final = max(40, round(EXPECTED_START[rules] + luck - loss))
            rows.append((seat, final, final - EXPECTED_START[rules] + loss, loss))
        totals = [final for _, final, _, _ in rows]
        names = [f"Bot 1 ({s})" if isinstance(s, str) else s.name for s in seats]
        with transaction.atomic():
            room = Room.objects.create(name="Generated table", rules=rules,
                                       seats_count=len(seats), status=Room.Status.FINISHED)
            Seat.objects.bulk_create([
                Seat(room=room, index=i, kind=Seat.Kind.BOT if isinstance(s, str) else
                     Seat.Kind.HUMAN, bot_level=s if isinstance(s, str) else "",
                     nickname=names[i], player=None if isinstance(s, str) else s,
                     guest_key="" if isinstance(s, str) else f"generated-{s.pk}")
                for i, s in enumerate(seats)])
            best = max(totals)
            game = Game.objects.create(
                room=room, rules=rules, status=Game.Status.FINISHED, players=names,
                player_names=", ".join(names), totals=totals,
                winners=[i for i, t in enumerate(totals) if t == best], finished=finished)
            GameAnalysis.objects.create(game=game, version=VERSION, data={
                "version": VERSION, "rules": rules, "valuation": "exact", "finished": True,
                "players": [self._summary(rng, names[i], final, luck, loss, EXPECTED_START[rules])
                            for i, (_, final, luck, loss) in enumerate(rows)],
                "decisions": [], "rolls": [], "series": [], "chances": []})
        record_game(game.pk)

    @staticmethod
    def _summary(rng: random.Random, name: str, final: int, luck: float, loss: float,
                 start: float) -> dict[str, Any]:
        """A review's player summary: the loss spread over decisions as real games spread it
        (most decisions best, a few costly ones)."""
        grades = dict.fromkeys(GRADES, 0)
        left = loss
        for _ in range(DECISIONS):
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
                "decisions": DECISIONS, "mean_loss": round(loss / DECISIONS, 6),
                "grades": grades, "autoplay_decisions": 0, "autoplay_loss": 0.0,
                "expected_start": start, "drift": 0.0, "expected": final}
