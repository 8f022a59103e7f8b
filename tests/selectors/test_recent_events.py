"""The ``recent`` events of a ``state``: what a page that reloads or reconnects shows in its log.
They must be exactly the events a connected page received live, in order, at most 50."""

from __future__ import annotations

from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.db import connection
from django.test.utils import CaptureQueriesContext

from game import protocol, services
from game.models import Game
from game.protocol.client import event_messages
from game.rules import Roll, Score
from game.selectors import RECENT_EVENTS, recent_events
from tests.support.rooms import as_action, next_move, room_with_players
from tests.support.sockets import close_layer, play_move, seated_room

DB = pytest.mark.django_db(transaction=True)


def as_recent(message: dict[str, Any]) -> dict[str, Any]:
    """An ``event`` message as ``recent`` carries it: no ``type``, no ``game`` snapshot."""
    return {"seq": message["seq"], "event": message["event"], "by": message["by"]}


def started(game: dict[str, Any]) -> list[dict[str, Any]]:
    """The first two events of a new game of Ann and Bob, with its dice commitment and seeds."""
    fair = game["fairness"]
    return [
        {"seq": 1, "event": {"kind": "game_started", "rules": "yahtzee", "players": ["Ann", "Bob"],
                             "commitment": fair["commitment"],
                             "client_seeds": fair["client_seeds"]}, "by": "system"},
        {"seq": 2, "event": {"kind": "turn_started", "player": 0, "round": 1}, "by": "system"},
    ]


@pytest.mark.asyncio
@DB
@pytest.mark.parametrize("layer", ["memory", pytest.param("redis", marks=pytest.mark.redis)],
                         indirect=True)
async def test_after_a_reconnect_recent_holds_the_events_received_live(layer, connect,
                                                                       sessions, settings):
    settings.WS_RATE_PER_SECOND = 10_000
    room, people = await seated_room(sessions, ["Ann", "Bob"])
    ann = await connect(room.code, people[0][0], "ann")
    bob = await connect(room.code, people[1][0], "bob")
    watcher = await connect(room.code, None, "watcher")
    assert watcher.state["recent"] == []  # no game yet
    everyone = [ann, bob, watcher]

    await ann.send({"type": "start", "id": "s1"})
    for c in everyone:
        state = await c.until(lambda m: m["type"] == "state" and m["game"] is not None)
        assert state["recent"] == started(state["game"])
    # Ann rolls twice and scores (scored, turn_started), Bob rolls twice: mid-turn.
    for _ in range(5):
        mover = ann if ann.game["current_player"] == 0 else bob
        await play_move(mover, everyone)
    assert bob.game["current_player"] == 1 and bob.game["rolls_left"] == 1
    live = [as_recent(m) for m in bob.events]
    assert [m["seq"] for m in live] == list(range(3, 9))
    assert {m["by"] for m in live} == {"human"}
    await bob.close()

    again = await connect(room.code, people[1][0], "bob-again")
    recent = again.state["recent"]
    assert recent == started(bob.game) + live
    assert recent[-1]["seq"] == again.state["seq"] == again.game["seq"]
    # A watcher gets the same history, and a sync gives it again.
    await watcher.send({"type": "sync"})
    synced = await watcher.until_type("state")
    assert synced["recent"] == recent
    for c in (ann, again, watcher):
        await c.close()
    await close_layer()


def play_to_end(room, guests: list[str]) -> list[dict[str, Any]]:
    """Play the room's game to its end with the services; the ``event`` messages sent."""
    sent: list[dict[str, Any]] = []
    game = Game.objects.get(room=room)
    while game.status == Game.Status.PLAYING:
        player = game.snapshot["current_player"]
        result = services.play(room.code, as_action(next_move(game.snapshot)),
                               guest_key=guests[player])
        sent += event_messages(protocol.events(result))
        game.refresh_from_db()
    return sent


@pytest.mark.asyncio
@DB
async def test_after_a_long_game_recent_holds_its_last_50_events_then_a_rematch_clears_it(
        connect, settings):
    settings.DICE_SEED = "recent-events"
    room, guests = await database_sync_to_async(room_with_players)(["Ann", "Bob"])
    sent = await database_sync_to_async(play_to_end)(room, guests)
    assert len(sent) > RECENT_EVENTS + 10

    watcher = await connect(room.code, None, "watcher")
    recent = watcher.state["recent"]
    assert len(recent) == RECENT_EVENTS
    assert recent == [as_recent(m) for m in sent[-RECENT_EVENTS:]]
    assert recent[-1]["event"]["kind"] == "game_finished"
    assert recent[-1]["seq"] == watcher.state["seq"]

    # A rematch is a new game: its history starts afresh.
    finished_id = watcher.game["id"]
    await database_sync_to_async(services.start_game)(room.code, guests[0])
    state = await watcher.until(lambda m: m["type"] == "state" and m["game"]["id"] != finished_id)
    assert state["recent"] == started(state["game"])
    await watcher.close()


@pytest.mark.django_db
def test_recent_events_is_one_query_and_stops_at_the_rows_seq():
    room, guests = room_with_players(["Ann", "Bob"])
    for hold in [(), (0,), (0, 1)]:
        services.play(room.code, Roll(hold), guest_key=guests[0])
    game = Game.objects.get(room=room)
    with CaptureQueriesContext(connection) as queries:
        recent = recent_events(game, limit=4)
    assert len(queries) == 1
    assert [e["seq"] for e in recent] == [2, 3, 4, 5]
    assert recent[-1]["event"]["kind"] == "rolled" and recent[-1]["event"]["roll"] == 3
    # A row read before a later command stored its events does not see them.
    stale = Game.objects.get(room=room)
    services.play(room.code, Score("chance"), guest_key=guests[0])
    assert recent_events(stale)[-1]["seq"] == 5
    assert recent_events(Game.objects.get(room=room))[-1]["seq"] == 7
