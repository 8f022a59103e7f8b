"""The suite's own scheduling: under ``make test``'s workers (pytest-xdist, ``--dist
loadgroup``), the tests of a module that share a module-scoped fixture run on one worker
(tests/conftest.py), so the fixture is made once. Were the groups lost (as pytest 9.2 loses
them unless tests/support/xdist_groups.py carries them over), these tests would be shared out
among the workers and find another process than the fixture's."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.support.workers import run_dir


@pytest.fixture(scope="module")
def made_by(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Each process that makes this fixture adds its pid to a file that all the run's workers
    share."""
    record = run_dir(tmp_path_factory, "suite-groups") / "made-by"
    with record.open("a") as out:
        out.write(f"{os.getpid()}\n")
    return record


@pytest.mark.parametrize("test", range(8))
def test_a_modules_tests_run_where_its_fixture_was_made(made_by: Path, test: int) -> None:
    assert made_by.read_text().split() == [str(os.getpid())]
