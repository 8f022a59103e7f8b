"""The free Joker's strategy table, built once per test run in the run's STRATEGY_DIR
(``strategy_dir``, the yahtzee and yatzy tables are in tests/conftest.py, shared with every
folder).
Loaded when another xdist worker built them (or waited for while it builds them)."""

from __future__ import annotations

from pathlib import Path

import pytest

from game.ai import get_solution
from game.ai.solver import Solution


@pytest.fixture(scope="session")
def free_joker_table(strategy_dir: Path) -> Solution:
    return get_solution("yahtzee", "free")
