"""Redis away while people play on two servers: pages answer with a clear page or work, a
handshake is refused with a clear close reason, the sender of a command gets its result from
its own server at once, and when Redis returns the rest of the room catches up by itself."""

from __future__ import annotations

import signal
import time
from pathlib import Path

import pytest
from websockets.exceptions import ConnectionClosed

from benchmarks.load.browser import BrowserSession
from benchmarks.load.seed import seed_in_subprocess
from tests.support.peer_moves import LAST_KINDS, await_result, play, send_move
from tests.support.peers import Peer

from .processes import Site, site_env
from .test_forms import create_form

pytestmark = pytest.mark.timeout(240)

#: What a command's sender may wait for its result while Redis is away (it waited 15 s).
ANSWER_WITHIN = 3.0
#: How soon after Redis returns a socket that missed the outage's events has them.
CAUGHT_UP_WITHIN = 10.0


def stored_seqs(site: Site, code: str) -> list[tuple]:
    return [(e["seq"], e["kind"], e["payload"]) for e in site.stored_events(code)]


def test_redis_away_pages_handshakes_commands_and_catching_up(template_dir: Path,
                                                             tmp_path: Path) -> None:
    site = Site.create(template_dir, tmp_path / "site", servers=2)
    try:
        [seeded] = seed_in_subprocess(site_env(site.data_dir, site.redis_url), 1, 2, "yahtzee")
        code, cookies = seeded["code"], seeded["player_cookies"]
        # Each player on a server of their own; a watcher on each server.
        players = [Peer(site.ws_url(code, i), site.http_url(i), cookies[i], f"player{i}")
                   for i in (0, 1)]
        watchers = [Peer(site.ws_url(code, i), site.http_url(i), "", f"watcher{i}")
                    for i in (0, 1)]
        everyone = [*players, *watchers]
        for peer in everyone:
            peer.open()
        play(players, everyone, 2)
        before = stored_seqs(site, code)

        site.kill_redis()

        # Pages: the lobby is served; creating a room works or says clearly why not.
        browser = BrowserSession(site.http_url(0))
        assert browser.get("/").status == 200
        made = browser.submit(browser.get("/"), "/", create_form({}))
        assert made.status in (200, 503), (made.status, made.text[:500])
        if made.status == 503:
            assert "try again" in made.text.lower(), made.text[:500]
        else:
            assert "/r/" in made.url
        assert browser.get(f"/r/{code}/").status == 200

        # A handshake: accepted, then closed with a clear close code (not an HTTP 500).
        late = Peer(site.ws_url(code, 0), site.http_url(0), "", "late watcher")
        started = time.monotonic()
        with pytest.raises(ConnectionClosed) as closed:
            late.open(timeout=10)
        assert time.monotonic() - started < ANSWER_WITHIN
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4503, closed.value

        # Commands: each sender has its own result from its own server, at once, whoever
        # moves (a roll and a score, on each server).
        for peer in everyone:
            peer.drain(0.2)
        for _ in range(4):
            who, move = send_move(players)
            started = time.monotonic()
            events = await_result(who, move, timeout=ANSWER_WITHIN + 2)
            assert time.monotonic() - started < ANSWER_WITHIN, (who.name, move)
            assert events[-1]["event"]["kind"] in LAST_KINDS[move["type"]]
            other = players[1 - players.index(who)]
            # The other player missed it (its server's layer is away): it is told by state
            # once Redis is back; here it learns it as the page would, with a ``sync``.
            if other.last_seq != who.last_seq:
                other.sync()
            assert other.last_seq == who.last_seq
        during = stored_seqs(site, code)
        assert during[: len(before)] == before
        assert len(during) > len(before)
        for peer in everyone:
            assert peer.is_open, f"{peer.name}'s socket closed during the outage"

        # The watchers missed the outage's events, and nobody asks for anything: once Redis
        # is back, the servers push them the room's state.
        site.start_redis()
        last = during[-1][0]
        for watcher in watchers:
            watcher.until(lambda m: m["type"] == "state" and m["seq"] == last,
                          timeout=CAUGHT_UP_WITHIN)
        # New sockets are welcome again, and the game goes on for everyone through Redis.
        late.open(timeout=10)
        everyone.append(late)
        for peer in everyone:
            peer.drain(0.3)
            peer.gaps = peer.repeats = 0
        play(players, everyone, 4)
        after = stored_seqs(site, code)
        assert after[: len(during)] == during, "a stored event changed or vanished"
        assert [s for s, _, _ in after] == list(range(1, len(after) + 1))
        site.assert_alive()
    finally:
        site.stop()


def test_a_redis_that_stops_answering_holds_up_no_sender(template_dir: Path,
                                                       tmp_path: Path) -> None:
    """Redis stopped (SIGSTOP: its port still takes connections, it answers nothing), the
    way a hung or swapping server looks: each sender still has its result at once; once it
    answers again, a watcher that missed the moves gets the room's state."""
    site = Site.create(template_dir, tmp_path / "site", servers=2)
    try:
        [seeded] = seed_in_subprocess(site_env(site.data_dir, site.redis_url), 1, 2, "yahtzee")
        code, cookies = seeded["code"], seeded["player_cookies"]
        players = [Peer(site.ws_url(code, i), site.http_url(i), cookies[i], f"player{i}")
                   for i in (0, 1)]
        watcher = Peer(site.ws_url(code, 1), site.http_url(1), "", "watcher")
        for peer in (*players, watcher):
            peer.open()
        play(players, [*players, watcher], 2)
        assert site.redis is not None
        site.redis.send_signal(signal.SIGSTOP)
        try:
            for _ in range(2):
                who, move = send_move(players)
                started = time.monotonic()
                await_result(who, move, timeout=ANSWER_WITHIN + 2)
                assert time.monotonic() - started < ANSWER_WITHIN, (who.name, move)
                other = players[1 - players.index(who)]
                if other.last_seq != who.last_seq:
                    other.sync(timeout=20)  # its server may be waiting on Redis meanwhile
        finally:
            site.redis.send_signal(signal.SIGCONT)
        last = stored_seqs(site, code)[-1][0]
        # Late (the publishes it was sent before it stopped) or by a state once its server
        # gave up on it (10 s) and found it answering again: the watcher has the moves.
        watcher.until(lambda m: m["type"] in ("state", "event") and m["seq"] == last,
                      timeout=40)
        site.assert_alive()
    finally:
        site.stop()
