"""The other strategy tables, built once per test session in the session's STRATEGY_DIR
(``strategy_dir`` and the yahtzee table are in tests/conftest.py, shared with every folder)."""

from __future__ import annotations

from pathlib import Path

import pytest

from game.ai import build_table
from game.ai.solver import Solution


@pytest.fixture(scope="session")
def free_joker_table(strategy_dir: Path) -> Solution:
    return build_table("yahtzee", "free")[0]

