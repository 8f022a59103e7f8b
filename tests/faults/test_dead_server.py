"""A server killed with its sockets open: the sockets it held stop counting toward the caps
within seconds (it stops beating, and the survivors know it dead), so its tabs reconnect to
another server at once instead of being refused until the dead rows go stale."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks.load.seed import seed_in_subprocess

from .peers import Peer
from .processes import Site, site_env

pytestmark = pytest.mark.timeout(300)

TABS = 6  # of one session; SOCKETS_PER_SESSION is 8


def test_a_killed_servers_sockets_stop_counting_within_seconds(template_dir: Path,
                                                               tmp_path: Path) -> None:
    # Rows stay "live" for a minute without the beat: the test must beat that by far.
    site = Site.create(template_dir, tmp_path / "site", servers=2,
                       env={"PRESENCE_STALE_AFTER": "60", "PRESENCE_HEARTBEAT": "20"})
    try:
        [seeded] = seed_in_subprocess(site_env(site.data_dir, site.redis_url), 1, 2, "yahtzee")
        code, cookie = seeded["code"], seeded["player_cookies"][0]
        survivor_watcher = Peer(site.ws_url(code, 1), site.http_url(1), "", "watcher")
        survivor_watcher.open()
        tabs = [Peer(site.ws_url(code, 0), site.http_url(0), cookie, f"tab{i}")
                for i in range(TABS)]
        for tab in tabs:
            assert tab.open()["you"]["seat"] == 0

        site.kill_daphne(0)  # no disconnect(): its six rows stay behind
        for tab in tabs:
            tab.url, tab.origin = site.ws_url(code, 1), site.http_url(1)
            # Within the dead server's silence plus a beat or two, far inside the minute the
            # rows would otherwise count (refused with 403 until then).
            state = tab.reopen(within=25)
            assert state["you"]["seat"] == 0
        assert all(tab.is_open for tab in tabs)
        with site.db() as conn:
            rows = conn.execute("SELECT COUNT(*) FROM game_connection").fetchone()[0]
        assert rows == TABS + 1, "the dead server's rows linger"
    finally:
        site.stop()
