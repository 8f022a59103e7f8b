"""Write every player's results and ratings again from the stored games and their reviews.

    python manage.py rebuild_ratings

They are a cache (DESIGN.md, "Players"): a game's end records its own game incrementally; this
replays every reviewed game in the order they finished, e.g. after the rating's rules change:
every rating is the rating of winning (``game.ratings.wins``) recomputed from the stored
reviews' chances, the computer levels at their anchors (``wins.ANCHORS``).
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from game.services import rebuild_ratings


class Command(BaseCommand):
    help = ("Forget every result and rating, then record every reviewed finished game again in "
            "the order the games finished.")

    def handle(self, *args: Any, **options: Any) -> None:
        count = rebuild_ratings()
        self.stdout.write(f"Recorded {count} reviewed games.")
