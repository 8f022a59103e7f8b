"""Players' ratings (pure Python, no Django): Glicko-2 on luck-adjusted results.

``rating``: the points-based rating the site uses today; ``wins``: the rating of winning that
replaces it (chances to win with the dice's luck out).
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
