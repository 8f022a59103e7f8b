"""Scale-out: two real Daphne processes sharing one Redis (pub/sub layer) and one database."""

from __future__ import annotations

import asyncio
import json

import pytest
from django.contrib.sessions.backends.db import SessionStore
from websockets.asyncio.client import connect

from game import services
from game.models import Game, GameEvent, Seat
from game.protocol.client import event_messages
from game.store import rules_cache
from tests.support.rooms import make_session, room_with_players
from tests.support.servers import Daphne

pytestmark = [pytest.mark.redis, pytest.mark.django_db(transaction=True)]
TIMEOUT = 30


async def recv_until(ws, pred):
    """The first message ``pred`` accepts; an ``events`` frame is one ``event`` each."""
    while True:
        frame = json.loads(await asyncio.wait_for(ws.recv(), TIMEOUT))
        for msg in event_messages(frame) if frame["type"] == "events" else [frame]:
            if pred(msg):
                return msg


@pytest.fixture
def two_servers(redis_url, tmp_path):
    servers = [Daphne(redis_url, tmp_path), Daphne(redis_url, tmp_path)]
    try:
        for s in servers:
            s.start()
        yield servers
    finally:
        for s in servers:
            s.stop()


def test_a_watcher_on_process_two_sees_a_roll_made_through_process_one(two_servers):
    first, second = two_servers
    room, _ = room_with_players(["Ann"], start=False)
    session, guest = make_session()
    Seat.objects.create(room=room, index=1)
    services.take_seat(room.code, guest, "Bob", 1)
    host_session, _ = make_session()
    store = SessionStore(session_key=host_session)  # the host's browser: Ann's guest key
    store["guest"] = room.host_key
    store.save()

    async def scenario():
        path = f"/ws/rooms/{room.code}/"
        async with connect(first.url + path, origin=first.origin,
                           additional_headers={"Cookie": f"sessionid={host_session}"}) as ann, \
                connect(first.url + path, origin=first.origin,
                        additional_headers={"Cookie": f"sessionid={session}"}) as bob, \
                connect(second.url + path, origin=second.origin) as watcher:
            for ws in (ann, bob, watcher):
                await recv_until(ws, lambda m: m["type"] == "state")
            # Presence written by process 1 is seen by process 2's watcher.
            await ann.send(json.dumps({"type": "start"}))
            state = await recv_until(watcher, lambda m: m["type"] == "state" and m["game"])
            assert [s["connected"] for s in state["room"]["seats"]] == [True, True]
            assert state["room"]["watchers"] == 1 and state["you"]["seat"] is None

            await ann.send(json.dumps({"type": "roll", "hold": [], "id": "r1"}))
            seen = await recv_until(watcher, lambda m: m["type"] == "event")
            mine = await recv_until(ann, lambda m: m["type"] == "event")
            assert seen == mine and seen["seq"] == 3 and seen["event"]["kind"] == "rolled"
            # Holds as they happen cross processes too (never stored: checked below).
            await ann.send(json.dumps({"type": "hold", "held": [4, 1]}))
            for ws in (watcher, bob):
                shown = await recv_until(ws, lambda m: m["type"] == "holding")
                assert shown == {"type": "holding", "game": seen["game"], "seq": 3,
                                 "player": 0, "held": [1, 4]}

            # And the other way round: Bob plays through process 1, Ann's retry goes
            # through process 2 and is not applied twice.
            async with connect(second.url + path, origin=second.origin, additional_headers={
                    "Cookie": f"sessionid={host_session}"}) as ann2:
                await recv_until(ann2, lambda m: m["type"] == "state")
                await ann2.send(json.dumps({"type": "roll", "hold": [], "id": "r1"}))
                again = await recv_until(ann2, lambda m: m["type"] in ("state", "event"))
                assert again["type"] == "state" and again["seq"] == 3
                await ann2.send(json.dumps({"type": "score", "box": "chance", "id": "s1"}))
                for ws in (ann, watcher, bob):
                    turn = await recv_until(ws, lambda m: m["type"] == "event"
                                            and m["event"]["kind"] == "turn_started")
                    assert turn["event"]["player"] == 1
            return seen

    seen = asyncio.run(scenario())
    game = Game.objects.get(room=room)
    rolled = GameEvent.objects.get(game=game, seq=3)
    assert rolled.payload["dice"] == seen["event"]["dice"]
    assert game.events.filter(kind="rolled").count() == 1
    assert game.events.filter(kind="scored").count() == 1


def test_bots_driven_from_both_processes_never_play_a_move_twice(redis_url, tmp_path):
    """Sockets keep arriving at both processes, so both run a bot driver for the room; the
    row lock and the seq check let exactly one of them apply each move."""
    servers = [Daphne(redis_url, tmp_path, BOT_DELAY="0.02"),
               Daphne(redis_url, tmp_path, BOT_DELAY="0.02")]
    host_session, host = make_session()
    room = services.create_room(name="Bots", rules="yahtzee", host_key=host,
                                seats=[services.SeatSpec("easy"), services.SeatSpec("easy")])

    async def scenario():
        path = f"/ws/rooms/{room.code}/"
        async with connect(servers[0].url + path, origin=servers[0].origin,
                           additional_headers={"Cookie": f"sessionid={host_session}"}) as hostws:
            await recv_until(hostws, lambda m: m["type"] == "state")
            await hostws.send(json.dumps({"type": "start"}))
            finished = asyncio.ensure_future(recv_until(
                hostws, lambda m: m["type"] == "event" and m["event"]["kind"] == "game_finished"))
            i = 0
            while not finished.done():  # every connect kicks that process's driver
                s = servers[i % 2]
                async with connect(s.url + path, origin=s.origin) as ws:
                    await recv_until(ws, lambda m: m["type"] == "state")
                i += 1
            return await finished, i

    try:
        for s in servers:
            s.start()
        last, connects = asyncio.run(scenario())
    finally:
        for s in servers:
            s.stop()
    assert connects >= 2
    game = Game.objects.get(room=room)
    assert game.status == "finished" and last["seq"] == game.seq
    rebuilt = rules_cache.rebuild(game)  # the history is a valid game: no move was doubled
    assert rebuilt.is_over and rebuilt.to_dict() == game.snapshot
    assert game.events.filter(kind="scored").count() == 2 * 13
    assert set(game.events.exclude(seq__lte=2).exclude(
        kind__in=("turn_started", "game_finished")).values_list("by", flat=True)) == {"bot"}
