"""What a computer player can decide: the rules' own action values, and the bot levels.

``Roll`` and ``Score`` are ``game.rules``' actions, so ``game.play(choose_action(game, level))``
applies a bot's move exactly as a person's.
"""

from __future__ import annotations

from game.rules import Action, Roll, Score

#: The computer players' levels, every one in every ruleset: three strengths, weakest first,
#: then ``to_win`` (yahtzee and yatzy: each decision the best chance to win rather than the
#: most points; triple: the optimal bot).
LEVELS = ("easy", "medium", "optimal", "to_win")
#: The levels that play from the strategy table (their first move in a fresh data directory
#: waits for it to be built).
TABLE_LEVELS = ("optimal", "to_win")

__all__ = ["LEVELS", "TABLE_LEVELS", "Action", "Roll", "Score"]
