"""The optimal bot: the solved table for yahtzee and yatzy; the best Triple bot we have."""

from __future__ import annotations

from game.rules import Game

from . import triple
from .actions import Action, Roll, Score
from .advice import CardState, advisor
from .multisets import positions_for
from .turn import current_dice, play_turn


def choose(game: Game) -> Action:
    if game.ruleset.columns > 1:
        return play_turn(game, *triple.optimal_bot())
    adv = advisor(game.ruleset)
    state = CardState.of(game.scorecard)
    dice = current_dice(game)
    if game.rolls_left > 0:
        best = adv.hold_choices(state, dice, game.rolls_left)[0]
        if best.hold is not None and len(best.hold) < 5:
            return Roll(positions_for(dice, best.hold))
    return Score(adv.box_choices(state, dice)[0].box or "")
