"""Compute and store the review of finished games (``GameAnalysis``), e.g. when its format
changes.

    python manage.py analyse --game 12            # one game; a line per player
    python manage.py analyse --game 12 --json     # ... and print its analysis as one object
    python manage.py analyse --all                # every finished game, with a progress bar
"""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandParser
from tqdm import tqdm

from game.models import Game
from game.services.errors import ServiceError
from game.services.review import analyse_game

from .advise import OneLineErrors, bad


class Command(OneLineErrors, BaseCommand):
    help = "Analyse finished games (luck and loss of every roll and decision) and store it."

    def add_arguments(self, parser: CommandParser) -> None:
        which = parser.add_mutually_exclusive_group(required=True)
        which.add_argument("--game", type=int, metavar="ID", help="one finished game")
        which.add_argument("--all", action="store_true", help="every finished game")
        parser.add_argument("--json", action="store_true",
                            help="with --game: print the analysis as one JSON object")
        parser.add_argument("--no-progress", action="store_true", help="no progress bar")

    def handle(self, *args: Any, **opts: Any) -> None:
        if opts["all"]:
            if opts["json"]:
                raise bad("--json needs --game.")
            ids = list(Game.objects.filter(status=Game.Status.FINISHED)
                       .order_by("id").values_list("id", flat=True))
            for game_id in tqdm(ids, desc="analyse", unit="game", disable=opts["no_progress"],
                                file=self.stderr._out):
                analyse_game(game_id)
            self.stdout.write(f"Analysed {len(ids)} finished games.")
            return
        try:
            data = analyse_game(opts["game"]).data
        except ServiceError as e:
            raise bad(e.message) from None
        if opts["json"]:
            self.stdout.write(json.dumps(data))
            return
        for p in data["players"]:
            drift = f" + {p['drift']:.2f} drift" if data["rules"] == "triple" else ""
            self.stdout.write(
                f"{p['name']}: {p['final']} = {p['expected_start']:.2f} expected "
                f"{p['luck']:+.2f} luck − {p['loss']:.2f} loss{drift}; {p['decisions']} "
                f"decisions, mean loss {p['mean_loss']:.3f}, " + ", ".join(
                    f"{n} {g}" for g, n in p["grades"].items() if n))
