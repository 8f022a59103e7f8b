"""The dice as multisets: the 252 distinct rolls, the 462 distinct holds, and how they link.

Order matters only as indices: multisets are grouped by size (0 … 5 dice), sorted within a
size. A *hold* is any multiset of 0-5 dice; a *roll* is a hold of five. The tables here let the
solver work on whole levels at once with NumPy gathers instead of Python loops:

* ``CHILDREN[k]`` (holds of size k-1 × 6): adding face f to a hold of size k-1 gives the hold
  of size k at that index; the expected value of a hold is the mean over its six children,
  level by level from the rolls down (the dice still to roll, one at a time).
* ``PARENTS[k]`` (holds of size k × 5): removing one die gives the hold of size k-1 at that
  index (padded by repeats); the best hold inside a roll is a max over these, level by level up.
"""

from __future__ import annotations

from functools import cache
from itertools import combinations_with_replacement
from math import factorial

import numpy as np

FACES = (1, 2, 3, 4, 5, 6)

#: LEVELS[k]: the sorted multisets of k dice.
LEVELS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(combinations_with_replacement(FACES, k)) for k in range(6)
)
INDEX: tuple[dict[tuple[int, ...], int], ...] = tuple(
    {m: i for i, m in enumerate(level)} for level in LEVELS
)
ROLLS: tuple[tuple[int, ...], ...] = LEVELS[5]
ROLL_INDEX = INDEX[5]
N_ROLLS = len(ROLLS)  # 252
N_HOLDS = sum(len(level) for level in LEVELS)  # 462


def _children(k: int) -> np.ndarray:
    return np.array(
        [[INDEX[k][tuple(sorted(h + (f,)))] for f in FACES] for h in LEVELS[k - 1]],
        dtype=np.intp,
    )


def _parents(k: int) -> np.ndarray:
    rows = []
    for h in LEVELS[k]:
        removed = sorted({INDEX[k - 1][h[:i] + h[i + 1:]] for i in range(k)})
        rows.append(removed + [removed[0]] * (5 - len(removed)))
    return np.array(rows, dtype=np.intp)[:, : max(1, k)]


CHILDREN: dict[int, np.ndarray] = {k: _children(k) for k in range(1, 6)}
PARENTS: dict[int, np.ndarray] = {k: _parents(k) for k in range(1, 6)}


def _probability(roll: tuple[int, ...]) -> float:
    ways = factorial(len(roll))
    for f in FACES:
        ways //= factorial(roll.count(f))
    return ways / 6.0 ** len(roll)


#: Chance of each roll of five fresh dice.
ROLL_PROBABILITY = np.array([_probability(r) for r in ROLLS])
#: COUNTS[r, f-1]: how many dice of roll r show face f.
COUNTS = np.array([[r.count(f) for f in FACES] for r in ROLLS], dtype=np.intp)
#: Index of the five-of-a-kind roll of each face.
YAHTZEE_ROLLS = np.array([ROLL_INDEX[(f,) * 5] for f in FACES], dtype=np.intp)


#: Every hold, in the order of the hold levels put end to end (``np.concatenate(levels)``).
HOLDS: tuple[tuple[int, ...], ...] = tuple(h for level in LEVELS for h in level)
HOLD_SIZE = np.array([len(h) for h in HOLDS], dtype=np.intp)
#: HOLD_COUNTS[h, f-1]: how many dice of hold h show face f.
HOLD_COUNTS = np.array([[h.count(f) for f in FACES] for h in HOLDS], dtype=np.intp)


@cache
def hold_choices_table() -> np.ndarray:
    """(252, 32): the holds of each roll (indices of ``HOLDS``), larger first, then in
    ``sub_holds`` order, padded with repeats of the first — so the first best of a row is the
    hold ``Advisor.hold_choices`` ranks first."""
    flat = {h: i for i, h in enumerate(HOLDS)}
    rows = []
    for r in ROLLS:
        holds = [flat[h] for h in sorted(sub_holds(r), key=lambda h: -len(h))]
        rows.append(holds + [holds[0]] * (32 - len(holds)))
    return np.array(rows, dtype=np.intp)


@cache
def throw_table() -> np.ndarray:
    """(462, 252): the chance that keeping hold h and throwing the other dice gives roll r."""
    table = np.zeros((N_HOLDS, N_ROLLS))
    for i, h in enumerate(HOLDS):
        for rest in LEVELS[5 - len(h)]:
            table[i, ROLL_INDEX[tuple(sorted(h + rest))]] += _probability(rest)
    return table


def hold_values(roll_values: np.ndarray) -> list[np.ndarray]:
    """Expected value of every hold, level by level, given the value of each roll.

    ``roll_values`` is (252, S) for S states at once; returns ``[E0 … E5]``, ``Ek`` (holds of
    k dice, S), ``E5`` being ``roll_values`` itself.
    """
    levels = [roll_values]
    for k in range(5, 0, -1):
        upper, children = levels[0], CHILDREN[k]
        # Six row gathers summed in place: much faster than one (n, 6, S) gather and a mean.
        acc = upper[children[:, 0]]
        for j in range(1, 6):
            acc += upper[children[:, j]]
        acc *= 1 / 6
        levels.insert(0, acc)
    return levels


def hold_certainties(roll_values: np.ndarray, risk: float) -> list[np.ndarray]:
    """:func:`hold_values` for a player who values points x as exp(``risk`` × x) (risk ≠ 0):
    every hold's certainty equivalent, the sure number of points worth as much to them as its
    rolls (log E[exp(risk × v)] / risk). Above 0 a gamble is worth more than its mean, below
    0 less. Each state's values are shifted by their largest before the exponential, so it
    stays in range whatever the points."""
    shift = roll_values.max(axis=0)
    levels = hold_values(np.exp(risk * (roll_values - shift)))
    return [np.log(level) / risk + shift for level in levels]


def best_hold_values(levels: list[np.ndarray]) -> np.ndarray:
    """For every roll, the value of its best hold (anything from nothing to all five dice)."""
    best = levels[0]
    for k in range(1, 6):
        parents = PARENTS[k]
        acc = levels[k].copy()
        for j in range(parents.shape[1]):
            np.maximum(acc, best[parents[:, j]], out=acc)
        best = acc
    return best


def best_hold_moments(levels: list[np.ndarray], *moments: list[np.ndarray]
                      ) -> tuple[np.ndarray, ...]:
    """:func:`best_hold_values`, and for every roll the other ``moments`` (hold levels of
    E[X²], E[X³] …) of the hold it picks. On equal values the larger hold is kept, as the
    advisor ranks them."""
    best, best_moments = levels[0], [m[0] for m in moments]
    for k in range(1, 6):
        parents = PARENTS[k]
        acc, acc_moments = levels[k].copy(), [m[k].copy() for m in moments]
        for j in range(parents.shape[1]):
            candidate = best[parents[:, j]]
            better = candidate > acc
            for a, b in zip(acc_moments, best_moments, strict=True):
                np.copyto(a, b[parents[:, j]], where=better)
            np.maximum(acc, candidate, out=acc)
        best, best_moments = acc, acc_moments
    return (best, *best_moments)


def sub_holds(dice: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """The distinct multisets of dice one can keep out of ``dice``, as sorted tuples."""
    return _sub_holds(tuple(sorted(dice)))


@cache
def _sub_holds(dice: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    found: set[tuple[int, ...]] = set()
    for mask in range(32):
        found.add(tuple(sorted(d for i, d in enumerate(dice) if mask >> i & 1)))
    return tuple(sorted(found, key=lambda h: (len(h), h)))


def positions_for(dice: tuple[int, ...], hold: tuple[int, ...]) -> tuple[int, ...]:
    """Die positions in ``dice`` that keep the multiset ``hold``."""
    wanted = list(hold)
    picked = []
    for i, d in enumerate(dice):
        if d in wanted:
            wanted.remove(d)
            picked.append(i)
    if wanted:
        raise ValueError(f"{hold} is not part of {dice}")
    return tuple(picked)
