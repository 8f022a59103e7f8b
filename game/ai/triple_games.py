"""Seeded Triple Yahtzee games and their luck-free scores, to compare triple bots.

A triple game's score has a standard deviation near 350, so telling two bots a few points
apart takes tens of thousands of games. The luck-free score removes the dice's luck: before
each turn the bot knows what it expects the turn's final roll to be worth, by its own measure
(``G``); after it, what the roll it got is worth by the same measure (``g``). ``g − G`` has
mean zero whatever the measure, so ``score − Σ (g − G)`` estimates the same expected score,
with a standard deviation near 60.
"""

from __future__ import annotations

import random

import numpy as np

from game.rules import Game

from .actions import Roll
from .multisets import ROLL_INDEX, ROLL_PROBABILITY, best_hold_values, hold_values
from .triple import ColumnKey, bot, position_keys
from .turn import play_turn


def play_game(seed: int, endgame_open: int) -> tuple[int, list[tuple[ColumnKey, ...]], float]:
    """One seeded one-player triple game of ``triple.bot(endgame_open)`` (0: the column bot):
    its score, the position at the start of each turn, and its luck-free score."""
    game = Game("triple", ["bot"], rng=random.Random(seed))
    roll_values, pick_slot = bot(endgame_open)
    starts: list[tuple[ColumnKey, ...]] = []
    luck = expected = 0.0
    while not game.is_over:
        if game.dice is None:
            expected = turn_expectation(roll_values(game))
            starts.append(position_keys(game))
            game.roll(())
            continue
        action = play_turn(game, roll_values, pick_slot)
        if isinstance(action, Roll):
            game.roll(action.hold)
        else:
            luck += float(roll_values(game)[ROLL_INDEX[tuple(sorted(game.dice))]]) - expected
            game.score(action.box, action.column)
    score = game.scorecards[0].total
    return score, starts, score - luck


def turn_expectation(roll_values: np.ndarray) -> float:
    """Expected value of the end of a turn not yet rolled, holds chosen to maximise it."""
    v = roll_values.reshape(-1, 1)
    for _ in range(2):
        v = best_hold_values(hold_values(v))
    return float(ROLL_PROBABILITY @ v[:, 0])
