"""The process-wide presence heartbeat: one beat refreshes every socket of the process,
registers again what was swept, and announces what nobody else did (a server that died)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from game import protocol, selectors, services
from game.models import Connection, Seat
from game.realtime import heartbeat
from tests.support.sockets import seated_room

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


@database_sync_to_async
def age_everything(seconds: float) -> None:
    old = timezone.now() - timedelta(seconds=seconds)
    Connection.objects.update(last_seen=old)
    Seat.objects.update(last_seen=old)


async def test_one_beat_refreshes_every_socket_of_the_process(connect, sessions):
    first, people = await seated_room(sessions, ["Ann", "Bob"])
    second, others = await seated_room(sessions, ["Cy"])
    clients = [await connect(first.code, people[0][0], "ann"),
               await connect(first.code, people[1][0], "bob"),
               await connect(first.code, None, "watcher"),
               await connect(second.code, others[0][0], "cy")]
    await age_everything(50)
    before = timezone.now()

    writes = await database_sync_to_async(refresh_and_count_writes)()
    seen = await database_sync_to_async(lambda: list(
        Connection.objects.values_list("last_seen", flat=True)))()
    assert len(seen) == 4 and all(t >= before for t in seen)
    seats = await database_sync_to_async(lambda: list(
        Seat.objects.exclude(guest_key="").values_list("last_seen", flat=True)))()
    assert len(seats) == 3 and all(t >= before for t in seats)
    # One update for the sockets and one for the seats: not one per socket or per room.
    assert len(writes) == 2, writes
    for c in clients:
        await c.close()


def refresh_and_count_writes() -> list[str]:
    """The refresh step of a beat (this process's sockets); the statements that wrote."""
    with CaptureQueriesContext(connection) as ctx:
        assert services.refresh_sockets(dict(heartbeat._sockets)) == set()
    return [q["sql"][:60] for q in ctx.captured_queries
            if q["sql"].startswith(("UPDATE", "INSERT"))]


async def test_a_swept_row_comes_back_and_a_closed_socket_does_not(connect, sessions):
    room, people = await seated_room(sessions, ["Ann", "Bob"])
    ann = await connect(room.code, people[0][0], "ann")
    bob = await connect(room.code, people[1][0], "bob")
    await database_sync_to_async(lambda: Connection.objects.filter(
        guest_key=people[0][1]).delete())()
    await bob.close()
    await heartbeat.beat()
    rows = await database_sync_to_async(lambda: sorted(
        Connection.objects.values_list("guest_key", flat=True)))()
    assert rows == [people[0][1]]  # Ann registered again; Bob stays gone
    await ann.close()


async def test_a_dead_servers_socket_is_announced_gone_after_it_went_stale(connect, sessions):
    room, people = await seated_room(sessions, ["Ann", "Bob"])
    # Bob's socket lives on another server process, which then dies without a goodbye.
    await database_sync_to_async(lambda: Connection.objects.create(
        room=room, channel_name="specific.dead-server!bob", guest_key=people[1][1],
        last_seen=timezone.now()))()
    ann = await connect(room.code, people[0][0], "ann")
    assert ann.state["room"]["seats"][1]["connected"] is True
    await database_sync_to_async(lambda: Connection.objects.filter(
        channel_name="specific.dead-server!bob").update(
        last_seen=timezone.now() - timedelta(seconds=61)))()
    await heartbeat.beat()
    msg = await ann.until(lambda m: m["type"] == "presence" and not m["seats"][1]["connected"])
    assert msg["seats"][0]["connected"] is True
    await ann.close()


async def test_the_beat_wakes_the_bot_driver_only_where_it_may_have_work(connect, sessions):
    people_room, people = await seated_room(sessions, ["Ann", "Bob"])
    bot_room, hosts = await seated_room(sessions, ["Cy"], bots=["easy"])
    away_room, others = await seated_room(sessions, ["Di", "Ed"])
    clients = [await connect(people_room.code, people[0][0], "ann"),
               await connect(people_room.code, people[1][0], "bob"),
               await connect(bot_room.code, hosts[0][0], "cy"),
               await connect(away_room.code, others[0][0], "di")]  # Ed is away
    found = await database_sync_to_async(selectors.presences)(
        [people_room, bot_room, away_room])
    assert {code: driver for code, (_, driver) in found.items()} == {
        people_room.code: False, bot_room.code: True, away_room.code: True}
    # No game yet: nobody's turn is played for them.
    assert protocol.presence(found[away_room.code][0])["seats"] == [
        {"seat": 0, "connected": True, "autoplay_in": None, "host_passes_in": None},
        {"seat": 1, "connected": False, "autoplay_in": None, "host_passes_in": None}]
    for c in clients:
        await c.close()


async def test_a_refresh_of_many_sockets_fits_in_the_databases_limits():
    await database_sync_to_async(refresh_many_sockets)()


def refresh_many_sockets() -> None:
    # 1,500 seated guests in one process: more OR terms than SQLite nests in one statement.
    room = services.create_room(name="Big", rules="yahtzee", seats=[services.SeatSpec()],
                                host_key="host")
    sockets = {f"specific.x!{i}": (room, f"guest-{i}") for i in range(1500)}
    Connection.objects.bulk_create([
        Connection(room=room, channel_name=name, guest_key=guest,
                   last_seen=timezone.now() - timedelta(seconds=50))
        for name, (_, guest) in list(sockets.items())[:1200]])
    before = timezone.now()
    missing = services.refresh_sockets(sockets)
    assert missing == {f"specific.x!{i}" for i in range(1200, 1500)}
    assert Connection.objects.filter(last_seen__gte=before).count() == 1200
