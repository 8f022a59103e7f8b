"""Redis and Daphne die in the middle of a game; the game goes on from its stored events."""

from __future__ import annotations

import json

import pytest

from benchmarks.load.browser import BrowserSession
from tests.support.peer_moves import await_result, bot_move, play, send_move
from tests.support.peers import Peer

from .conftest import SeededRoom
from .processes import wait_until

pytestmark = pytest.mark.timeout(120)


def connect_all(room: SeededRoom, server: int = 0) -> tuple[list[Peer], list[Peer]]:
    players = [room.player(0, server), room.player(1, server)]
    everyone = [*players, room.watcher(server)]
    for peer in everyone:
        peer.open()
    assert [p.seat for p in players] == [0, 1]
    return players, everyone


def stored(room: SeededRoom) -> list[tuple]:
    return [(e["seq"], e["kind"], e["payload"], e["command_id"])
            for e in room.site.stored_events(room.code)]


def assert_in_step(everyone: list[Peer], room: SeededRoom) -> None:
    """Every peer's latest state is the stored truth: same seq, same game."""
    events = stored(room)
    assert [e[0] for e in events] == list(range(1, len(events) + 1)), "seq not contiguous"
    for peer in everyone:
        assert peer.last_seq == len(events), (peer.name, peer.last_seq, len(events))
        assert peer.game is not None and peer.game["seq"] == len(events)
    games = [{k: v for k, v in p.game.items()} for p in everyone]
    assert all(g == games[0] for g in games), "peers disagree on the game state"


def resync(peer: Peer) -> None:
    """What the page does after trouble: a closed socket reconnects, an open one syncs."""
    if peer.is_open:
        peer.sync()
    else:
        peer.reopen()


def test_redis_restart_mid_game(room: SeededRoom) -> None:
    site = room.site
    players, everyone = connect_all(room)
    play(players, everyone, 3)
    before = stored(room)

    site.kill_redis()
    # The site keeps serving pages while its channel layer is gone.
    assert BrowserSession(site.http_url()).get("/").status == 200
    # A move made during the outage is stored (the database is the truth) ...
    who, move = send_move(players)
    wait_until(lambda: len(stored(room)) > len(before), 15, f"{move} stored without Redis")
    site.start_redis()
    # ... its broadcast may be lost: everyone reconnects or resyncs and sees it in the state.
    for peer in everyone:
        peer.drain(0.5)
        resync(peer)
    after = stored(room)
    assert after[: len(before)] == before, "a stored event changed or vanished"
    assert len(after) > len(before), f"the move {move} made during the outage was not stored"
    assert after[len(before)][3] == move["id"]
    assert_in_step(everyone, room)

    # The game goes on, through the restarted Redis, for everyone.
    for peer in everyone:
        peer.gaps = peer.repeats = 0
    play(players, everyone, 4)
    assert_in_step(everyone, room)
    site.assert_alive()


def test_daphne_killed_mid_game(room: SeededRoom) -> None:
    site = room.site
    players, everyone = connect_all(room)
    play(players, everyone, 3)
    before = stored(room)

    who, move = send_move(players)
    site.kill_daphne()  # SIGKILL right after the frame left: applied or not, nobody knows
    site.start_daphne()
    for peer in everyone:
        peer.reopen()
    # The sender did not see its result: it retries the same command, with the same id.
    who.send(move)
    who.drain(1.0)
    for peer in everyone:
        peer.sync()
    after = stored(room)
    assert after[: len(before)] == before, "a stored event changed or vanished"
    with_id = [e for e in after if e[3] == move["id"]]
    assert len(with_id) == 1, f"command {move['id']} stored {len(with_id)} times"
    assert_in_step(everyone, room)

    for peer in everyone:
        peer.gaps = peer.repeats = 0
    play(players, everyone, 4)
    assert_in_step(everyone, room)


def test_same_command_twice_applies_once(room: SeededRoom) -> None:
    players, everyone = connect_all(room)
    play(players, everyone, 2)
    who = next(p for p in players if p.seat == who_plays(players))
    second_tab = room.player(who.seat, name="second tab")
    second_tab.open()
    move = {**bot_move(who.game), "id": "double-click"}
    # A double click, and the same command from a second tab at the same moment.
    who.send(json.dumps(move))
    who.send(json.dumps(move))
    second_tab.send(json.dumps(move))
    watcher = everyone[-1]
    events = await_result(watcher, move)
    extra = watcher.drain(1.0)
    assert not [m for m in extra if m["type"] == "event"], "a repeated command made events"
    assert len([e for e in stored(room) if e[3] == "double-click"]) == 1
    assert [e["event"]["kind"] for e in events][0] in ("rolled", "scored")
    for peer in (who, second_tab):  # the repeats are answered with where things stand
        peer.drain(0.5)
        assert not [m for m in peer.received if m["type"] == "error"], peer.received[-3:]
    for peer in everyone:
        peer.drain(0.3)
        peer.sync()
    assert_in_step(everyone, room)


def who_plays(players: list[Peer]) -> int:
    game = max(players, key=lambda p: p.last_seq or 0).game
    assert game is not None
    return game["current_player"]


def test_missed_events_are_noticed_by_seq_and_resynced(room: SeededRoom) -> None:
    players, everyone = connect_all(room)
    watcher = everyone[-1]
    play(players, everyone, 1)
    seen = watcher.last_seq
    # The watcher's link loses two commands' events ...
    watcher.deaf = True
    play(players, players, 2)
    watcher.drain(0.5)
    watcher.deaf = False
    assert watcher.last_seq == seen
    # ... so the next event it gets is not last seen + 1: it notices, and asks for the state.
    _, move = send_move(players)
    for peer in players:
        await_result(peer, move)
    first = watcher.until(lambda m: m["type"] == "event")
    assert first["seq"] > seen + 1
    assert watcher.gaps == 1, "the gap went unnoticed"
    state = watcher.sync()
    assert state["seq"] == players[0].last_seq
    assert state["game"] == players[0].game
    watcher.gaps = 0
    play(players, everyone, 2)
    assert_in_step(everyone, room)
