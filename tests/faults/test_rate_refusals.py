"""A refusal for rate is answered late, against real Daphne: a script that asks again as soon
as it is answered cannot make the server refuse it as fast as it can answer, and the wait is a
timer, not a thread: everyone else is answered meanwhile."""

from __future__ import annotations

import threading
import time

import pytest

from benchmarks.load.browser import BrowserSession

from .processes import Site

pytestmark = pytest.mark.timeout(120)

DELAY = 2.0


@pytest.fixture
def site_settings() -> dict[str, str]:
    return {"NAMES_PER_HOUR": "1", "RATE_REFUSAL_SECONDS": str(DELAY)}


def player_name(site: Site, session: BrowserSession) -> str:
    with site.db() as conn:
        row = conn.execute("SELECT name FROM game_player WHERE token = ?",
                           (session.cookie("player"),)).fetchone()
    return row[0] if row else ""


def test_a_name_refused_for_rate_is_answered_late_and_nobody_else_waits(site: Site) -> None:
    script = BrowserSession(site.http_url())
    script.get("/")
    for name in ("Ann", "Bea"):  # the first names the new player, the second counts for it
        assert script.post("/name", {"player_name": name, "next": "/"}).status == 200
    assert player_name(site, script) == "Bea"

    answered: dict[str, float] = {}

    def refused() -> None:
        start = time.monotonic()
        page = script.post("/name", {"player_name": "Cat", "next": "/"})
        answered["refused"] = time.monotonic()
        answered["took"] = answered["refused"] - start
        answered["status"] = page.status
        answered["said"] = "Too many at once" in page.text

    thread = threading.Thread(target=refused)
    thread.start()
    other = BrowserSession(site.http_url())
    assert other.get("/").status == 200  # while the refusal waits
    other_done = time.monotonic()
    thread.join(30)

    assert answered["status"] == 200 and answered["said"]  # the lobby, saying why
    assert answered["took"] >= DELAY * 0.95
    assert other_done < answered["refused"]  # answered meanwhile, not after
    assert player_name(site, script) == "Bea"  # nothing changed
    site.assert_alive()
