"""Delete abandoned waiting rooms, expired sessions and dead presence rows; keep every game.

    python manage.py cleanup        # run it hourly (README: "Production")
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from game.services.cleanup import clean_up


class Command(BaseCommand):
    help = ("Delete waiting rooms unused for a day, expired sessions and presence rows of dead "
            "servers. Finished games and their event logs are never deleted.")

    def handle(self, *args: Any, **options: Any) -> None:
        removed = clean_up()
        self.stdout.write(f"Removed {removed.rooms} idle rooms, {removed.sessions} expired "
                          f"sessions, {removed.connections} dead presence rows.")
