"""Computer players and the optimal solitaire strategy. Imports ``game.rules`` only."""

from .actions import LEVELS, Action, Roll, Score
from .bots import choose_action

__all__ = ["LEVELS", "Action", "Roll", "Score", "choose_action"]
