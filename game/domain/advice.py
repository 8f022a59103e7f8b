"""A practice room's coach: what each choice of the player to move is worth."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class BoxChoice:
    box: str
    column: int
    value: float  # the expected final score of scoring the dice there now


@dataclass(frozen=True)
class HoldChoice:
    positions: tuple[int, ...]  # the dice kept, by position
    dice: tuple[int, ...]  # their values
    value: float  # the expected final score of keeping them


@dataclass(frozen=True)
class Advice:
    """What each choice of the player to move is worth after their roll, best first."""

    game_id: int
    seq: int
    player: int
    rolls_left: int
    boxes: list[BoxChoice]
    holds: list[HoldChoice]
