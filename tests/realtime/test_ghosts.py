"""A socket that dies badly leaves no ghost: however its consumer ends, its presence ends with
it, the seat turns away and autoplay takes the turn. And one bad frame never ends a socket.

Over channels_redis on a real Redis, with the real consumer (WebsocketCommunicator drives it as
Daphne does: a cancel is what Daphne does to a consumer at shutdown or when its close took too
long)."""

from __future__ import annotations

import asyncio

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.db import connection

from game.models import Connection, GameEvent, Room
from game.realtime import heartbeat
from tests.support.sockets import close_layer, seated_room

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True), pytest.mark.redis]


@pytest.fixture
def fast_away(settings, layer):
    settings.AWAY_GRACE = 0.3
    return settings


async def started(connect, sessions):
    room, people = await seated_room(sessions, ["Ann", "Bob"])
    ann = await connect(room.code, people[0][0], "ann")
    bob = await connect(room.code, people[1][0], "bob")
    await ann.send({"type": "start"})
    for client in (ann, bob):
        await client.until(lambda m: m["type"] == "state" and m["game"] is not None)
    return room, ann, bob


async def channel_of(room, guest_seat: int) -> str:
    def find():
        seat = room.seats.get(index=guest_seat)
        return Connection.objects.get(room=room, guest_key=seat.guest_key).channel_name
    return await database_sync_to_async(find)()


async def assert_gone_and_autoplayed(room, channel: str, bob) -> None:
    """Ann's socket is forgotten everywhere; Bob hears she left; autoplay plays her turn."""
    assert channel not in heartbeat._sockets
    msg = await bob.until(lambda m: m["type"] == "presence" and not m["seats"][0]["connected"])
    assert msg["seats"][0]["connected"] is False
    assert 0 <= msg["seats"][0]["autoplay_in"] <= 0.3  # fast_away's grace, counting down
    assert not await Connection.objects.filter(channel_name=channel).aexists()
    event = await bob.until(lambda m: m["type"] == "event" and m["by"] == "autoplay")
    assert event["event"]["player"] == 0


async def raise_in_handler(ann, channel: str) -> None:
    # A message no handler knows (a newer server in a rolling deploy): dispatch raises, the
    # consumer ends, and disconnect() never runs.
    await get_channel_layer().send(channel, {"type": "from.the.future"})
    with pytest.raises(ValueError, match="No handler"):
        await ann.comm.wait(timeout=5)


async def cancel_by_server(ann, channel: str) -> None:
    ann.comm.future.cancel()  # what Daphne does at shutdown or to a close that took too long
    with pytest.raises(asyncio.CancelledError):
        await ann.comm.future


async def close_cleanly(ann, channel: str) -> None:
    await ann.close()


@pytest.mark.parametrize("layer", ["redis"], indirect=True)
@pytest.mark.parametrize("end", [raise_in_handler, cancel_by_server, close_cleanly])
async def test_however_a_consumer_ends_it_leaves_no_ghost(connect, sessions, fast_away, end):
    room, ann, bob = await started(connect, sessions)
    channel = await channel_of(room, 0)
    assert channel in heartbeat._sockets
    await end(ann, channel)
    await assert_gone_and_autoplayed(room, channel, bob)
    await bob.close()
    await close_layer()


@pytest.mark.parametrize("layer", ["redis"], indirect=True)
@pytest.mark.parametrize("bad_id", ["\ud800", "\udfff-x", "a\u0000b"])
async def test_unstorable_text_is_a_bad_message_and_changes_nothing(
        connect, sessions, layer, bad_id):
    room, ann, bob = await started(connect, sessions)
    before = await GameEvent.objects.filter(game__room=room).acount()
    reply = await ann.request({"type": "roll", "hold": [], "id": bad_id})
    assert reply["type"] == "error" and reply["code"] == "bad_message"
    assert await GameEvent.objects.filter(game__room=room).acount() == before
    # The socket is still open and works.
    reply = await ann.request({"type": "roll", "hold": [], "id": "fine"})
    assert reply["type"] == "event" and reply["event"]["kind"] == "rolled"
    await ann.close()
    await bob.close()
    await close_layer()


@pytest.mark.parametrize("layer", ["redis"], indirect=True)
async def test_an_unexpected_failure_is_a_server_error_and_the_socket_stays(
        connect, sessions, layer, caplog):
    room, ann, bob = await started(connect, sessions)
    table = GameEvent._meta.db_table

    def break_the_event_log(broken: bool) -> None:
        names = (table, f"{table}_away") if broken else (f"{table}_away", table)
        with connection.cursor() as cursor:
            cursor.execute(f'ALTER TABLE "{names[0]}" RENAME TO "{names[1]}"')

    await database_sync_to_async(break_the_event_log)(True)
    try:
        reply = await ann.request({"type": "roll", "hold": [], "id": "r1"})
    finally:
        await database_sync_to_async(break_the_event_log)(False)
    assert reply["type"] == "error" and reply["code"] == "server_error"
    assert reply["id"] == "r1"
    logged = [r for r in caplog.records if "could not be handled" in r.getMessage()]
    assert len(logged) == 1 and room.code in logged[0].getMessage()
    reply = await ann.request({"type": "roll", "hold": [], "id": "r2"})
    assert reply["type"] == "event" and reply["event"]["kind"] == "rolled"
    await ann.close()
    await bob.close()
    await close_layer()


@pytest.mark.parametrize("layer", ["redis"], indirect=True)
async def test_a_sync_loop_is_answered_without_rebuilding_the_state(connect, sessions, layer,
                                                                    settings):
    settings.WS_SYNC_BURST = 100  # the budget has its own test (tests/faults/test_limits.py)
    room, ann, bob = await started(connect, sessions)
    await bob.settle()  # the arrivals' last presence frames: each makes the next sync read
    first = await bob.request({"type": "sync"})
    # Changed behind the room's back (no broadcast): a repeated sync does not look again...
    await Room.objects.filter(pk=room.pk).aupdate(name="Renamed quietly")
    for _ in range(5):
        again = await bob.request({"type": "sync"})
        assert again == first
    # ...until something happens in the room: then the state is read afresh.
    await ann.request({"type": "roll", "hold": [], "id": "r1"})
    await bob.until(lambda m: m["type"] == "event" and m["event"]["kind"] == "rolled")
    fresh = await bob.request({"type": "sync"})
    assert fresh["seq"] == first["seq"] + 1
    assert fresh["room"]["name"] == "Renamed quietly"
    await ann.close()
    await bob.close()
    await close_layer()
