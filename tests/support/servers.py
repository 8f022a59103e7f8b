"""Real servers for the tests that need one: a free port, and Daphne serving the site.

``serve`` is the one way a test starts a Daphne: the browser tests' live server, the
scale-out tests' two servers over the test database, the fault tests' sites. It starts the
server as the benchmarks do (benchmarks.load.services) and returns once the port listens
(Daphne imports the application before it listens, so a listening server is a ready one).
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path
from urllib.parse import quote

from django.conf import settings
from django.db import connection

from benchmarks.load.services import (
    REPO,
    TEARDOWN_WAIT,
    free_port,
    start_daphne,
    stop,
    wait_for_port,
)

__all__ = ["APPLICATION", "REPO", "TEARDOWN_WAIT", "Daphne", "free_port", "serve", "stop"]

APPLICATION = "yahtzee_site.asgi:application"


def serve(port: int, env: dict[str, str], log_path: Path, options: tuple[str, ...] = (),
          timeout: float = 60, cpu: int | None = None) -> subprocess.Popen:
    """Daphne serving the site on 127.0.0.1:``port`` with ``env``, once it listens (pinned
    to core ``cpu`` if given)."""
    proc = start_daphne(APPLICATION, port, env, log_path, wait=False, options=options,
                        cpu=cpu)
    try:
        wait_for_port(port, timeout, proc)
    except (RuntimeError, TimeoutError) as exc:
        stop(proc, timeout=TEARDOWN_WAIT)
        log = log_path.read_text(errors="replace")[-2000:] if log_path.exists() else ""
        raise RuntimeError(f"Daphne on port {port} did not start ({exc}); {log_path}:\n{log}") \
            from exc
    return proc


def database_url() -> str:
    """The URL of the database this test runs on (the test database, SQLite or PostgreSQL)."""
    db = connection.settings_dict
    if db["ENGINE"].endswith("sqlite3"):
        return f"sqlite:///{db['NAME']}"
    auth = quote(db["USER"] or "") + (f":{quote(db['PASSWORD'])}" if db["PASSWORD"] else "")
    return f"postgres://{auth}@{db['HOST'] or 'localhost'}:{db['PORT'] or 5432}/{db['NAME']}"


class Daphne:
    """A server over this test's database, with its secret key and a Redis (scale-out)."""

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
            # Rate-limit counters of this test's servers alone (other tests, xdist's other
            # worker and other checkouts share the Redis and the address 127.0.0.1).
            "CACHE_KEY_PREFIX": f"daphne-tests-{data_dir.name}-{os.getpid()}",
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

    def start(self) -> Daphne:
        self.proc = serve(self.port, self.env, self.log)
        return self

    def stop(self) -> None:
        if self.proc:
            stop(self.proc, timeout=TEARDOWN_WAIT)
