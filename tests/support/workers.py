"""What the pytest-xdist workers of one test run share (``make test`` runs two).

Each worker has its own test database and temp dirs; a file that several of them would make
(a strategy table, a build into the repository's tree) is made once: the first worker to ask
makes it under a lock, the others wait for the lock and find it made.
"""

from __future__ import annotations

import fcntl
import os
from collections.abc import Callable
from pathlib import Path

import pytest


def xdist_worker() -> tuple[int, int] | None:
    """(this worker's index, the number of workers) under pytest-xdist, else None."""
    name = os.environ.get("PYTEST_XDIST_WORKER", "")
    if not name.startswith("gw"):
        return None
    return int(name[2:]), int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1"))


def run_dir(factory: pytest.TempPathFactory, name: str) -> Path:
    """A directory of this test run shared by its workers: beside their own temp dirs (each
    worker's basetemp is ``<the run's basetemp>/gwN``); a temp dir of its own without xdist."""
    if xdist_worker() is None:
        return factory.mktemp(name)
    path = factory.getbasetemp().parent / name
    path.mkdir(exist_ok=True)
    return path


def once_per_run(path: Path, make: Callable[[], str]) -> str:
    """``make()``'s text, made by the first worker to ask and kept in ``path`` (in a
    ``run_dir``); a worker that asks while it is being made waits for it."""
    with open(path.with_name(path.name + ".lock"), "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if path.exists():
            return path.read_text()
        text = make()
        tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
        tmp.write_text(text)
        os.replace(tmp, path)
        return text
