"""Computer players and the optimal solitaire strategy. Imports ``game.rules`` only.

* :func:`choose_action` — the bot interface: what a bot of a given level does next.
* :func:`advisor` / :class:`CardState` / :class:`Choice` — the decision API: every legal hold
  and box of a turn with its expected final score (hints, analysis, ``manage.py advise``).
* :func:`get_solution` / :func:`build_table` / :func:`set_strategy_dir` — the solved tables on
  disk (see ``storage.py``).
"""

from .actions import LEVELS, Action, Roll, Score
from .advice import Advisor, CardState, Choice, advisor
from .bots import choose_action
from .storage import build_table, get_solution, set_strategy_dir, strategy_dir, table_path

__all__ = [
    "LEVELS", "Action", "Advisor", "CardState", "Choice", "Roll", "Score", "advisor",
    "build_table", "choose_action", "get_solution", "set_strategy_dir", "strategy_dir",
    "table_path",
]
