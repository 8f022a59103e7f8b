"""What a player can do on their turn, as values: roll (keeping some dice) or score a box.

Clients, bots and the terminal game all express a move this way; ``Game.play`` applies one.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Roll:
    """Roll again, keeping the dice at these positions (0-4); ``()`` rolls all five."""

    hold: tuple[int, ...] = ()


@dataclass(frozen=True)
class Score:
    """Score the current dice in ``box`` of ``column``."""

    box: str
    column: int = 0


Action = Roll | Score
