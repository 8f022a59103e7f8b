"""How one roll scores in one box, box by box — the rulebook, as functions of the dice.

Each function takes five dice and returns the points the box would give, 0 when the roll does
not fit ("scratch"). The Joker rule is not here: it is a property of a scorecard, not of a
roll (see ``scorecard.py``).
"""

from __future__ import annotations

from collections.abc import Callable

from .dice import Dice, counts

Scorer = Callable[[Dice], int]


def upper(face: int) -> Scorer:
    """Ones … sixes: the sum of the dice showing ``face``."""

    def score(dice: Dice) -> int:
        return face * dice.count(face)

    score.__name__ = f"upper_{face}"
    return score


def chance(dice: Dice) -> int:
    """The sum of all dice, whatever they show."""
    return sum(dice)


def _largest_group(dice: Dice) -> int:
    return max(counts(dice).values())


def _faces_with_at_least(dice: Dice, n: int) -> list[int]:
    """Faces shown by at least ``n`` dice, highest first."""
    return sorted((f for f, c in counts(dice).items() if c >= n), reverse=True)


def _longest_run(dice: Dice) -> int:
    faces = set(dice)
    best = run = 0
    for face in range(1, 7):
        run = run + 1 if face in faces else 0
        best = max(best, run)
    return best


# --- The standard (Hasbro) game -------------------------------------------------------------

def sum_if_of_a_kind(n: int) -> Scorer:
    """Three / four of a kind: the sum of all dice, if at least ``n`` show the same number."""

    def score(dice: Dice) -> int:
        return sum(dice) if _largest_group(dice) >= n else 0

    score.__name__ = f"sum_if_{n}_of_a_kind"
    return score


def fixed_if(points: int, test: Callable[[Dice], bool]) -> Scorer:
    """A fixed number of points for a pattern (full house 25, straights 30/40, Yahtzee 50)."""

    def score(dice: Dice) -> int:
        return points if test(dice) else 0

    score.__name__ = f"{points}_if_{test.__name__}"
    return score


def is_full_house(dice: Dice) -> bool:
    """Three of one number and two of another (five of a kind is not a full house)."""
    return sorted(counts(dice).values()) == [2, 3]


def is_small_straight(dice: Dice) -> bool:
    """Four dice in sequence: 1-2-3-4, 2-3-4-5 or 3-4-5-6."""
    return _longest_run(dice) >= 4


def is_large_straight(dice: Dice) -> bool:
    """Five dice in sequence: 1-2-3-4-5 or 2-3-4-5-6."""
    return _longest_run(dice) == 5


# --- The Scandinavian game (Yatzy) ----------------------------------------------------------
# Five of a kind counts as a pair, three and four of a kind (docs/rules.md: the
# standard reading, not one Yatzy kata's "exactly N").

def one_pair(dice: Dice) -> int:
    """The two highest matching dice."""
    faces = _faces_with_at_least(dice, 2)
    return 2 * faces[0] if faces else 0


def two_pairs(dice: Dice) -> int:
    """Two pairs of different numbers (1,1,2,2,2 scores 6)."""
    faces = _faces_with_at_least(dice, 2)
    return 2 * (faces[0] + faces[1]) if len(faces) >= 2 else 0


def n_of_a_kind(n: int) -> Scorer:
    """Three / four of a kind: the sum of the ``n`` matching dice."""

    def score(dice: Dice) -> int:
        faces = _faces_with_at_least(dice, n)
        return n * faces[0] if faces else 0

    score.__name__ = f"{n}_of_a_kind"
    return score


def exactly(points: int, faces: tuple[int, ...]) -> Scorer:
    """Yatzy's straights: ``points`` for exactly these five faces."""

    def score(dice: Dice) -> int:
        return points if tuple(sorted(dice)) == faces else 0

    score.__name__ = f"{points}_for_{''.join(map(str, faces))}"
    return score


def sum_if_full_house(dice: Dice) -> int:
    """Yatzy's full house: the sum of all dice."""
    return sum(dice) if is_full_house(dice) else 0
