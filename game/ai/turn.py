"""Playing one turn exactly, for any way of valuing where the turn ends.

A bot supplies, for the current player, the value of every possible final roll (the best box
for it, by the bot's own measure). Holds are then chosen exactly: the expected value of each
hold over the dice still to roll, with the remaining re-rolls played the same way.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from game.rules import Dice, Game, Slot

from .actions import Action, Roll, Score
from .multisets import INDEX, ROLLS, best_hold_values, hold_values, positions_for, sub_holds

#: For a game whose current player has rolled: the value of ending the turn on each of the
#: 252 rolls (shape (252,)), and the slot to score the current dice in.
RollValues = Callable[[Game], np.ndarray]
PickSlot = Callable[[Game], Slot]


def current_dice(game: Game) -> Dice:
    """The dice the current player has rolled (a bot only decides holds and boxes after one)."""
    if game.dice is None:
        raise ValueError("The current player has not rolled yet.")
    return game.dice


def play_turn(game: Game, roll_values: RollValues, pick_slot: PickSlot) -> Action:
    """Roll, re-roll or score for ``game.current_player``, maximising the expected value."""
    if game.dice is None:
        return Roll(())
    dice = tuple(game.dice)
    if game.rolls_left > 0:
        levels = hold_values(roll_values(game).reshape(len(ROLLS), 1))
        for _ in range(game.rolls_left - 1):
            levels = hold_values(best_hold_values(levels))
        # Best hold first; among equals the larger one (keeping all five means: score now).
        hold = max(sub_holds(dice),
                   key=lambda h: (float(levels[len(h)][INDEX[len(h)][h], 0]), len(h)))
        if len(hold) < 5:
            return Roll(positions_for(dice, hold))
    slot = pick_slot(game)
    return Score(slot.box, slot.column)
