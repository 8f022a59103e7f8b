"""Reviews are durable and their worker is no part of a command: a killed review worker hides
no committed move, and a game that finished without a stored review gets one after a restart."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from benchmarks.load.seed import seed_in_subprocess
from benchmarks.load.services import REPO
from tests.support.peer_moves import await_result, send_move
from tests.support.peers import Peer

from .conftest import SeededRoom
from .processes import Site, site_env, wait_until

pytestmark = pytest.mark.timeout(600)


@pytest.fixture
def site_settings() -> dict[str, str]:
    # Whole games played as fast as the peers can: the per-socket budget out of the way.
    return {"REVIEW_SWEEP_SECONDS": "2", "WS_RATE_BURST": "1000", "WS_RATE_PER_SECOND": "1000"}


def play_to_the_end(players: list[Peer], everyone: list[Peer]) -> None:
    """Every command until the game is over; each peer receives every event (an ``error``
    frame, ``server_error`` included, fails the test)."""
    while not players[0].game["finished"]:
        _, move = send_move(players)
        for peer in everyone:
            await_result(peer, move)
    for peer in everyone:
        assert peer.game["finished"], peer.name
        assert peer.gaps == 0 and peer.repeats == 0, (peer.name, peer.gaps, peer.repeats)
        assert not [m for m in peer.received if m["type"] == "error"], peer.name


def connect(site: Site, code: str, cookies: list[str]) -> tuple[list[Peer], list[Peer]]:
    room = SeededRoom(site, code, cookies)
    players = [room.player(0), room.player(1)]
    everyone = [*players, room.watcher()]
    for peer in everyone:
        peer.open()
    return players, everyone


def game_of(site: Site, code: str) -> tuple[int, bool]:
    """The room's latest game: its id and whether a review of it is stored."""
    with site.db() as conn:
        row = conn.execute(
            """SELECT g.id, (SELECT COUNT(*) FROM game_gameanalysis a WHERE a.game_id = g.id)
               FROM game_game g JOIN game_room r ON g.room_id = r.id WHERE r.code = ?
               ORDER BY g.id DESC LIMIT 1""", (code,)).fetchone()
    return row[0], bool(row[1])


def review_workers(server: subprocess.Popen) -> list[int]:
    """The pids of the server's review worker processes (multiprocessing's spawned children;
    its resource tracker is another child, not a worker)."""
    pids = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
            cmdline = (stat.parent / "cmdline").read_bytes()
        except OSError:
            continue
        if int(fields[1]) == server.pid and fields[0] != "Z" and b"spawn_main" in cmdline:
            pids.append(int(stat.parent.name))
    return pids


def test_a_killed_review_worker_hides_no_committed_command(build_output, site: Site) -> None:
    first, second = seed_in_subprocess(site_env(site.data_dir, site.redis_url), 2, 2, "yahtzee")
    players, everyone = connect(site, first["code"], first["player_cookies"])
    play_to_the_end(players, everyone)
    wait_until(lambda: game_of(site, first["code"])[1], 120, "the first game's review stored")
    server = site.daphnes[0]
    assert server is not None
    [worker] = review_workers(server)

    os.kill(worker, signal.SIGKILL)  # as the kernel does under memory pressure
    wait_until(lambda: worker not in review_workers(server), 20, "the worker gone")
    players, everyone = connect(site, second["code"], second["player_cookies"])
    # The last score's events, game_finished among them, reach the sender and everyone else.
    play_to_the_end(players, everyone)
    game, _ = game_of(site, second["code"])
    assert all(p.game["finished"] and p.last_seq == len(site.stored_events(second["code"]))
               for p in everyone)
    # The pool is rebuilt: the game is reviewed by a new worker.
    wait_until(lambda: game_of(site, second["code"])[1], 120, f"game {game}'s review stored")
    assert review_workers(server) and worker not in review_workers(server)
    site.assert_alive()


def test_a_game_finished_without_its_review_is_reviewed_after_a_restart(
        build_output, site: Site) -> None:
    [seeded] = seed_in_subprocess(site_env(site.data_dir, site.redis_url), 1, 2, "yahtzee")
    code = seeded["code"]
    # A server that stores no review at the end (as when it is killed right after it) ...
    site.env["REVIEW_ON_FINISH"] = "false"
    site.kill_daphne()
    site.start_daphne()
    players, everyone = connect(site, code, seeded["player_cookies"])
    play_to_the_end(players, everyone)
    site.kill_daphne()
    game, reviewed = game_of(site, code)
    assert not reviewed
    # ... and a server started afterwards finds the game and reviews it, unasked.
    site.env["REVIEW_ON_FINISH"] = "true"
    site.start_daphne()
    wait_until(lambda: game_of(site, code)[1], 120, f"game {game}'s review stored")
    site.assert_alive()


# One process's claims, printed: the ids it may review.
CLAIMER = """
import os, sys
import django
django.setup()
from game.services.review import claim_review
print("ready", flush=True)
sys.stdin.readline()  # every process starts claiming at once
print(" ".join(str(i) for i in range(1, 201) if claim_review(i)), flush=True)
"""


@pytest.mark.redis
def test_each_review_is_claimed_by_one_process_of_several(tmp_path: Path, redis_url: str) -> None:
    # A key prefix of this test's own keeps its claims apart from anything else in that Redis.
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "yahtzee_site.settings",
           "DATA_DIR": str(tmp_path), "REDIS_URL": redis_url,
           "CACHE_KEY_PREFIX": f"review-claims-{tmp_path.name}-{os.getpid()}"}
    claimers = [subprocess.Popen([sys.executable, "-c", CLAIMER], cwd=REPO, env=env,
                                 stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
                for _ in range(4)]
    for c in claimers:
        assert c.stdout is not None and c.stdout.readline() == "ready\n"
    out = [c.communicate("go\n", timeout=120)[0] for c in claimers]
    assert all(c.returncode == 0 for c in claimers), out
    won = [set(map(int, text.split())) for text in out]
    assert sum(len(w) for w in won) == 200, [len(w) for w in won]
    assert set().union(*won) == set(range(1, 201))
