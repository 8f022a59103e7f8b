"""Draw the daily challenges' seeds ahead of their days (docs/fairness.md), so each day's
commitment is public before it starts; days already drawn keep theirs.

    python manage.py daily_seeds --days 7
"""

from __future__ import annotations

import datetime
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from game.domain.clock import utc_today
from game.services.daily import ensure_challenges


class Command(BaseCommand):
    help = "Draw the seeds of the daily challenges from today (UTC) to DAYS days ahead."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--days", type=int, default=2,
                            help="How many days ahead of today (default 2).")

    def handle(self, *args: Any, **opts: Any) -> None:
        today = utc_today()
        for ahead in range(max(opts["days"], 0) + 1):
            day = today + datetime.timedelta(days=ahead)
            for rules, challenge in sorted(ensure_challenges(day).items()):
                self.stdout.write(f"{day.isoformat()} {rules} {challenge.commitment}")
