"""A daily challenge's room over its socket: only its player connects (no watchers); its
player may roll, score, hold and sync, nothing that changes the room; no standings or advice
frame ever reaches it; and every dice it is sent are dice it rolled."""

from __future__ import annotations

import json

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from game import services
from game.models import DailyAttempt
from game.services.daily import start_attempt
from tests.support.rooms import make_session
from tests.support.sockets import HOST, ORIGIN, close_layer, play_move

DB = pytest.mark.django_db(transaction=True)


def _attempt(guest: str) -> DailyAttempt:
    attempt = start_attempt(services.new_player("Ann"), guest, "yahtzee")
    return DailyAttempt.objects.select_related("room", "challenge").get(pk=attempt.pk)


@DB
@pytest.mark.asyncio
async def test_only_its_player_connects_and_room_commands_are_refused(connect, layer):
    from yahtzee_site.asgi import application

    (mine, guest), (other, _) = [await database_sync_to_async(make_session)() for _ in range(2)]
    attempt = await database_sync_to_async(_attempt)(guest)
    code = attempt.room.code
    comm = WebsocketCommunicator(application, f"/ws/rooms/{code}/", headers=[
        ORIGIN, HOST, (b"cookie", f"sessionid={other}".encode())])
    connected, close_code = await comm.connect(timeout=5)
    assert not connected and close_code == 4403  # no watchers
    player = await connect(code, mine, name="ann")
    for kind in ("rematch", "start", "add_seat", "play_for_away", "seed"):
        reply = await player.request({"type": kind, "seed": "x"})
        assert reply["type"] == "error" and reply["code"] == "daily", reply
    for _ in range(12):  # four turns: roll, roll, score
        await play_move(player, [player])
    assert player.game["round"] == 5
    kinds = {m["type"] for m in player.messages}
    assert not kinds & {"standings", "advice"}, kinds
    text = json.dumps(player.messages)
    assert attempt.challenge.seed not in text
    await player.close()
    await close_layer()


@DB
def test_the_computer_never_plays_a_daily_game_even_with_another_tab_of_the_player_open():
    """The player moved to another device while a tab of the first stays open (a socket of
    another guest in the room): the game still waits for them, however long they are away."""
    from game.models import Connection
    from game.selectors.next_move import next_plan

    attempt = start_attempt(services.new_player("Ann"), "laptop", "yahtzee")
    Connection.objects.create(room=attempt.room, channel_name="phone-tab", guest_key="phone",
                              last_seen=attempt.created)
    assert next_plan(attempt.room.code) is None
