"""Real processes for the fault tests: a private Redis and Daphne servers over a SQLite file.

Nothing here is mocked: each :class:`Site` is a copy of a migrated database, its own
redis-server on a free loopback port (never the shared one), and Daphne processes serving
``yahtzee_site.asgi`` that the tests kill and restart at will.
"""

from __future__ import annotations

import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from benchmarks.load.services import start_redis
from tests.support.servers import REPO, TEARDOWN_WAIT, free_port, serve, stop


def wait_until(condition: Callable[[], bool], within: float, what: str) -> None:
    """Poll until what the processes did shows (a stored row, a worker gone), or fail."""
    deadline = time.monotonic() + within
    while not condition():
        assert time.monotonic() < deadline, f"not within {within} s: {what}"
        time.sleep(0.1)


def site_env(data_dir: Path, redis_url: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if k not in ("DJANGO_SETTINGS_MODULE", "DATABASE_URL", "DATA_DIR", "REDIS_URL")}
    env.update(
        DATA_DIR=str(data_dir), REDIS_URL=redis_url, DJANGO_SETTINGS_MODULE="yahtzee_site.settings",
        DEBUG="false", DICE_SEED="faults", BOT_DELAY="0", AWAY_GRACE="3600",
        LOG_LEVEL="WARNING", PYTHONUNBUFFERED="1", STATIC_FROM_SOURCE="on",
    )
    return env


def migrated_template(path: Path) -> Path:
    """A data dir holding a migrated SQLite database (made once, then copied per site)."""
    path.mkdir(parents=True, exist_ok=True)
    with open(path / "migrate.log", "wb") as log:
        subprocess.run(
            [sys.executable, "manage.py", "migrate", "--noinput"], cwd=REPO,
            env=site_env(path, ""), check=True, stdout=log, stderr=subprocess.STDOUT,
            timeout=300,
        )
    return path


@dataclass
class Site:
    """The app on one machine: Redis, Daphne servers, and the SQLite file they share."""

    data_dir: Path
    redis_port: int = field(default_factory=free_port)
    redis: subprocess.Popen | None = None
    ports: list[int] = field(default_factory=list)
    daphnes: list[subprocess.Popen | None] = field(default_factory=list)
    #: Settings for this site's servers beyond ``site_env``, and options for Daphne itself.
    env: dict[str, str] = field(default_factory=dict)
    daphne_options: tuple[str, ...] = ()

    @classmethod
    def create(cls, template: Path, data_dir: Path, servers: int = 1,
               env: dict[str, str] | None = None, daphne_options: tuple[str, ...] = ()) -> Site:
        shutil.copytree(template, data_dir)
        site = cls(data_dir, env=env or {}, daphne_options=daphne_options)
        site.start_redis()
        for _ in range(servers):
            site.ports.append(free_port())
            site.daphnes.append(None)
            site.start_daphne(len(site.ports) - 1)
        return site

    @property
    def redis_url(self) -> str:
        return f"redis://127.0.0.1:{self.redis_port}/0"

    def http_url(self, i: int = 0) -> str:
        return f"http://127.0.0.1:{self.ports[i]}"

    def ws_url(self, code: str, i: int = 0) -> str:
        return f"ws://127.0.0.1:{self.ports[i]}/ws/rooms/{code}/"

    # -- Redis -----------------------------------------------------------------------------
    def start_redis(self) -> None:
        self.redis = start_redis(self.redis_port, self.data_dir / "redis.log")

    def kill_redis(self) -> None:
        if self.redis is not None:
            self.redis.kill()
            self.redis.wait(10)
            self.redis = None

    # -- Daphne ----------------------------------------------------------------------------
    def start_daphne(self, i: int = 0) -> None:
        env = {**site_env(self.data_dir, self.redis_url), **self.env}
        self.daphnes[i] = serve(self.ports[i], env, self.data_dir / f"daphne-{i}.log",
                                options=self.daphne_options)

    def kill_daphne(self, i: int = 0, sig: int = signal.SIGKILL) -> None:
        """End a server abruptly (SIGKILL: no disconnect(), no cleanup), like a crash."""
        proc = self.daphnes[i]
        if proc is not None:
            proc.send_signal(sig)
            proc.wait(20)
            self.daphnes[i] = None

    def assert_alive(self) -> None:
        for i, proc in enumerate(self.daphnes):
            assert proc is not None and proc.poll() is None, (
                f"daphne {i} died; log:\n{self.log(i)[-3000:]}")

    def log(self, i: int = 0) -> str:
        path = self.data_dir / f"daphne-{i}.log"
        return path.read_text(errors="replace") if path.exists() else ""

    def stop(self) -> None:
        for proc in self.daphnes:
            if proc is not None:
                stop(proc, timeout=TEARDOWN_WAIT)
        if self.redis is not None:
            stop(self.redis, timeout=TEARDOWN_WAIT)

    # -- the stored truth ------------------------------------------------------------------
    def db(self) -> sqlite3.Connection:
        conn = sqlite3.connect(f"file:{self.data_dir / 'db.sqlite3'}?mode=ro", uri=True,
                               timeout=20)
        conn.row_factory = sqlite3.Row
        return conn

    def stored_events(self, code: str) -> list[sqlite3.Row]:
        """Every stored event of the room's latest game, in seq order."""
        with self.db() as conn:
            return conn.execute(
                """SELECT e.seq, e.kind, e.payload, e.seat, e.command_id FROM game_gameevent e
                   WHERE e.game_id = (SELECT g.id FROM game_game g JOIN game_room r
                                      ON g.room_id = r.id WHERE r.code = ?
                                      ORDER BY g.id DESC LIMIT 1)
                   ORDER BY e.seq""", (code,)).fetchall()
