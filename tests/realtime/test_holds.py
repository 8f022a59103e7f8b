"""Holds as they happen: the player to move shows everyone which dice they hold, before the
roll. Transient: never stored, outside the ``seq`` stream, refused from anyone else."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async

from game.models import Game
from tests.support.sockets import close_layer, seated_room

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


def stored(room) -> tuple[int, dict]:
    game = Game.objects.get(room=room)
    return game.events.count(), game.snapshot


async def holding(client) -> dict:
    return await client.until(lambda m: m["type"] in ("holding", "error"))


async def test_a_hold_reaches_everyone_and_changes_nothing(connect, sessions, layer):
    room, people = await seated_room(sessions, ["Ann", "Bob"])
    ann = await connect(room.code, people[0][0], "ann")
    bob = await connect(room.code, people[1][0], "bob")
    watcher = await connect(room.code, None, "watcher")
    everyone = (ann, bob, watcher)
    await ann.send({"type": "start"})
    for c in everyone:
        await c.until(lambda m: m["type"] == "state" and m["game"] is not None)
    # Nothing to hold before the first roll.
    assert (await ann.request({"type": "hold", "held": [0]}))["code"] == "hold_before_roll"
    rolled = await ann.request({"type": "roll", "hold": [], "id": "r1"})
    for c in (bob, watcher):
        await c.until_seq(rolled["seq"])
    before = await database_sync_to_async(stored)(room)

    await ann.send({"type": "hold", "held": [3, 0]})
    for c in everyone:
        msg = await holding(c)
        assert msg == {"type": "holding", "game": rolled["game"], "seq": rolled["seq"],
                       "player": 0, "held": [0, 3]}, (c.name, msg)
    # Only the player to move may show holds; a malformed one is refused.
    assert (await bob.request({"type": "hold", "held": [1]}))["code"] == "not_your_turn"
    assert (await watcher.request({"type": "hold", "held": [1]}))["code"] == "watcher"
    for bad in ([5], [0, 0], [-1], ["1"], [True], [0, 1, 2, 3, 4, 0], "0", None, [[0]]):
        reply = await ann.request({"type": "hold", "held": bad})
        assert reply["code"] == "bad_message", (bad, reply)
    assert (await ann.request({"type": "hold"}))["code"] == "bad_message"
    assert await database_sync_to_async(stored)(room) == before

    # The roll still carries the authoritative hold (here not what was shown).
    reroll = await ann.request({"type": "roll", "hold": [1], "id": "r2"})
    assert reroll["event"]["held"] == [1]
    await ann.request({"type": "roll", "hold": [], "id": "r3"})
    assert (await ann.request({"type": "hold", "held": [2]}))["code"] == "no_rolls_left"
    for c in everyone:
        await c.close()
    await close_layer()


async def test_a_flood_of_holds_is_cut_short(connect, sessions, settings):
    settings.WS_RATE_PER_SECOND = 10_000  # only the hold budget speaks
    settings.WS_RATE_BURST = 10_000
    settings.WS_HOLD_BURST, settings.WS_HOLD_PER_SECOND = 4, 0.001
    room, people = await seated_room(sessions, ["Ann"])
    ann = await connect(room.code, people[0][0], "ann")
    watcher = await connect(room.code, None, "watcher")
    await ann.send({"type": "start"})
    for c in (ann, watcher):
        await c.until(lambda m: m["type"] == "state" and m["game"] is not None)
    await ann.request({"type": "roll", "hold": [], "id": "r1"})
    for i in range(40):
        await ann.send({"type": "hold", "held": [i % 5]})
    await ann.send({"type": "roll", "hold": [], "id": "r2"})
    done = await ann.until(lambda m: m["type"] == "event" and m["event"]["kind"] == "rolled"
                           and m["seq"] == 4)
    got = [m for m in ann.messages if m["type"] in ("holding", "error")]
    # The holds come back through the room's group, the error straight from the socket: the
    # two streams have no order between them.
    assert sorted(m["type"] for m in got) == ["error"] + ["holding"] * 4, got
    assert [m["code"] for m in got if m["type"] == "error"] == ["rate_limited"]
    seen = await watcher.until_seq(done["seq"])
    assert seen["seq"] == done["seq"]
    assert len([m for m in watcher.messages if m["type"] == "holding"]) == 4
    for c in (ann, watcher):
        await c.close()
    await close_layer()
