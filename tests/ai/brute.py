"""A slow, independent reference: expected future points by exhaustive search over real
scorecards of ``game.rules`` (scoring, bonuses and Joker exactly as ``Game.score`` does).

Independent of ``game.ai``: its own dice enumeration, one card at a time (distributions as
NumPy arrays, summed outcome by outcome).
"""

from __future__ import annotations

import copy
from functools import cache
from itertools import combinations_with_replacement
from math import factorial

import numpy as np

from game.rules import Scorecard

ROLLS = list(combinations_with_replacement(range(1, 7), 5))
INDEX = {r: i for i, r in enumerate(ROLLS)}


def probability(outcome: tuple[int, ...]) -> float:
    ways = factorial(len(outcome))
    for f in range(1, 7):
        ways //= factorial(outcome.count(f))
    return ways / 6 ** len(outcome)


def _keeps(dice: tuple[int, ...]) -> list[list[tuple[float, int]]]:
    """For each distinct keep of ``dice``: (chance, resulting roll) of every re-roll outcome."""
    keeps = {tuple(sorted(d for i, d in enumerate(dice) if m >> i & 1)) for m in range(32)}
    return [
        [(probability(o), INDEX[tuple(sorted(k + o))])
         for o in combinations_with_replacement(range(1, 7), 5 - len(k))]
        for k in keeps
    ]


KEEPS = [_keeps(r) for r in ROLLS]
FIRST = [probability(r) for r in ROLLS]


@cache
def keep_matrix() -> tuple[np.ndarray, np.ndarray]:
    """Every roll's keeps, one row each (the chance of each roll its re-roll leads to: ``KEEPS``
    as a matrix, so the keeps' values of a level are one product), and where each roll's keeps
    start."""
    rows, first_keep = [], []
    for keeps in KEEPS:
        first_keep.append(len(rows))
        for keep in keeps:
            row = np.zeros(len(ROLLS))
            for p, j in keep:
                row[j] += p
            rows.append(row)
    return np.array(rows), np.array(first_keep)


def after_scoring(card: Scorecard, dice: tuple[int, ...], box: str) -> tuple[float, Scorecard]:
    """Points the move earns (bonuses included) and the card after it, like Game.score (the
    card after it is shared: read it, never change it)."""
    key = (_key(card), card.ruleset.joker, tuple(sorted(dice)), box)
    if key not in _scored:
        _scored[key] = _score(card, dice, box)
    return _scored[key]


_scored: dict[tuple, tuple[float, Scorecard]] = {}


def _score(card: Scorecard, dice: tuple[int, ...], box: str) -> tuple[float, Scorecard]:
    new = copy.deepcopy(card)
    before = new.upper_bonus_earned()
    points = new.score_for(dice, box)
    bonus = new.yahtzee_bonus_due(dice)
    new.fill(box, 0, points)
    if new.upper_bonus_earned() and not before:
        bonus += new.ruleset.upper_bonus
    return points + bonus, new


_memo: dict[tuple, float] = {}


def _key(card: Scorecard) -> tuple:
    column = card.to_dict()["columns"][0]
    return (card.ruleset.name, tuple(sorted(column["boxes"].items())), column["upper_subtotal"])


def expected_future(card: Scorecard) -> float:
    """Expected points still to come under optimal play (small cards: a few open boxes)."""
    if card.is_full:
        return 0.0
    key = _key(card)
    if key not in _memo:
        _memo[key] = _solve(card)
    return _memo[key]


def _solve(card: Scorecard) -> float:
    last = []
    for dice in ROLLS:
        last.append(max(points + expected_future(child) for points, child in (
            after_scoring(card, dice, slot.box) for slot in card.legal_slots(dice))))
    values = np.array(last)
    keeps, first_keep = keep_matrix()
    for _ in range(2):  # each roll's best keep
        values = np.maximum.reduceat(keeps @ values, first_keep)
    return float(np.asarray(FIRST) @ values)


_moments_memo: dict[tuple, tuple[float, float, float]] = {}


def future_moments(card: Scorecard) -> tuple[float, float, float]:
    """(E[X], E[X²], E[X³]) of the points still to come X under optimal play, every choice the
    first best (boxes in scorecard order; holds: the larger on equal value)."""
    if card.is_full:
        return 0.0, 0.0, 0.0
    key = _key(card)
    if key not in _moments_memo:
        _moments_memo[key] = _solve_moments(card)
    return _moments_memo[key]


def _solve_moments(card: Scorecard) -> tuple[float, float, float]:
    rows = []
    for dice in ROLLS:
        best = None
        for slot in card.legal_slots(dice):
            g, child = after_scoring(card, dice, slot.box)
            m1, m2, m3 = future_moments(child)
            if best is None or g + m1 > best[0]:  # X = g + X': expand the powers
                best = (g + m1, g * g + 2 * g * m1 + m2, g ** 3 + 3 * g * g * m1 + 3 * g * m2 + m3)
        rows.append(best)
    for _ in range(2):
        new = []
        for i in range(len(ROLLS)):
            keeps = [(*(sum(p * rows[j][n] for p, j in keep) for n in range(3)),
                      5 - _thrown(keep)) for keep in KEEPS[i]]
            new.append(max(keeps, key=lambda k: (k[0], k[3]))[:3])
        rows = new
    return tuple(sum(p * r[n] for p, r in zip(FIRST, rows, strict=True)) for n in range(3))


def _thrown(keep: list[tuple[float, int]]) -> int:
    """How many dice a keep throws: its outcomes are the rolls of that many dice."""
    return {1: 0, 6: 1, 21: 2, 56: 3, 126: 4, 252: 5}[len(keep)]


_distribution_memo: dict[tuple, np.ndarray] = {}


def future_distribution(card: Scorecard) -> dict[int, float]:
    """The chance of each number of points still to come under optimal play, every choice the
    first best (boxes in scorecard order; holds: the larger on equal value; :func:`ties_matter`
    says whether equal values with different distributions made that rule matter)."""
    return {k: float(p) for k, p in enumerate(_future(card)) if p}


def _future(card: Scorecard) -> np.ndarray:
    """``future_distribution`` as an array: entry k is the chance of k points to come."""
    if card.is_full:
        return np.ones(1)
    key = _key(card)
    if key not in _distribution_memo:
        _distribution_memo[key] = _solve_distribution(card)
    return _distribution_memo[key]


def _shifted(dist: np.ndarray, by: float) -> np.ndarray:
    return np.concatenate([np.zeros(int(by)), dist])


def _mixed(parts: list[tuple[float, np.ndarray]]) -> np.ndarray:
    out = np.zeros(max(len(dist) for _, dist in parts))
    for weight, dist in parts:
        out[:len(dist)] += weight * dist
    return out


#: Cards whose optimal play has a tie (two choices of the same value, up to float noise) with
#: different distributions: there the distribution depends on how ties are broken.
_tied: set[tuple] = set()


def ties_matter(card: Scorecard) -> bool:
    """Whether :func:`future_distribution` of ``card`` depends on how ties are broken."""
    _future(card)
    return _key(card) in _tied


def _close(a: np.ndarray, b: np.ndarray) -> bool:
    width = max(len(a), len(b))
    return bool(np.abs(np.pad(a, (0, width - len(a))) - np.pad(b, (0, width - len(b)))).max()
                < 1e-12)


def _solve_distribution(card: Scorecard) -> np.ndarray:
    tied = False
    rows: list[tuple[float, np.ndarray]] = []  # (value, distribution) of each last roll
    for dice in ROLLS:
        options = []
        for slot in card.legal_slots(dice):
            g, child = after_scoring(card, dice, slot.box)
            options.append((g + expected_future(child), _shifted(_future(child), g)))
            tied |= ties_matter(child)
        best = max(o[0] for o in options)
        top = [o for o in options if o[0] > best - 1e-9]
        tied |= any(not _close(o[1], top[0][1]) for o in top)
        rows.append(top[0])  # the first best box, in scorecard order
    matrix, _ = keep_matrix()
    for _ in range(2):
        new = []
        values = iter(matrix @ np.array([r[0] for r in rows]))  # every keep's, in KEEPS' order
        for i in range(len(ROLLS)):
            keeps = [(next(values), 5 - _thrown(keep), keep) for keep in KEEPS[i]]
            best = max(k[0] for k in keeps)
            top = [(_mixed([(p, rows[j][1]) for p, j in k[2]]), k[1]) for k in keeps
                   if k[0] > best - 1e-9]
            tied |= any(not _close(t[0], top[0][0]) for t in top)
            largest = max(t[1] for t in top)
            new.append((best, next(t[0] for t in top if t[1] == largest)))
        rows = new
    if tied:
        _tied.add(_key(card))
    return _mixed([(p, r[1]) for p, r in zip(FIRST, rows, strict=True)])
