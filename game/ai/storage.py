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
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from game.rules import Ruleset
from game.rules.rulesets import JokerRule

from . import score_table
from .paths import strategy_dir
from .score_table import ScoreTable
from .scoring import ScoreTables, score_tables, solver_ruleset
from .solver import Solution, count_states, solve

#: 2: the second and third moments of the points to come (``second``, ``third``) beside the
#: values.
FORMAT_VERSION = 2

_cache: dict[tuple[str, str, str], Solution] = {}
_cache_lock = threading.Lock()
#: One lock per table, so that building (or waiting for) one table never holds up another.
_key_locks: dict[tuple[str, str, str], threading.Lock] = {}


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
    return _held(_lock_path(ruleset))


def _held(path: Path) -> bool:
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
    except (OSError, KeyError, ValueError, zipfile.BadZipFile):
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


def _progress_writer(progress_file: Path, total: int,
                     progress: Callable[[int], None] | None) -> Callable[[int], None]:
    """A build's progress callback: tells ``progress`` of every step and keeps
    ``progress_file`` up to date (every ``PROGRESS_EVERY`` seconds) for whoever waits."""
    done, last = 0, 0.0

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
    return step


def _solve_and_save(tables: ScoreTables, path: Path,
                    progress: Callable[[int], None] | None) -> tuple[Solution, float]:
    """Solve under the lock already held, keeping the progress file up to date."""
    progress_file = progress_path(tables.ruleset)
    step = _progress_writer(progress_file, count_states(tables), progress)
    try:
        start = time.perf_counter()
        solution = solve(tables, step)
        seconds = time.perf_counter() - start
        save_table(path, solution, seconds)
    finally:
        progress_file.unlink(missing_ok=True)
    return solution, seconds


def _lock_reporting(lock: Any, progress_file: Path,
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
            found = _read_progress(progress_file)
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
                _lock_reporting(lock, progress_path(ruleset), progress)
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
        _score_cache.clear()


# --- the score tables: each state's whole distribution of points to come (score_table.py) --

#: The score tables' own format; their file sits beside the strategy table's.
SCORES_VERSION = 1

_score_cache: dict[tuple[str, str, str], ScoreTable] = {}


def score_table_path(ruleset: Ruleset) -> Path:
    path = table_path(ruleset)
    return path.with_name(f"{path.stem}-scores-v{SCORES_VERSION}.npz")


def _score_key(ruleset: Ruleset) -> tuple[str, str, str]:
    return ruleset.name, ruleset.joker or "none", os.path.abspath(strategy_dir())


def _score_fingerprint(tables: ScoreTables) -> str:
    return hashlib.sha256(repr((fingerprint(tables), SCORES_VERSION, score_table.EXACT_LEVELS,
                                score_table.QUANTILES, score_table.CAP)).encode()).hexdigest()


def load_score_table(path: Path, tables: ScoreTables) -> ScoreTable | None:
    """The score table stored at ``path``, or None if it is missing, stale or unreadable."""
    try:
        with np.load(path, allow_pickle=False) as data:
            if str(data["fingerprint"]) != _score_fingerprint(tables):
                return None
            return ScoreTable(data["row"], data["exact_start"], data["exact_lo"],
                              data["exact_probs"], data["quantiles"], data["levels"],
                              int(data["exact_open"]))
    except (OSError, KeyError, ValueError, zipfile.BadZipFile):
        return None


def _build_score_table(solution: Solution, path: Path,
                       progress: Callable[[int], None] | None
                       ) -> tuple[ScoreTable, float, dict[str, Any]]:
    """Build under the lock already held, keeping the progress file up to date, and store."""
    progress_file = path.with_suffix(".progress")
    step = _progress_writer(progress_file, score_table.count_states(solution), progress)
    try:
        start = time.perf_counter()
        table, stats = score_table.build(solution, step)
        seconds = time.perf_counter() - start
        fd, tmp = tempfile.mkstemp(prefix=path.name, suffix=".tmp", dir=path.parent)
        try:
            os.chmod(tmp, 0o644)
            with os.fdopen(fd, "wb") as f:
                np.savez(f, row=table.row, exact_start=table.exact_start,
                         exact_lo=table.exact_lo, exact_probs=table.exact_probs,
                         quantiles=table.quantiles, levels=table.levels,
                         exact_open=np.int64(table.exact_open),
                         fingerprint=np.str_(_score_fingerprint(solution.tables)),
                         build_seconds=np.float64(seconds),
                         max_ks=np.float64(stats["max_ks"]),
                         mean_ks=np.float64(stats["mean_ks"]))
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
    finally:
        progress_file.unlink(missing_ok=True)
    return table, seconds, stats


def build_score_table(rules: str | Ruleset, joker: JokerRule | None = None,
                      progress: Callable[[int], None] | None = None
                      ) -> tuple[ScoreTable, float, dict[str, Any]]:
    """Build ``rules``' score table (its strategy table first if missing) and store it; returns
    it, the seconds taken and what the build measured (``score_table.build``)."""
    solution = get_solution(rules, joker)
    ruleset = solution.tables.ruleset
    path = score_table_path(ruleset)
    with open(path.with_suffix(".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        table, seconds, stats = _build_score_table(solution, path, progress)
    with _cache_lock:
        _score_cache[_score_key(ruleset)] = table
    return table, seconds, stats


def get_score_table(rules: str | Ruleset, joker: JokerRule | None = None,
                    progress: Callable[[int], None] | None = None) -> ScoreTable:
    """The score table for ``rules``, loaded once per process, built if missing (or waited
    for, reporting the builder's progress, when another process builds it)."""
    found = _score_table(rules, joker, progress, build=True)
    assert found is not None
    return found


def loaded_score_table(rules: str | Ruleset, joker: JokerRule | None = None
                       ) -> ScoreTable | None:
    """The score table for ``rules`` if it is built (loaded once per process), else None:
    never builds nor waits for a build (a room asks this)."""
    if not score_table_ready(rules, joker):
        return None
    ruleset = solver_ruleset(rules, joker)
    path = score_table_path(ruleset)
    try:
        stamp = path.stat().st_mtime_ns
    except OSError:
        stamp = None
    if stamp is not None and _unreadable.get(_score_key(ruleset)) == stamp:
        return None  # a stale or broken file, already tried: not read again every turn
    found = _score_table(rules, joker, None, build=False)
    if found is None and stamp is not None:
        _unreadable[_score_key(ruleset)] = stamp
    return found


#: Score table files found stale or unreadable, by their modification time.
_unreadable: dict[tuple[str, str, str], int] = {}


def _score_table(rules: str | Ruleset, joker: JokerRule | None,
                 progress: Callable[[int], None] | None, build: bool) -> ScoreTable | None:
    solution = get_solution(rules, joker, progress=progress)
    ruleset = solution.tables.ruleset
    key = _score_key(ruleset)
    with _cache_lock:
        key_lock = _key_locks.setdefault((f"{key[0]}:scores", key[1], key[2]),
                                         threading.Lock())
    with key_lock:
        cached = _score_cache.get(key)
        if cached is not None:
            return cached
        path = score_table_path(ruleset)
        table = load_score_table(path, solution.tables)
        if table is None and not build:
            return None
        if table is None:
            with open(path.with_suffix(".lock"), "a") as lock:
                _lock_reporting(lock, path.with_suffix(".progress"), progress)
                table = load_score_table(path, solution.tables)
                if table is None:
                    table = _build_score_table(solution, path, progress)[0]
        with _cache_lock:
            _score_cache[key] = table
        return table


def score_table_ready(rules: str | Ruleset, joker: JokerRule | None = None) -> bool:
    """Whether :func:`get_score_table` would answer without building anything."""
    ruleset = solver_ruleset(rules, joker)
    with _cache_lock:
        if _score_key(ruleset) in _score_cache:
            return True
    return table_ready(ruleset) and score_table_path(ruleset).exists()
