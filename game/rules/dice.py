"""Five six-sided dice: parsing, rolling and re-rolling with an injected random source."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable
from typing import Protocol, cast

from .errors import HoldBeforeFirstRoll, InvalidDice, InvalidDiePosition, gettext_noop

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
        raise InvalidDice(
            gettext_noop("Dice must be five whole numbers from 1 to 6, got %(dice)s."),
            {"dice": repr(list(dice))})
    return cast(Dice, dice)  # five ints from 1 to 6, checked above


def parse_dice(text: str) -> Dice:
    """Parse ``"1,1,2,4,4"`` (commas and/or spaces) into dice."""
    parts = [p for p in text.replace(",", " ").split() if p]
    try:
        values = [int(p) for p in parts]
    except ValueError:
        raise InvalidDice(
            gettext_noop("Dice must be five numbers from 1 to 6, like 1,1,2,4,4; got %(text)s."),
            {"text": repr(text)}) from None
    return validate_dice(values)


def validate_hold(hold: Iterable[object]) -> frozenset[int]:
    """Die positions 0–4 to keep, without repeats, or :class:`InvalidDiePosition`."""
    positions = list(hold)
    for p in positions:
        if not isinstance(p, int) or isinstance(p, bool) or not 0 <= p < DICE_COUNT:
            raise InvalidDiePosition(
                gettext_noop("Die positions go from 0 to 4; %(position)s is not one."),
                {"position": repr(p)})
    if len(set(positions)) != len(positions):
        raise InvalidDiePosition(gettext_noop("Each die can be held only once."))
    return frozenset(cast(list[int], positions))  # checked above


def roll_dice(
    rng: RandomSource, previous: Dice | None = None, hold: Iterable[int] = ()
) -> Dice:
    """Roll all five dice, or re-roll the ones of ``previous`` not in ``hold``."""
    held = validate_hold(hold)
    if previous is None and held:
        raise HoldBeforeFirstRoll(
            gettext_noop("You cannot hold dice before the first roll of a turn."))

    def die(i: int) -> int:
        return previous[i] if previous is not None and i in held else rng.randint(1, 6)

    return die(0), die(1), die(2), die(3), die(4)  # in order: a seeded game rolls the same


def counts(dice: Iterable[int]) -> Counter[int]:
    """How many dice show each face."""
    return Counter(dice)


def is_five_of_a_kind(dice: Dice) -> bool:
    """All five dice show the same number (a Yahtzee, or a Yatzy)."""
    return len(set(dice)) == 1
