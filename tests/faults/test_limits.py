"""Budgets over real websockets: a socket asking for the full state in a loop, showing holds
in a loop or changing the room in a loop, gets a few answers, one ``rate_limited``, then
silence, while the room plays on and nothing stored changes."""

from __future__ import annotations

import time

import pytest

from tests.support.peer_moves import mover, play, seated_and_playing

from .conftest import SeededRoom

pytestmark = pytest.mark.timeout(120)

BURST = 3  # the default WS_SYNC_BURST (docs/protocol.md)
HOLD_BURST = 10  # the default WS_HOLD_BURST
ROOM_BURST = 10  # the default WS_ROOM_BURST


@pytest.fixture
def site_settings() -> dict[str, str]:
    return {"WS_SYNC_PER_SECOND": "1"}  # the default refill (one per 5 s) made quick


def test_a_sync_flood_gets_a_few_states_then_one_error(room: SeededRoom) -> None:
    players, everyone = seated_and_playing(room)
    watcher = everyone[-1]
    flooder = room.watcher(name="sync flooder")
    flooder.open()
    flooder.drain(0.3)
    for _ in range(7):  # under the frame limit: only the sync budget speaks
        flooder.send({"type": "sync"})
        time.sleep(0.02)
    replies = [m for m in flooder.drain(0.5) if m["type"] in ("state", "error")]
    assert [m["type"] for m in replies] == ["state"] * BURST + ["error"], replies
    assert replies[-1]["code"] == "rate_limited"
    # The room plays on, and the flooding socket still gets every event.
    play(players, everyone, 2)
    flooder.drain(0.5)
    seen = [m["seq"] for m in flooder.received if m["type"] == "event"]
    assert flooder.is_open and flooder.gaps == 0 and len(seen) >= 2
    assert seen == [m["seq"] for m in watcher.received if m["type"] == "event"][-len(seen):]
    state = flooder.sync_once_admitted()  # once one sync is earned back
    assert state["seq"] == len(room.site.stored_events(room.code))
    room.site.assert_alive()


def test_a_hold_flood_reaches_the_room_only_up_to_its_budget(room: SeededRoom) -> None:
    players = [room.player(0), room.player(1)]
    watcher = room.watcher()
    everyone = [*players, watcher]
    for p in everyone:
        p.open()
    play(players, everyone, 1)  # the player to move has rolled once
    who = mover(players)
    assert who.game is not None and who.game["dice"] and who.game["rolls_left"] == 2
    stored = [tuple(e) for e in room.site.stored_events(room.code)]
    for i in range(60):  # as fast as the socket takes them
        who.send({"type": "hold", "held": [i % 5]})
    shown = [m for m in watcher.drain(1.0) if m["type"] == "holding"]
    assert HOLD_BURST <= len(shown) <= HOLD_BURST + 2, len(shown)  # + what refilled meanwhile
    assert {m["player"] for m in shown} == {who.seat}
    assert [tuple(e) for e in room.site.stored_events(room.code)] == stored
    errors = [m for m in who.drain(0.5) if m["type"] == "error"]
    assert "rate_limited" in {m["code"] for m in errors}
    play(players, everyone, 3)  # and the game goes on for everyone
    room.site.assert_alive()


def test_a_room_change_flood_gets_a_few_answers_then_one_error(room: SeededRoom) -> None:
    players, everyone = seated_and_playing(room)
    watcher = everyone[-1]
    tab = room.player(0, name="seed flooding tab")
    tab.open()
    tab.drain(0.3)
    stored = [tuple(e) for e in room.site.stored_events(room.code)]
    for i in range(ROOM_BURST + 6):  # under the frame limit: only the room budget speaks
        tab.send({"type": "seed" if i % 2 else "add_seat", **({"seed": f"s{i}"} if i % 2
                                                                else {})})
        time.sleep(0.02)
    replies = [m for m in tab.drain(0.5) if m["type"] in ("state", "error")]
    # A game runs: each command admitted is refused by its service; then the budget.
    codes = [m["code"] for m in replies]
    assert codes[-1] == "rate_limited" and set(codes[:-1]) == {"game_running"}, codes
    assert ROOM_BURST <= len(codes) - 1 <= ROOM_BURST + 2, codes  # + what refilled meanwhile
    assert [tuple(e) for e in room.site.stored_events(room.code)] == stored
    play(players, everyone, 2)  # the room plays on, and the tab still hears it
    tab.drain(0.5)
    assert tab.is_open and tab.gaps == 0
    assert [m for m in watcher.received if m["type"] == "error"] == []
    room.site.assert_alive()
