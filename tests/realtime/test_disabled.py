"""A player the staff disabled is refused, over the room's websocket, every command of its
seat: the room's changes and the moves of a running game (error ``disabled``)."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async

from game import services
from game.models import GameEvent, Seat
from tests.support.sockets import seated_room

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


def disable_seat_player(code: str, index: int) -> None:
    seat = Seat.objects.get(room__code=code, index=index)
    seat.player = services.new_player(seat.nickname)
    seat.save(update_fields=["player"])
    services.set_player_disabled(seat.player, True)


async def test_a_disabled_players_seat_can_neither_change_the_room_nor_play(connect, sessions):
    room, people = await seated_room(sessions, ["Ann"], bots=["easy"])
    ann = await connect(room.code, people[0][0], "ann")
    await ann.send({"type": "start"})
    await ann.until(lambda m: m["type"] == "state" and m["game"] is not None)
    await database_sync_to_async(disable_seat_player)(room.code, 0)
    moved = await ann.request({"type": "roll", "hold": []})
    assert moved["type"] == "error" and moved["code"] == "disabled", moved
    assert "disabled" in moved["message"]
    events = await GameEvent.objects.filter(game__room=room).acount()
    refused = await ann.request({"type": "seed", "seed": "mine"})
    assert refused["type"] == "error" and refused["code"] == "disabled", refused
    assert await GameEvent.objects.filter(game__room=room).acount() == events
    await ann.close()
