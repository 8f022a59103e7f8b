"""Where the app's servers spend their time during the measured moves (``--profile``):
py-spy samples each server process from the first move to the last (``--nonblocking``: the
process is never paused, so the latencies measured beside it stay honest) and writes its
collapsed stacks; :func:`summary` turns them into the functions that took the samples.

``python -m benchmarks.load.profile <stacks.txt> …`` prints a saved profile's summary again.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

from .services import VENV_BIN, stop

#: Samples per second per process: enough for a 30-s run, cheap beside a Daphne.
RATE = 200


def py_spy() -> str:
    found = shutil.which("py-spy", path=str(VENV_BIN)) or shutil.which("py-spy")
    if found is None:
        raise RuntimeError("--profile needs py-spy (requirements-dev.txt)")
    return found


def start(pid: int, out: Path, seconds: float) -> subprocess.Popen:
    """Sample process ``pid`` (its threads, idle ones left out) for ``seconds`` into ``out``."""
    return subprocess.Popen(
        [py_spy(), "record", "--pid", str(pid), "--rate", str(RATE), "--nonblocking",
         "--threads", "--format", "raw", "--duration", str(max(1, round(seconds))),
         "--output", str(out)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def finish(proc: subprocess.Popen, timeout: float = 30.0) -> None:
    """Wait for a recorder to write its file (it stops by itself after its duration)."""
    try:
        proc.wait(timeout)
    except subprocess.TimeoutExpired:
        stop(proc)


def read_stacks(path: Path) -> list[tuple[list[str], int]]:
    """Collapsed stacks (``frame;frame;… count``), outermost first."""
    stacks = []
    for line in path.read_text().splitlines():
        stack, _, count = line.rpartition(" ")
        if stack and count.isdigit():
            stacks.append((stack.split(";"), int(count)))
    return stacks


def _short(frame: str) -> str:
    """``func (path/to/module.py:12)`` → ``func (module.py)``: one row per function."""
    name, _, where = frame.partition(" (")
    file = where.rsplit(":", 1)[0].rstrip(")")
    return f"{name} ({Path(file).name})" if file else name


def summary(path: Path, top: int = 25) -> str:
    """The functions that took the most samples, on their own and with what they called, and
    the samples per thread, as percentages of all samples."""
    stacks = read_stacks(path)
    total = sum(n for _, n in stacks) or 1
    own: Counter[str] = Counter()
    inclusive: Counter[str] = Counter()
    threads: Counter[str] = Counter()
    for frames, n in stacks:
        thread = frames[0] if frames and frames[0].startswith(("thread", "process")) else ""
        threads[thread.split(" ")[0] + " " + thread.split(" ")[-1] if thread else "?"] += n
        funcs = [_short(f) for f in frames if not f.startswith(("thread", "process"))]
        if funcs:
            own[funcs[-1]] += n
        for f in set(funcs):
            inclusive[f] += n
    lines = [f"{path.name}: {total} samples"]
    lines.append("threads: " + ", ".join(f"{t} {100 * n / total:.0f} %"
                                         for t, n in threads.most_common(8)))
    lines.append(f"{'with callees':>13} {'own':>6}  function")
    for func, n in inclusive.most_common(top):
        lines.append(f"{100 * n / total:12.1f}% {100 * own[func] / total:5.1f}%  {func}")
    lines.append("most own samples:")
    for func, n in own.most_common(top):
        lines.append(f"{100 * n / total:12.1f}%  {func}")
    return "\n".join(lines)


if __name__ == "__main__":
    for name in sys.argv[1:]:
        print(summary(Path(name)))
