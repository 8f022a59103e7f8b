"""The ``sync`` budget over real websockets: a socket asking for the full state in a loop gets
a few, one ``rate_limited``, then silence, while the room plays on and nothing changes."""

from __future__ import annotations

import time

import pytest

from .conftest import SeededRoom
from .play import play

pytestmark = pytest.mark.timeout(120)

BURST = 3  # the default WS_SYNC_BURST (docs/protocol.md)


@pytest.fixture
def site_settings() -> dict[str, str]:
    return {"WS_SYNC_PER_SECOND": "1"}  # the default refill (one per 5 s) made quick


def test_a_sync_flood_gets_a_few_states_then_one_error(room: SeededRoom) -> None:
    players = [room.player(0), room.player(1)]
    watcher = room.watcher()
    everyone = [*players, watcher]
    for p in everyone:
        p.open()
    play(players, everyone, 1)
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
    time.sleep(1.2)  # one sync earned back
    state = flooder.sync()
    assert state["seq"] == len(room.site.stored_events(room.code))
    room.site.assert_alive()
