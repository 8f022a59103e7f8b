"""Strategy tables on disk: versioned files, built once, loaded lazily, safe across processes.

A table lives in ``<strategy dir>/<rules>-<joker>-v<FORMAT_VERSION>.npz`` (for example
``yahtzee-forced-v2.npz``). The directory comes from :func:`set_strategy_dir` (Django calls it
with ``settings.STRATEGY_DIR``), else the ``STRATEGY_DIR`` environment variable, else
``./var/strategy``. A missing, stale (other format or other rules) or unreadable file is
rebuilt; builders take an exclusive lock and publish with an atomic rename, so several
processes can ask at once and none ever reads a half-written table.

A build takes a minute or more, so nobody waits on one blind: the builder keeps
``<table>.progress`` (states done and to do) up to date while it holds the lock, whoever waits
for the lock (:func:`get_solution` in another process or thread) reports that progress to its
own ``progress`` callback, and :func:`build_progress` tells anyone (the room's turn driver) how
far a build under way has come.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from game.rules import Ruleset
from game.rules.rulesets import JokerRule

from .scoring import ScoreTables, score_tables, solver_ruleset
from .solver import Solution, count_states, solve

#: 2: the second and third moments of the points to come (``second``, ``third``) beside the
#: values.
FORMAT_VERSION = 2

_strategy_dir: Path | None = None
_cache: dict[tuple[str, str, str], Solution] = {}
_cache_lock = threading.Lock()
#: One lock per table, so that building (or waiting for) one table never holds up another.
_key_locks: dict[tuple[str, str, str], threading.Lock] = {}


def set_strategy_dir(path: str | os.PathLike[str] | None) -> None:
    """Where tables are kept from now on (``None``: back to the environment's default)."""
    global _strategy_dir
    _strategy_dir = Path(path) if path is not None else None


def strategy_dir() -> Path:
    if _strategy_dir is not None:
        return _strategy_dir
    return Path(os.environ.get("STRATEGY_DIR") or Path("var") / "strategy")


def table_path(ruleset: Ruleset) -> Path:
    return strategy_dir() / f"{ruleset.name}-{ruleset.joker or 'none'}-v{FORMAT_VERSION}.npz"


def progress_path(ruleset: Ruleset) -> Path:
    return table_path(ruleset).with_suffix(".progress")


def _lock_path(ruleset: Ruleset) -> Path:
    return table_path(ruleset).with_suffix(".lock")


#: How often a builder rewrites its progress file, and a waiter reads it (seconds).
PROGRESS_EVERY = 0.5


def _write_progress(path: Path, done: int, total: int) -> None:
    tmp = path.with_suffix(f".progress.{os.getpid()}.{threading.get_ident()}")
    tmp.write_text(json.dumps({"done": done, "total": total}))
    os.replace(tmp, path)


def _read_progress(path: Path) -> tuple[int, int] | None:
    try:
        data = json.loads(path.read_text())
        return int(data["done"]), int(data["total"])
    except (OSError, ValueError, KeyError, TypeError):
        return None


def _lock_held(ruleset: Ruleset) -> bool:
    """Whether some builder (any process, any thread) holds the table's lock right now."""
    path = _lock_path(ruleset)
    if not path.exists():
        return False
    try:
        with open(path, "a") as lock:
            try:
                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                return True
            fcntl.flock(lock, fcntl.LOCK_UN)
            return False
    except OSError:
        return False


def build_progress(rules: str | Ruleset, joker: JokerRule | None = None) -> float | None:
    """How far (0–100 %) the build of ``rules``' table has come, if one is under way in any
    process; None when nobody builds it (it is on disk, or nobody asked for it yet)."""
    ruleset = solver_ruleset(rules, joker)
    if not _lock_held(ruleset):
        return None
    found = _read_progress(progress_path(ruleset))
    if found is None or found[1] <= 0:
        return 0.0
    return min(100.0, 100.0 * found[0] / found[1])


def fingerprint(tables: ScoreTables) -> str:
    """A digest of everything the table depends on, so a change of rules forces a rebuild."""
    rs = tables.ruleset
    h = hashlib.sha256()
    h.update(repr((rs.box_names, rs.upper_bonus, rs.upper_bonus_threshold, rs.yahtzee_box,
                   rs.yahtzee_bonus, rs.joker, FORMAT_VERSION)).encode())
    for array in (tables.base, tables.joker_points, tables.joker_legal):
        if array is not None:
            h.update(np.ascontiguousarray(array).tobytes())
    return h.hexdigest()


def load_table(path: Path, tables: ScoreTables) -> Solution | None:
    """The table stored at ``path``, or None if it is missing, stale or unreadable."""
    try:
        with np.load(path, allow_pickle=False) as data:
            if int(data["format_version"]) != FORMAT_VERSION:
                return None
            if str(data["fingerprint"]) != fingerprint(tables):
                return None
            return Solution(tables, data["values"], data["second"], data["third"])
    except (OSError, KeyError, ValueError):
        return None


def save_table(path: Path, solution: Solution, seconds: float) -> None:
    """Write atomically: a temporary file in the same directory, then a rename."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=path.name, suffix=".tmp", dir=path.parent)
    try:
        os.chmod(tmp, 0o644)  # readable by the server processes, like any data file
        with os.fdopen(fd, "wb") as f:
            np.savez(
                f,
                values=solution.values,
                second=solution.second,
                third=solution.third,
                format_version=np.int64(FORMAT_VERSION),
                fingerprint=np.str_(fingerprint(solution.tables)),
                rules=np.str_(solution.tables.ruleset.name),
                joker=np.str_(solution.tables.ruleset.joker or "none"),
                build_seconds=np.float64(seconds),
            )
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _solve_and_save(tables: ScoreTables, path: Path,
                    progress: Callable[[int], None] | None) -> tuple[Solution, float]:
    """Solve under the lock already held, keeping the progress file up to date."""
    progress_file = progress_path(tables.ruleset)
    total = count_states(tables)
    done = 0
    last = 0.0

    def step(n: int) -> None:
        nonlocal done, last
        done += n
        if progress:
            progress(n)
        now = time.monotonic()
        if now - last >= PROGRESS_EVERY:
            last = now
            _write_progress(progress_file, done, total)

    _write_progress(progress_file, 0, total)
    try:
        start = time.perf_counter()
        solution = solve(tables, step)
        seconds = time.perf_counter() - start
        save_table(path, solution, seconds)
    finally:
        progress_file.unlink(missing_ok=True)
    return solution, seconds


def _lock_reporting(lock: Any, ruleset: Ruleset,
                    progress: Callable[[int], None] | None) -> None:
    """Take the exclusive lock; while another builder holds it, pass its progress on."""
    if progress is None:
        fcntl.flock(lock, fcntl.LOCK_EX)
        return
    told = 0
    while True:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return
        except BlockingIOError:
            found = _read_progress(progress_path(ruleset))
            if found is not None and found[0] > told:
                progress(found[0] - told)
                told = found[0]
            time.sleep(PROGRESS_EVERY)


def build_table(
    rules: str | Ruleset,
    joker: JokerRule | None = None,
    progress: Callable[[int], None] | None = None,
) -> tuple[Solution, float]:
    """Solve ``rules`` and store the table (under the lock); returns it and the seconds taken."""
    tables = score_tables(solver_ruleset(rules, joker))
    path = table_path(tables.ruleset)
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(_lock_path(tables.ruleset), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        solution, seconds = _solve_and_save(tables, path, progress)
    _remember(tables.ruleset, solution)
    return solution, seconds


def get_solution(
    rules: str | Ruleset,
    joker: JokerRule | None = None,
    progress: Callable[[int], None] | None = None,
) -> Solution:
    """The table for ``rules`` (one column), loaded once per process, built if missing.

    ``progress(n)`` hears of every ``n`` states solved, by this call or by another process
    building the same table meanwhile (the call then waits for it and loads its table).
    """
    ruleset = solver_ruleset(rules, joker)
    key = (ruleset.name, ruleset.joker or "none", os.path.abspath(strategy_dir()))
    with _cache_lock:
        key_lock = _key_locks.setdefault(key, threading.Lock())
    with key_lock:
        cached = _cache.get(key)
        if cached is not None:
            return cached
        tables = score_tables(ruleset)
        path = table_path(ruleset)
        solution = load_table(path, tables)
        if solution is None:
            path.parent.mkdir(parents=True, exist_ok=True)
            with open(_lock_path(ruleset), "a") as lock:
                _lock_reporting(lock, ruleset, progress)
                # Another process may have built it while we waited for the lock.
                solution = load_table(path, tables)
                if solution is None:
                    solution, _ = _solve_and_save(tables, path, progress)
        with _cache_lock:
            _cache[key] = solution
        return solution


def table_ready(rules: str | Ruleset, joker: JokerRule | None = None) -> bool:
    """Whether :func:`get_solution` would answer without building (loaded, or on disk)."""
    ruleset = solver_ruleset(rules, joker)
    key = (ruleset.name, ruleset.joker or "none", os.path.abspath(strategy_dir()))
    with _cache_lock:
        if key in _cache:
            return True
    return table_path(ruleset).exists()


def _remember(ruleset: Ruleset, solution: Solution) -> None:
    key = (ruleset.name, ruleset.joker or "none", os.path.abspath(strategy_dir()))
    with _cache_lock:
        _cache[key] = solution


def forget_loaded() -> None:
    """Drop the tables loaded in this process (tests, or after changing the directory)."""
    with _cache_lock:
        _cache.clear()
