"""Real Daphne servers: a player's socket ends badly — its server is killed, or its client
stops reading — and the room does not keep a ghost: the seat turns away within the stale
window and autoplay takes the turn. (The in-process ways a consumer ends — clean close, an
exception in a handler, a cancel by the server — are in tests/realtime/test_ghosts.py.)"""

from __future__ import annotations

import json
import socket
import time
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from benchmarks.load.seed import seed_in_subprocess
from tests.support.peers import Peer

from .conftest import SeededRoom
from .processes import Site, site_env

pytestmark = pytest.mark.timeout(120)

#: Presence at test speed: a beat every 0.5 s, stale after 2 s, a turn taken after 0.5 s away.
FAST_PRESENCE = {"PRESENCE_HEARTBEAT": "0.5", "PRESENCE_STALE_AFTER": "2",
                 "AWAY_GRACE": "0.5"}


def fast_room(template_dir: Path, tmp_path: Path, servers: int = 1,
              daphne_options: tuple[str, ...] = ()) -> SeededRoom:
    site = Site.create(template_dir, tmp_path / "site", servers=servers, env=FAST_PRESENCE,
                       daphne_options=daphne_options)
    env = {**site_env(site.data_dir, site.redis_url), **FAST_PRESENCE}
    seeded = seed_in_subprocess(env, 1, 2, "yahtzee")[0]
    return SeededRoom(site, seeded["code"], seeded["player_cookies"])


def ann_is_autoplayed(bob: Peer, within: float = 20.0) -> None:
    """Bob hears that seat 0 left, then sees autoplay move for it."""
    before = len(bob.received)
    try:
        bob.until(lambda m: m["type"] == "presence" and not m["seats"][0]["connected"], within)
        event = bob.until(lambda m: m["type"] == "event" and m["by"] == "autoplay", within)
    except AssertionError:
        raise AssertionError(f"bob got {[json.dumps(m)[:160] for m in bob.received]}; "
                             f"{before} before") from None
    assert event["event"]["player"] == 0


@pytest.fixture
def cleanup():
    sites: list[Site] = []
    yield sites.append
    for site in sites:
        site.stop()


def test_a_killed_server_leaves_no_ghost(template_dir, tmp_path, cleanup) -> None:
    room = fast_room(template_dir, tmp_path, servers=2)
    cleanup(room.site)
    ann = room.player(0, server=1, name="ann")
    bob = room.player(1, server=0, name="bob")
    ann.open()  # first: with nobody else here, nothing is played for her before the kill
    bob.open()
    bob.until(lambda m: m["type"] == "presence" and m["seats"][0]["connected"], 10)
    started = time.monotonic()
    room.site.kill_daphne(1)  # SIGKILL: no disconnect(), no cleanup, its heartbeat gone
    ann_is_autoplayed(bob)
    assert time.monotonic() - started < 15
    bob.close()


def raw_socket_that_never_reads(peer: Peer) -> socket.socket:
    """A websocket handshake by hand, then silence: no reads, so no pongs either."""
    url = urlsplit(peer.url)
    sock = socket.create_connection((url.hostname, url.port), timeout=10)
    request = (f"GET {url.path} HTTP/1.1\r\nHost: {url.netloc}\r\nUpgrade: websocket\r\n"
               "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
               f"Sec-WebSocket-Version: 13\r\nOrigin: {peer.origin}\r\n"
               f"Cookie: {peer.cookie}\r\n\r\n")
    sock.sendall(request.encode())
    head = b""
    while b"\r\n\r\n" not in head:
        head += sock.recv(1)  # byte by byte: nothing past the handshake is read
    assert head.startswith(b"HTTP/1.1 101"), head
    return sock


def test_a_client_that_stops_reading_is_dropped_and_autoplayed(
        template_dir, tmp_path, cleanup) -> None:
    room = fast_room(template_dir, tmp_path,
                     daphne_options=("--ping-interval", "1", "--ping-timeout", "2"))
    cleanup(room.site)
    silent = raw_socket_that_never_reads(room.player(0, name="ann"))
    bob = room.player(1, name="bob")
    bob.open()
    try:
        bob.until(lambda m: m["type"] == "presence" and m["seats"][0]["connected"], 10)
        ann_is_autoplayed(bob)
    finally:
        silent.close()
    bob.close()
