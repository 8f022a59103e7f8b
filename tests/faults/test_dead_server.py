"""A server killed with its sockets open: the sockets it held stop counting toward the caps
within seconds (it stops beating, and the survivors know it dead), so its tabs reconnect to
another server at once instead of being refused until the dead rows go stale."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from benchmarks.load.seed import seed_in_subprocess
from benchmarks.load.services import REPO
from tests.support.peers import Peer

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


# A started room of two people (seats 0, 1) and an easy computer player (seat 2); prints the
# room's code and each person's Cookie header.
SEED_WITH_BOT = """
import json, django
django.setup()
from django.conf import settings
from django.contrib.sessions.backends.db import SessionStore
from game import services
cookies, guests = [], []
for _ in range(2):
    store = SessionStore()
    guests.append(services.guest_key(store))
    store.create()
    cookies.append(f"{settings.SESSION_COOKIE_NAME}={store.session_key}")
room = services.create_room(name="With a bot", rules="yahtzee", host_key=guests[0],
                            seats=[services.SeatSpec(), services.SeatSpec(),
                                   services.SeatSpec("easy")])
for i, guest in enumerate(guests):
    services.take_seat(room.code, guest, f"P{i}", i)
services.start_game(room.code, guests[0])
print(json.dumps({"code": room.code, "cookies": cookies}))
"""


def test_a_bot_whose_server_was_killed_plays_on_from_a_survivor(template_dir: Path,
                                                               tmp_path: Path) -> None:
    # The bot waits 2 s before each action: time to kill its server in between. The presence
    # heartbeat, which would also find the room, comes only once a minute here.
    site = Site.create(template_dir, tmp_path / "site", servers=2,
                       env={"BOT_DELAY": "2", "PRESENCE_HEARTBEAT": "60",
                            "PRESENCE_STALE_AFTER": "180"})
    try:
        done = subprocess.run([sys.executable, "-c", SEED_WITH_BOT], cwd=REPO, text=True,
                              env=site_env(site.data_dir, site.redis_url), capture_output=True,
                              timeout=120)
        assert done.returncode == 0, done.stderr[-2000:]
        seeded = json.loads(done.stdout.strip().splitlines()[-1])
        code, (survivor_cookie, killed_cookie) = seeded["code"], seeded["cookies"]
        p0 = Peer(site.ws_url(code, 1), site.http_url(1), survivor_cookie, "P0 on the survivor")
        p1 = Peer(site.ws_url(code, 0), site.http_url(0), killed_cookie, "P1, killed server")
        for peer in (p0, p1):
            peer.open()
        for seat, peer in enumerate((p0, p1)):  # P1's score, on server 0, starts the bot there
            peer.send({"type": "roll", "hold": [], "id": f"r{seat}"})
            peer.until(lambda m: m["type"] == "event" and m["event"]["kind"] == "rolled")
            box = next(o["box"] for o in peer.game["options"] if o["allowed"])
            peer.send({"type": "score", "box": box, "column": 0, "id": f"s{seat}"})
            p0.until(lambda m, seat=seat: m["type"] == "event"
                     and m["event"]["kind"] == "turn_started"
                     and m["event"].get("player") == seat + 1)
        site.kill_daphne(0)  # during the bot's pause before its first roll
        # The bot's turn goes on from server 1 within seconds, not at the next presence beat.
        p0.until(lambda m: m["type"] == "event" and m["event"]["kind"] == "rolled"
                 and m["event"].get("player") == 2, timeout=30)
    finally:
        site.stop()
