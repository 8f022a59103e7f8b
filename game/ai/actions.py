"""What a computer player can decide: the rules' own action values, and the bot levels.

``Roll`` and ``Score`` are ``game.rules``' actions, so ``game.play(choose_action(game, level))``
applies a bot's move exactly as a person's.
"""

from __future__ import annotations

from game.rules import Action, Roll, Score

#: Strength levels every ruleset offers, weakest first.
LEVELS = ("easy", "medium", "optimal")

__all__ = ["LEVELS", "Action", "Roll", "Score"]
