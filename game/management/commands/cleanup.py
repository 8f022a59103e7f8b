"""Delete abandoned waiting rooms, rooms whose games nobody played, players nothing hangs on,
expired sessions and dead presence rows; keep every game anyone played.

    python manage.py cleanup        # run it hourly (README: "Production")
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from game.services.cleanup import clean_up


class Command(BaseCommand):
    help = ("Delete waiting rooms unused for a day (over days: a month), rooms whose games no "
            "person moved in for a day (never over days), players made by a name alone a day "
            "ago, expired sessions and presence rows of dead servers. A game with a person's "
            "move, a finished game and their event logs are never deleted.")

    def handle(self, *args: Any, **options: Any) -> None:
        removed = clean_up()
        self.stdout.write(f"Removed {removed.rooms} idle rooms, {removed.sessions} expired "
                          f"sessions, {removed.connections} dead presence rows. Also "
                          f"{removed.unplayed} rooms nobody played in and {removed.players} "
                          f"players nothing hangs on.")
