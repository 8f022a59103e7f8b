"""Five six-sided dice: parsing, rolling and re-rolling with an injected random source."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable
from typing import Protocol

from .errors import HoldBeforeFirstRoll, InvalidDice, InvalidDiePosition

DICE_COUNT = 5
FACES = (1, 2, 3, 4, 5, 6)

Dice = tuple[int, int, int, int, int]


class RandomSource(Protocol):
    """Anything with ``randint`` — ``random.Random(seed)`` in tests, ``SystemRandom`` live."""

    def randint(self, a: int, b: int) -> int: ...


def system_random() -> RandomSource:
    """The operating system's randomness: what live games roll with."""
    return random.SystemRandom()


def validate_dice(values: Iterable[object]) -> Dice:
    """Five integers from 1 to 6, or :class:`InvalidDice`."""
    dice = tuple(values)
    if len(dice) != DICE_COUNT or not all(
        isinstance(d, int) and not isinstance(d, bool) and 1 <= d <= 6 for d in dice
    ):
        raise InvalidDice(f"Dice must be five whole numbers from 1 to 6, got {list(dice)!r}.")
    return dice  # type: ignore[return-value]


def parse_dice(text: str) -> Dice:
    """Parse ``"1,1,2,4,4"`` (commas and/or spaces) into dice."""
    parts = [p for p in text.replace(",", " ").split() if p]
    try:
        values = [int(p) for p in parts]
    except ValueError:
        raise InvalidDice(
            f"Dice must be five numbers from 1 to 6, like 1,1,2,4,4; got {text!r}."
        ) from None
    return validate_dice(values)


def validate_hold(hold: Iterable[object]) -> frozenset[int]:
    """Die positions 0–4 to keep, without repeats, or :class:`InvalidDiePosition`."""
    positions = list(hold)
    for p in positions:
        if not isinstance(p, int) or isinstance(p, bool) or not 0 <= p < DICE_COUNT:
            raise InvalidDiePosition(f"Die positions go from 0 to 4; {p!r} is not one.")
    if len(set(positions)) != len(positions):
        raise InvalidDiePosition("Each die can be held only once.")
    return frozenset(positions)  # type: ignore[arg-type]


def roll_dice(
    rng: RandomSource, previous: Dice | None = None, hold: Iterable[int] = ()
) -> Dice:
    """Roll all five dice, or re-roll the ones of ``previous`` not in ``hold``."""
    held = validate_hold(hold)
    if previous is None:
        if held:
            raise HoldBeforeFirstRoll("You cannot hold dice before the first roll of a turn.")
        return tuple(rng.randint(1, 6) for _ in range(DICE_COUNT))  # type: ignore[return-value]
    return tuple(
        previous[i] if i in held else rng.randint(1, 6) for i in range(DICE_COUNT)
    )  # type: ignore[return-value]


def counts(dice: Iterable[int]) -> Counter[int]:
    """How many dice show each face."""
    return Counter(dice)


def is_five_of_a_kind(dice: Dice) -> bool:
    return len(set(dice)) == 1
