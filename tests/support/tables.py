"""The strategy tables of a test run, built once for all of its pytest-xdist workers.

Each table is up to a minute of CPU (minutes at a load of 8): one directory per run holds
them, shared by the workers (``make test`` runs two). A table is built by whichever worker
comes to it first, under the table's own lock (game.ai.storage); a worker that needs it
meanwhile waits for that lock and loads the file. So that no worker sits waiting, each worker
first builds its share of the tables the collected tests need (``build_share``), the largest
first, before it runs a test: with two workers one builds yatzy while the other builds yahtzee
and its free Joker.
"""

from __future__ import annotations

import io
from collections.abc import Iterable
from pathlib import Path

import pytest

from .workers import once_per_run, run_dir, xdist_worker

#: Which table each table fixture stands for, and the table's CPU seconds with one BLAS
#: thread (measured; they only share the builds out evenly).
TABLE_OF_FIXTURE = {"build_output": "yahtzee", "yahtzee_table": "yahtzee",
                    "free_joker_table": "free", "yatzy_table": "yatzy"}
BUILD_SECONDS = {"yatzy": 48, "yahtzee": 23, "free": 23}


def run_strategy_dir(factory: pytest.TempPathFactory) -> Path:
    """This run's table directory, one for all of its workers."""
    return run_dir(factory, "strategy")


def build_yahtzee(strategy_dir: Path) -> str:
    """The yahtzee table, built through ``manage.py build_strategy`` (its output is what the
    command's test reads), once per run."""

    def build() -> str:
        from django.core.management import call_command

        out = io.StringIO()
        call_command("build_strategy", "--rules", "yahtzee", "--no-progress", "--no-scores",
                     stdout=out)
        return out.getvalue()

    return once_per_run(strategy_dir / "build_strategy-yahtzee.out", build)


def ensure_table(strategy_dir: Path, table: str) -> None:
    """Build ``table`` into ``strategy_dir`` unless it is there (or wait for its builder)."""
    from game.ai import get_solution

    if table == "yahtzee":
        build_yahtzee(strategy_dir)
    elif table == "free":
        get_solution("yahtzee", "free")
    else:
        get_solution(table)


def needed_tables(items: Iterable[pytest.Item]) -> set[str]:
    return {TABLE_OF_FIXTURE[name] for item in items
            for name in getattr(item, "fixturenames", ()) if name in TABLE_OF_FIXTURE}


def share(tables: set[str], index: int, workers: int) -> list[str]:
    """This worker's part of ``tables``: the largest first (ties: in BUILD_SECONDS' order,
    yahtzee before the free Joker, more tests need it), each to the least loaded worker."""
    loads = [0] * workers
    mine = []
    for table in sorted((t for t in BUILD_SECONDS if t in tables), key=lambda t: -BUILD_SECONDS[t]):
        least = loads.index(min(loads))
        loads[least] += BUILD_SECONDS[table]
        if least == index:
            mine.append(table)
    return mine


def build_share(strategy_dir: Path, tables: set[str]) -> None:
    """Under xdist: build this worker's share of ``tables`` (see the module's docstring)."""
    from game.ai import set_strategy_dir

    worker = xdist_worker()
    if worker is None:
        return
    set_strategy_dir(strategy_dir)
    for table in share(tables, *worker):
        ensure_table(strategy_dir, table)
