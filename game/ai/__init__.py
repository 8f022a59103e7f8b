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

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

from .actions import LEVELS, TABLE_LEVELS, Action, Roll, Score

if TYPE_CHECKING:
    from .advice import Advisor, CardState, Choice, Estimate, advisor
    from .bots import choose_action
    from .paths import set_strategy_dir, strategy_dir
    from .standings import Standing, Standings
    from .standings import supported as standings_supported
    from .storage import build_table, get_solution, table_path, table_ready
    from .win_chances import win_chances

# The levels and actions are light; everything else loads numpy and the solver, so it is
# imported on first use: ``game.models`` (field choices) must not pay for the whole AI.
_LAZY = {
    "Advisor": "advice", "CardState": "advice", "Choice": "advice", "Estimate": "advice",
    "advisor": "advice", "choose_action": "bots", "Standing": "standings",
    "Standings": "standings", "standings_supported": "standings", "build_table": "storage",
    "get_solution": "storage", "set_strategy_dir": "paths", "strategy_dir": "paths",
    "table_path": "storage", "table_ready": "storage", "win_chances": "win_chances",
}
_RENAMED = {"standings_supported": "supported"}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(f".{module}", __name__), _RENAMED.get(name, name))
    globals()[name] = value
    return value


__all__ = [
    "LEVELS", "TABLE_LEVELS", "Action", "Advisor", "CardState", "Choice", "Estimate", "Roll",
    "Score", "Standing", "Standings", "advisor", "build_table", "choose_action", "get_solution",
    "set_strategy_dir", "standings_supported", "strategy_dir", "table_path", "table_ready",
    "win_chances",
]
