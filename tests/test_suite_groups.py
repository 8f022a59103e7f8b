"""The suite's own scheduling: under ``make test``'s workers (pytest-xdist, ``--dist
loadgroup``), the tests of a module that share a module-scoped fixture run on one worker
(tests/conftest.py), so the fixture is made once. Were the groups lost, as pytest 9.2 loses
them with xdist 3.8, these tests would be shared out among the workers and find another
process than the fixture's."""

from __future__ import annotations

import os

import pytest


@pytest.fixture(scope="module")
def made_by() -> int:
    return os.getpid()


@pytest.mark.parametrize("test", range(8))
def test_a_modules_tests_run_where_its_fixture_was_made(made_by: int, test: int) -> None:
    assert os.getpid() == made_by
