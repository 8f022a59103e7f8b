"""A slow, independent reference for ``game.ai.targets``: the best chance to score more than
n more points, by exhaustive search over real scorecards (every keep's re-roll enumerated),
the targets n = 0 … width − 1 carried together as one NumPy row."""

from __future__ import annotations

import numpy as np

from game.rules import Scorecard

from .brute import FIRST, ROLLS, _key, after_scoring, keep_matrix

_memo: dict[tuple, np.ndarray] = {}


def best_chances(card: Scorecard, width: int, tie: float) -> np.ndarray:
    """Row n: the best chance that the points still to come are more than n (a tie counted as
    ``tie``), for n = 0 … width − 1."""
    key = (_key(card), width, tie)
    if key not in _memo:
        _memo[key] = _solve(card, width, tie)
    return _memo[key]


def _shifted(card: Scorecard, width: int, tie: float, gain: int) -> np.ndarray:
    """Row n of the card after scoring ``gain``: its chances at n − gain (1 below 0)."""
    if card.is_full:
        rest = np.zeros(width + gain)
        rest[gain] = tie
    else:
        rest = np.concatenate([np.zeros(gain), best_chances(card, width, tie)])
    rest[:gain] = 1.0
    return rest[:width]


def _solve(card: Scorecard, width: int, tie: float) -> np.ndarray:
    rows = []
    for dice in ROLLS:
        options = []
        for slot in card.legal_slots(dice):
            gain, child = after_scoring(card, dice, slot.box)
            options.append(_shifted(child, width, tie, int(gain)))
        rows.append(np.max(options, axis=0))
    rows = np.array(rows)
    keeps, first_keep = keep_matrix()
    for _ in range(2):  # each roll's best keep: the chances of its re-rolls, summed
        rows = np.maximum.reduceat(keeps @ rows, first_keep, axis=0)
    return np.asarray(FIRST) @ rows
