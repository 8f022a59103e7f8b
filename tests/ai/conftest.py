"""Strategy tables built once per test session, in the session's STRATEGY_DIR
(``strategy_dir`` in tests/conftest.py, shared with the browser tests)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from django.core.management import call_command

from game.ai import build_table, get_solution, set_strategy_dir
from game.ai.solver import Solution


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The first tests here build three strategy tables with their moments (yatzy alone takes
    ~3 min of CPU, far longer at a load of 8 on 2 cores): give the package a wider timeout."""
    for item in items:
        if item.nodeid.startswith("tests/ai/"):
            item.add_marker(pytest.mark.timeout(1800))


@pytest.fixture(scope="session")
def build_output(strategy_dir: Path) -> str:
    """The yahtzee table, built once through ``manage.py build_strategy``; its output."""
    out = io.StringIO()
    call_command("build_strategy", "--rules", "yahtzee", "--no-progress", stdout=out)
    return out.getvalue()


@pytest.fixture(scope="session")
def yahtzee_table(build_output: str) -> Solution:
    return get_solution("yahtzee")


@pytest.fixture(scope="session")
def free_joker_table(strategy_dir: Path) -> Solution:
    return build_table("yahtzee", "free")[0]


@pytest.fixture(scope="session")
def yatzy_table(strategy_dir: Path) -> Solution:
    return build_table("yatzy")[0]


@pytest.fixture(autouse=True)
def _tables_here(strategy_dir: Path) -> None:
    """Django's ready() (or another test) may have pointed game.ai elsewhere: point it back."""
    set_strategy_dir(strategy_dir)
