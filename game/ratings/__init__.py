"""Players' ratings (pure Python, no Django): Glicko-2 on luck-adjusted results.

``wins``: the rating of winning the site rates games with (chances to win with the dice's luck
out); ``rating``: the points-based rating it replaced, kept for the benchmarks' comparison and
``combine`` (two estimates of one player's strength, when accounts merge).
"""

from . import wins
from .glicko2 import Rating, expected_score, idle, update
from .rating import (
    ANCHORS,
    PROVISIONAL_RD,
    RATED_RULES,
    Seat,
    adjusted_score,
    anchor,
    combine,
    is_provisional,
    rate_game,
)

__all__ = [
    "ANCHORS", "PROVISIONAL_RD", "RATED_RULES", "Rating", "Seat", "adjusted_score", "anchor",
    "combine", "expected_score", "idle", "is_provisional", "rate_game", "update", "wins",
]
