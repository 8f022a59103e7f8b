"""Computer players: one entry point, :func:`choose_action`, for every ruleset and level."""

from __future__ import annotations

import random

from game.rules import Game

from . import heuristics, optimal, to_win
from .actions import LEVELS, Action, Roll
from .turn import play_turn


def choose_action(game: Game, level: str, rng: random.Random | None = None) -> Action:
    """The move ``level`` makes for ``game.current_player``; always legal in ``game``.

    ``rng`` is accepted for bots that randomise; the current ones are deterministic.
    """
    if level not in LEVELS:
        raise ValueError(f"Unknown bot level {level!r}; choose one of: {', '.join(LEVELS)}.")
    if game.is_over:
        raise ValueError("The game is over: there is nothing to decide.")
    if game.dice is None:
        return Roll(())
    if level == "to_win" and game.ruleset.columns == 1:
        return to_win.choose(game)
    if level in ("optimal", "to_win"):  # triple's to-win bot is the optimal one
        return optimal.choose(game)
    medium = level == "medium"
    return play_turn(game, lambda g: heuristics.roll_values(g, medium),
                     lambda g: heuristics.pick_slot(g, medium))
