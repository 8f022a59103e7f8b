"""Re-derive every roll of a finished game from its seeds and compare with the stored dice
(docs/fairness.md): exit status 0 when all match, 1 on any mismatch, 2 for a bad request.

    python manage.py verify_dice 12
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from game.domain.clock import utc_today
from game.models import Game
from game.rules import InvalidSeed, check_game

from .advise import OneLineErrors, bad


class Command(OneLineErrors, BaseCommand):
    help = "Check every roll of a finished game against its revealed server seed and the " \
           "players' seeds (a daily challenge's game: its day seed, once the day is over)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("game_id", type=int, metavar="GAME_ID")

    def handle(self, *args: Any, **opts: Any) -> None:
        game = Game.objects.filter(pk=opts["game_id"]).first()
        if game is None:
            raise bad(f"There is no game {opts['game_id']}.")
        if not game.commitment:
            raise bad(f"Game {game.pk} predates fair dice: it has no seeds to check.")
        if game.status != Game.Status.FINISHED:
            raise bad(f"Game {game.pk} is still running: its server seed is revealed when it "
                      "ends.")
        day_seed = None
        if game.daily_id:  # the day seed, revealed when the day is over (UTC)
            day_seed = game.daily.revealed_seed(utc_today()) or None
            if day_seed is None:
                raise bad(f"Game {game.pk} is a daily challenge of {game.daily.day}: its day "
                          "seed is revealed when that day is over (UTC).")
        events = [{"seq": seq, "kind": kind, **payload} for seq, kind, payload in
                  game.events.order_by("seq").values_list("seq", "kind", "payload")]
        try:
            check = check_game(events, day_seed)
        except InvalidSeed as exc:
            raise bad(f"Game {game.pk}: {exc.message}") from None
        out = self.stdout
        out.write(f"Game {game.pk}: commitment {check.commitment}")
        out.write(f"{'day seed' if check.daily else 'server seed'} {check.server_seed} "
                  f"({'matches' if check.commitment_ok else 'DOES NOT MATCH'} the commitment)")
        out.write("client seeds " + ", ".join(repr(s) for s in check.client_seeds))
        for roll in check.mismatches:
            out.write(f"MISMATCH roll {roll.k} (seq {roll.seq}, player {roll.player}): stored "
                      f"{list(roll.stored)}, the seeds give {list(roll.expected)}")
        if not check.ok:
            raise CommandError(f"{len(check.mismatches)} of {len(check.rolls)} rolls do not "
                               "match" + ("" if check.commitment_ok else
                                          ", and the seed does not match its commitment"),
                               returncode=1)
        out.write(f"All {len(check.rolls)} rolls match.")
