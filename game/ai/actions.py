"""What a computer player can decide to do on its turn: roll (keeping some dice) or score."""

from __future__ import annotations

from dataclasses import dataclass

#: Strength levels every ruleset offers, weakest first.
LEVELS = ("easy", "medium", "optimal")


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
