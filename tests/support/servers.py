"""Real Daphne processes for the scale-out tests, sharing the test database and a Redis."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import quote

from django.conf import settings
from django.db import connection

from benchmarks.load.services import TEARDOWN_WAIT, stop

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def database_url() -> str:
    """The URL of the database this test runs on (the test database, SQLite or PostgreSQL)."""
    db = connection.settings_dict
    if db["ENGINE"].endswith("sqlite3"):
        return f"sqlite:///{db['NAME']}"
    auth = quote(db["USER"] or "") + (f":{quote(db['PASSWORD'])}" if db["PASSWORD"] else "")
    return f"postgres://{auth}@{db['HOST'] or 'localhost'}:{db['PORT'] or 5432}/{db['NAME']}"


class Daphne:
    """``python -m daphne`` on a free port, with this test's database, secret key and Redis."""

    def __init__(self, redis_url: str, data_dir: Path, **env: str) -> None:
        self.port = free_port()
        self.env = {
            **os.environ,
            "DATABASE_URL": database_url(),
            "REDIS_URL": redis_url,
            "SECRET_KEY": settings.SECRET_KEY,  # so it reads the sessions this test made
            "DATA_DIR": str(data_dir),
            "DICE_SEED": str(settings.DICE_SEED),
            "BOT_DELAY": "0",
            "PYTHONPATH": str(ROOT),
            **env,
        }
        self.log = data_dir / f"daphne-{self.port}.log"
        self.proc: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 60) -> Daphne:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(self.port),
             "yahtzee_site.asgi:application"],
            cwd=ROOT, env=self.env, stdout=self.log.open("ab"), stderr=subprocess.STDOUT)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"daphne exited: {self.log.read_text()[-2000:]}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5):
                    return self
            except OSError:
                time.sleep(0.1)
        raise RuntimeError(f"daphne did not listen on {self.port}")

    def stop(self) -> None:
        if self.proc:
            stop(self.proc, timeout=TEARDOWN_WAIT)
