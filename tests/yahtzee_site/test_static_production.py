"""The README's production recipe serves compressed pages and compressed, hashed static files
that browsers keep for a year: a real Daphne after a real collectstatic."""

from __future__ import annotations

import gzip
import os
import re
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

from benchmarks.load.services import TEARDOWN_WAIT, free_port, start_daphne, stop
from tests.support.readme import readme_production_env

ROOT = Path(__file__).resolve().parents[2]
HOST = "yahtzee.example"  # the README's ALLOWED_HOSTS


@pytest.fixture
def production_site(tmp_path: Path, redis_url: str):
    """The README's environment and commands on a SQLite file (its PostgreSQL is not needed to
    serve files); the URL of the one Daphne it starts."""
    env = {**{k: v for k, v in os.environ.items() if k not in ("SECRET_KEY", "DEBUG")},
           **readme_production_env(), "DATA_DIR": str(tmp_path), "REDIS_URL": redis_url,
           "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
           "CACHE_KEY_PREFIX": f"static-test-{os.getpid()}", "LOG_LEVEL": "WARNING"}
    assert "STATIC_FROM_SOURCE" not in env and "DEBUG" not in env
    for command in (["migrate"], ["collectstatic"]):
        subprocess.run([sys.executable, "manage.py", *command, "--noinput", "-v", "0"],
                       cwd=ROOT, env=env, check=True, timeout=120)
    port = free_port()
    proc = start_daphne("yahtzee_site.asgi:application", port, env, tmp_path / "daphne.log",
                        options=("--proxy-headers",))
    yield f"http://127.0.0.1:{port}"
    stop(proc, timeout=TEARDOWN_WAIT)


def get(url: str) -> tuple[dict[str, str], bytes]:
    """A browser's request through the README's TLS proxy: its headers and the body."""
    request = urllib.request.Request(url, headers={
        "Host": HOST, "X-Forwarded-Proto": "https", "Accept-Encoding": "gzip"})
    with urllib.request.urlopen(request, timeout=10) as response:
        assert response.status == 200
        return {k.lower(): v for k, v in response.headers.items()}, response.read()


def test_pages_and_static_files_are_compressed_and_hashed_files_cached_a_year(production_site):
    headers, body = get(production_site + "/")
    assert headers.get("content-encoding") == "gzip"
    html = gzip.decompress(body).decode()
    assert "csrfmiddlewaretoken" in html  # the page that carries the masked token

    # The page links the hashed copies of its static files.
    hashed = re.findall(r'"(/static/game/shared/site\.[0-9a-f]{12}\.(?:css|js))"', html)
    assert len(hashed) == 2, re.findall(r'"/static/[^"]+"', html)
    for url in hashed:
        headers, body = get(production_site + url)
        assert headers.get("content-encoding") == "gzip"
        assert headers["cache-control"] == "max-age=31536000, public, immutable"
        assert len(gzip.decompress(body)) > len(body)

    # The unhashed name still answers (an old page, a script's import), for a short time only.
    headers, _ = get(production_site + "/static/game/shared/site.css")
    assert "immutable" not in headers["cache-control"]
