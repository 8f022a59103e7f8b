"""The processes a benchmark run needs: its own Redis, a PostgreSQL database, Daphne servers.

Everything listens on 127.0.0.1 only, is started by us and stopped by us (by pid), and every
wait is bounded.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
VENV_BIN = Path(sys.executable).parent
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for_port(port: int, timeout: float = 30.0, proc: subprocess.Popen | None = None,
                  host: str = "127.0.0.1") -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            raise RuntimeError(f"process {proc.args!r} exited with {proc.returncode}")
        try:
            with socket.create_connection((host, port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.1)
    raise TimeoutError(f"nothing listens on {host}:{port} after {timeout:.0f} s")


#: How long a test waits for a server it is done with. On SIGTERM Daphne waits up to its
#: application close timeout (10 s) for sockets still open, and a test's peers never close:
#: ten seconds per test for nothing.
TEARDOWN_WAIT = 2.0


def stop(proc: subprocess.Popen, timeout: float = 10.0) -> None:
    """Terminate one process we started, then kill it if it will not go."""
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout)


def cpu_seconds(pid: int, thread: int | None = None) -> float:
    """User + system CPU time of a process so far, or of one of its threads (Linux /proc)."""
    path = f"/proc/{pid}/stat" if thread is None else f"/proc/{pid}/task/{thread}/stat"
    try:
        fields = Path(path).read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


def start_redis(port: int, log_path: Path) -> subprocess.Popen:
    """A redis-server of ours on 127.0.0.1:``port``, with nothing persisted."""
    exe = shutil.which("redis-server")
    if exe is None:
        raise RuntimeError("redis-server is not installed (scripts/ensure-services installs it)")
    with open(log_path, "ab") as log:  # the child keeps its own copy of the descriptor
        proc = subprocess.Popen(
            [exe, "--bind", "127.0.0.1", "--port", str(port), "--save", "", "--appendonly",
             "no", "--dir", str(log_path.parent), "--maxclients", "10000"],
            stdout=log, stderr=subprocess.STDOUT,
        )
    wait_for_port(port, 10, proc)
    return proc


@contextmanager
def redis_server(log_dir: Path) -> Iterator[str]:
    """A private redis-server on a free port (never the shared one); yields its URL."""
    port = free_port()
    proc = start_redis(port, log_dir / "redis.log")
    try:
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        stop(proc)


def ensure_postgres_db(admin_url: str, name: str, fresh: bool = True) -> str:
    """(Re)create database ``name`` on the server of ``admin_url``; return its URL."""
    import psycopg

    if not name.replace("_", "").isalnum():
        raise ValueError(f"unsafe database name {name!r}")
    with psycopg.connect(admin_url, autocommit=True) as conn:
        if fresh:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone()
        if not exists:
            conn.execute(f'CREATE DATABASE "{name}"')
    return admin_url.rsplit("/", 1)[0] + "/" + name


def migrate(env: dict[str, str], log_dir: Path) -> None:
    with open(log_dir / "migrate.log", "wb") as log:
        subprocess.run(
            [sys.executable, "manage.py", "migrate", "--noinput"], cwd=REPO, env=env,
            check=True, stdout=log, stderr=subprocess.STDOUT, timeout=300,
        )


@dataclass
class Servers:
    """Daphne processes serving one ASGI application, one port each."""

    ports: list[int]
    procs: list[subprocess.Popen] = field(default_factory=list)
    _cpu_mark: list[float] = field(default_factory=list)
    _loop_cpu_mark: list[float] = field(default_factory=list)
    _cpu_mark_time: float = 0.0

    def urls(self, scheme: str) -> list[str]:
        return [f"{scheme}://127.0.0.1:{p}" for p in self.ports]

    def mark_cpu(self) -> None:
        self._cpu_mark = [cpu_seconds(p.pid) for p in self.procs]
        self._loop_cpu_mark = [cpu_seconds(p.pid, p.pid) for p in self.procs]
        self._cpu_mark_time = time.monotonic()

    def cpu_since_mark(self) -> float:
        """CPU seconds all servers used since :meth:`mark_cpu`."""
        return sum(cpu_seconds(p.pid) - m
                   for p, m in zip(self.procs, self._cpu_mark, strict=True))

    def loop_cpu_since_mark(self) -> float:
        """CPU seconds the servers' main threads (each one's event loop) used since
        :meth:`mark_cpu`; the rest is their other threads' (the database threads and the
        insight's)."""
        return sum(cpu_seconds(p.pid, p.pid) - m
                   for p, m in zip(self.procs, self._loop_cpu_mark, strict=True))

    def cores_since_mark(self) -> float:
        """Mean CPU cores all servers used since :meth:`mark_cpu`."""
        return self.cpu_since_mark() / max(time.monotonic() - self._cpu_mark_time, 1e-9)

    def check_alive(self) -> None:
        for p in self.procs:
            if p.poll() is not None:
                raise RuntimeError(f"daphne {p.pid} died with exit code {p.returncode}")


def start_daphne(
    application: str, port: int, env: dict[str, str], log_path: Path, wait: bool = True,
    options: tuple[str, ...] = (), cpu: int | None = None,
) -> subprocess.Popen:
    """One Daphne on 127.0.0.1:``port`` serving ``application`` (module:attribute); with
    ``cpu``, pinned to that core as the README's production recipe runs it (``taskset``)."""
    pin = []
    if cpu is not None:
        taskset = shutil.which("taskset")
        if taskset is None:
            raise RuntimeError("Pinning a server to a core needs taskset (util-linux); "
                               "without it, run with --no-pin.")
        pin = [taskset, "-c", str(cpu)]
    with open(log_path, "ab") as log:
        proc = subprocess.Popen(
            [*pin, str(VENV_BIN / "daphne"), "-b", "127.0.0.1", "-p", str(port), "-v", "1",
             *options, application],
            cwd=REPO, env=env, stdout=log, stderr=subprocess.STDOUT,
        )
    if wait:
        wait_for_port(port, 60, proc)
    return proc


def server_cores(count: int) -> list[int]:
    """A core of its own for each of ``count`` servers (from the last core this process may
    use, where the measured runs put one server; round again when there are more servers)."""
    cores = sorted(os.sched_getaffinity(0), reverse=True)
    return [cores[i % len(cores)] for i in range(count)]


@contextmanager
def daphne_servers(
    application: str, count: int, env: dict[str, str], log_dir: Path, tag: str, *, pin: bool,
) -> Iterator[Servers]:
    """``count`` Daphnes, each pinned to a core of its own unless ``pin`` is false."""
    servers = Servers(ports=[free_port() for _ in range(count)])
    cores: list[int | None] = list(server_cores(count)) if pin else [None] * count
    try:
        for i, (port, cpu) in enumerate(zip(servers.ports, cores, strict=True)):
            servers.procs.append(
                start_daphne(application, port, env, log_dir / f"daphne-{tag}-{i}.log",
                             wait=False, cpu=cpu)
            )
        for port, proc in zip(servers.ports, servers.procs, strict=True):
            wait_for_port(port, 60, proc)
        yield servers
    finally:
        for proc in servers.procs:
            stop(proc)
