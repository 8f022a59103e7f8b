"""The heads-up ceiling: how often a player who knows the optimal bot's final score beats it.

The optimal bot plays for points, so its final score T is distributed as optimal solitaire play
makes it (:func:`optimal_final`, exact from the empty card). A player who is told T before
the game and then plays to finish above it (``targets.py``: the best chance from every state
for every number of points needed) wins with ``chance(empty card, T)``; averaged over T that is
the **ceiling** (:func:`ceiling`): no way of playing against the optimal bot — seeing its card
turn by turn instead of knowing its final score — can win more often. Seats do not matter: the
two columns never interact, so who plays first changes nothing.

Both tie conventions are kept: ties as halves (the site's: a tie is half a win) and strict
wins (a tie a loss, the convention of the published Yatzy figure); each is its own dynamic
programme, since the best play differs.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import tempfile
import threading
import time
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from game.rules import Ruleset

from . import score_table
from .paths import strategy_dir
from .scoring import FloatArray
from .solver import Solution, _states, reachable_uppers
from .storage import FORMAT_VERSION, fingerprint
from .targets import TAIL, TargetTable, solve

#: The ceiling files' own format.
CEILING_VERSION = 1
#: Final scores of the optimal bot above the smallest one beyond which less than this chance
#: is left are not played for (they count as lost): the ceiling is low by at most this.
TOP = 1e-6


def optimal_final(solution: Solution, progress: Callable[[int], None] | None = None
                  ) -> FloatArray:
    """The chance of each final score 0, 1, … of optimal (points-maximising) play from the
    empty card: the score table's level-by-level mixture (``score_table.py``) kept whole for
    the one state wanted. Points past ``score_table.CAP`` count there; float32 sums,
    renormalised."""
    t = solution.tables
    values = solution.values
    full = t.full
    dist = np.ones((1, 1), dtype=np.float32)
    level_row = np.zeros(values.shape, dtype=np.int64)
    uppers = reachable_uppers(t)
    upper_bits = sum(1 << b for b, f in enumerate(t.upper_face) if f)
    by_level: list[list[int]] = [[] for _ in range(t.n_boxes + 1)]
    for mask in range(full):
        by_level[mask.bit_count()].append(mask)
    gain_most = int(t.base.max()) + t.ruleset.upper_bonus + t.ruleset.yahtzee_bonus
    for filled in range(t.n_boxes - 1, -1, -1):
        m, u, y, cm, cu, cy, cfrom = _states(t, by_level[filled], uppers, upper_bits)
        width = min(score_table.CAP + 1, dist.shape[1] + gain_most)
        new = np.zeros((len(m), width), dtype=np.float32)
        for a in range(0, len(m), score_table.CHUNK):
            part = slice(a, min(len(m), a + score_table.CHUNK))
            ended, gain, am, au, ay = score_table.turn_endings(solution, m[part], u[part], y[part])
            new[part] = score_table._mix_level(ended, gain, level_row[am, au, ay], dist, width)
            if progress:
                progress(part.stop - part.start)
        here = np.zeros(values.shape, dtype=np.int64)
        here[m, u, y] = np.arange(len(m))
        here[cm, cu, cy] = here[cm, cfrom, cy]
        dist, level_row = new, here
    final = dist[int(level_row[0, 0, 0])].astype(np.float64)
    return np.asarray(final / final.sum())


def most_needed(final: FloatArray) -> int:
    """The largest final score played for: past it less than ``TOP`` of the chance is left."""
    left = final[::-1].cumsum()[::-1]  # left[k]: the chance of k or more
    beyond = np.nonzero(left >= TOP)[0]
    return int(beyond[-1])


@dataclass(frozen=True)
class Ceiling:
    """The ceiling under one tie convention, and how exact it is."""

    rules: str
    tie: float
    #: Σ_T P(T) · chance(empty, T): the clairvoyant's wins plus ``tie`` × its ties.
    share: float
    #: The chance the optimal bot finishes above the table's ``most`` (counted as lost).
    unplayed: float
    #: The share is low by at most this (``TAIL`` per level, and the unplayed scores).
    error: float


def ceiling(rules: str, table: TargetTable, final: FloatArray, levels: int) -> Ceiling:
    """The clairvoyant's share against final scores distributed as ``final`` (``levels``: the
    boxes of a column, each level of the table losing at most ``TAIL``)."""
    chances = table.chances((0, 0, 0), len(final))
    unplayed = float(final[table.most + 1:].sum())
    return Ceiling(rules, table.tie, float(final @ chances), unplayed,
                   unplayed + levels * TAIL)


# --- on disk -----------------------------------------------------------------------------

def ceiling_path(ruleset: Ruleset, tie: float) -> Path:
    ties = "halves" if tie == 0.5 else "lost" if tie == 0 else f"tie{tie:g}"
    return strategy_dir() / (f"{ruleset.name}-{ruleset.joker or 'none'}-v{FORMAT_VERSION}"
                             f"-ceiling-{ties}-v{CEILING_VERSION}.npz")


def _fingerprint(solution: Solution, tie: float) -> str:
    from . import targets
    return hashlib.sha256(repr((fingerprint(solution.tables), CEILING_VERSION, tie, TOP,
                                targets.TAIL, score_table.CAP)).encode()).hexdigest()


def final_path(ruleset: Ruleset) -> Path:
    return strategy_dir() / (f"{ruleset.name}-{ruleset.joker or 'none'}-v{FORMAT_VERSION}"
                             f"-final-v{CEILING_VERSION}.npz")


def _final_fingerprint(solution: Solution) -> str:
    return hashlib.sha256(repr((fingerprint(solution.tables), CEILING_VERSION,
                                score_table.CAP, score_table.TAIL)).encode()).hexdigest()


def get_final(solution: Solution, path: Path,
              progress: Callable[[int], None] | None = None) -> tuple[FloatArray, bool]:
    """The optimal bot's final-score distribution stored at ``path``, else computed and stored
    there (each tie convention's build reads the same); whether it was computed."""
    try:
        with np.load(path, allow_pickle=False) as data:
            if str(data["fingerprint"]) == _final_fingerprint(solution):
                return data["final"], False
    except (OSError, KeyError, ValueError, zipfile.BadZipFile):
        pass
    final = optimal_final(solution, progress)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=path.name, suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            np.savez(f, final=final, fingerprint=np.str_(_final_fingerprint(solution)))
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return final, True


def save(path: Path, solution: Solution, table: TargetTable, final: FloatArray,
         seconds: float) -> None:
    """Write atomically (a temporary file, then a rename), under the table's lock."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path.with_suffix(".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        fd, tmp = tempfile.mkstemp(prefix=path.name, suffix=".tmp", dir=path.parent)
        try:
            os.chmod(tmp, 0o644)
            with os.fdopen(fd, "wb") as f:
                np.savez(f, row=table.row, start=table.start, lo=table.lo,
                         values=table.values, tie=np.float64(table.tie),
                         most=np.int64(table.most), final=final,
                         fingerprint=np.str_(_fingerprint(solution, table.tie)),
                         build_seconds=np.float64(seconds))
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise


def load(path: Path, solution: Solution, tie: float, mmap: bool = False
         ) -> tuple[TargetTable, FloatArray] | None:
    """The table and the optimal bot's final-score distribution stored at ``path``, or None
    if missing, stale or unreadable. ``mmap``: the arrays are mapped from the file, not read
    (``np.savez`` stores its members uncompressed): a process pays only for the rows it
    reads, and processes on one machine share the pages."""
    try:
        with np.load(path, allow_pickle=False) as data:
            if str(data["fingerprint"]) != _fingerprint(solution, tie):
                return None
            arrays = _mapped(path, _ARRAYS) if mmap else {k: data[k] for k in _ARRAYS}
            table = TargetTable(arrays["row"], arrays["start"], arrays["lo"], arrays["values"],
                                float(data["tie"]), int(data["most"]))
            return table, data["final"]
    except (OSError, KeyError, ValueError, zipfile.BadZipFile):
        return None


_ARRAYS = ("row", "start", "lo", "values")


def _mapped(path: Path, names: tuple[str, ...]) -> dict[str, np.ndarray]:
    """The ``.npy`` members ``names`` of the uncompressed ``.npz`` at ``path``, memory-mapped
    where they lie in the zip (its local header, then the ``.npy`` header, then the data)."""
    out: dict[str, np.ndarray] = {}
    with zipfile.ZipFile(path) as z, open(path, "rb") as f:
        for name in names:
            info = z.getinfo(f"{name}.npy")
            if info.compress_type != zipfile.ZIP_STORED:
                raise ValueError(f"{path}: {name} is compressed, it cannot be mapped.")
            f.seek(info.header_offset)
            local = f.read(30)
            if local[:4] != b"PK\x03\x04":
                raise ValueError(f"{path}: no local header for {name}.")
            f.seek(info.header_offset + 30 + int.from_bytes(local[26:28], "little")
                   + int.from_bytes(local[28:30], "little"))
            fmt = np.lib.format
            version = fmt.read_magic(f)
            if version not in ((1, 0), (2, 0)):
                raise ValueError(f"{path}: {name} has .npy format {version}.")
            read = fmt.read_array_header_1_0 if version == (1, 0) else fmt.read_array_header_2_0
            shape, fortran, dtype = read(f)
            out[name] = np.memmap(path, dtype=dtype, mode="r", offset=f.tell(), shape=shape,
                                  order="F" if fortran else "C")
    return out


#: Tables loaded by this process, by (rules, Joker, tie, strategy directory); None: missing.
_loaded: dict[tuple[str, str, float, str], TargetTable | None] = {}
_loaded_lock = threading.Lock()
#: The modification time of each table file last found stale or unreadable: not read again.
_unreadable: dict[tuple[str, str, float, str], int] = {}


def loaded(solution: Solution, tie: float = 0.5) -> TargetTable | None:
    """The ceiling table for ``solution``'s rules, mapped once per process, or None while there
    is none on disk (looked for again at each call: cheap), never built here."""
    ruleset = solution.tables.ruleset
    key = (ruleset.name, ruleset.joker or "none", tie, os.path.abspath(strategy_dir()))
    with _loaded_lock:
        found = _loaded.get(key)
        if found is not None:
            return found
        path = ceiling_path(ruleset, tie)
        try:
            stamp = path.stat().st_mtime_ns
        except OSError:
            return None
        if _unreadable.get(key) == stamp:
            return None
        stored = load(path, solution, tie, mmap=True)
        if stored is None:
            _unreadable[key] = stamp
            return None
        _loaded[key] = stored[0]
        return stored[0]


def forget_loaded() -> None:
    """Drop the tables mapped by this process (tests)."""
    with _loaded_lock:
        _loaded.clear()
        _unreadable.clear()


def build(solution: Solution, tie: float, progress: Callable[[int], None] | None = None,
          final: FloatArray | None = None, workers: int = 1
          ) -> tuple[TargetTable, FloatArray, float]:
    """The optimal bot's final distribution (unless given) and the table for ``tie``; the
    seconds taken. Nothing is stored (:func:`save`)."""
    start = time.perf_counter()
    if final is None:
        final = optimal_final(solution, progress)
    table = solve(solution, most_needed(final), tie, progress, workers=workers)
    return table, final, time.perf_counter() - start
