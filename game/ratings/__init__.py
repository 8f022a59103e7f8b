"""Players' ratings (pure Python, no Django): Glicko-2 on luck-adjusted results."""

from .glicko2 import Rating, expected_score, update
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
    "combine", "expected_score", "is_provisional", "rate_game", "update",
]
