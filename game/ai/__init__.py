"""Computer players and the optimal solitaire strategy. Imports ``game.rules`` only.

* :func:`choose_action` — the bot interface: what a bot of a given level does next.
* :func:`advisor` / :class:`CardState` / :class:`Choice` / :class:`Estimate` — the decision
  API: every legal hold and box of a turn with its expected final score and its spread, and
  estimates of a position at every moment of a turn (hints, analysis, ``manage.py advise``).
* :func:`win_chances` — each player's chance to win from those estimates;
  :class:`Standings` — where each player of a game stands (expected, spread, chance).
* :func:`get_solution` / :func:`build_table` / :func:`set_strategy_dir` — the solved tables on
  disk (see ``storage.py``).
"""

from .actions import LEVELS, TABLE_LEVELS, Action, Roll, Score
from .advice import Advisor, CardState, Choice, Estimate, advisor
from .bots import choose_action
from .standings import Standing, Standings
from .standings import supported as standings_supported
from .storage import (
    build_table,
    get_solution,
    set_strategy_dir,
    strategy_dir,
    table_path,
    table_ready,
)
from .win_chances import win_chances

__all__ = [
    "LEVELS", "TABLE_LEVELS", "Action", "Advisor", "CardState", "Choice", "Estimate", "Roll",
    "Score", "Standing", "Standings", "advisor", "build_table", "choose_action", "get_solution",
    "set_strategy_dir", "standings_supported", "strategy_dir", "table_path", "table_ready",
    "win_chances",
]
