"""Computer players: one entry point, :func:`choose_action`, for every ruleset and level."""

from __future__ import annotations

import random
from collections import Counter

from game.rules import Game

from .actions import LEVELS, Action, Roll, Score


def choose_action(game: Game, level: str, rng: random.Random | None = None) -> Action:
    """The move ``level`` makes for ``game.current_player``; always legal in ``game``."""
    if level not in LEVELS:
        raise ValueError(f"Unknown bot level {level!r}; choose one of: {', '.join(LEVELS)}.")
    if game.is_over:
        raise ValueError("The game is over: there is nothing to decide.")
    if game.dice is None:
        return Roll(())
    return _greedy(game)


def _greedy(game: Game) -> Action:
    """Chase the most common face while rolls are left, then take the best box."""
    dice = game.dice
    assert dice is not None
    if game.rolls_left > 0:
        face, n = max(Counter(dice).items(), key=lambda fc: (fc[1], fc[0]))
        if n < 5:
            return Roll(tuple(i for i, d in enumerate(dice) if d == face))
    mult = game.ruleset.multipliers
    best = max(game.potential_scores().items(), key=lambda sp: sp[1] * mult[sp[0].column])
    return Score(best[0].box, best[0].column)
