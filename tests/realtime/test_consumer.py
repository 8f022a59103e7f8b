"""The room websocket over WebsocketCommunicator: whole games, bad input, reconnects — on the
in-memory layer and on channels_redis pub/sub over a real Redis."""

from __future__ import annotations

import asyncio
import json

import pytest
from channels.db import database_sync_to_async

from game.models import Game, GameEvent, Room
from tests.support.sockets import close_layer, play_move, seated_room

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize(("layer", "rules"), [
    ("memory", "yahtzee"), ("memory", "triple"),
    pytest.param("redis", "yahtzee", marks=pytest.mark.redis),
], indirect=["layer"])
async def test_two_players_and_a_watcher_play_a_whole_game(layer, connect, sessions, rules,
                                                           settings):
    settings.WS_RATE_PER_SECOND = 10_000  # a scripted player is faster than any person
    room, people = await seated_room(sessions, ["Ann", "Bob"], rules=rules)
    ann = await connect(room.code, people[0][0], "ann")
    bob = await connect(room.code, people[1][0], "bob")
    watcher = await connect(room.code, None, "watcher")
    assert ann.state["you"] == {"seat": 0, "host": True}
    assert bob.state["you"] == {"seat": 1, "host": False}
    assert watcher.state["you"] == {"seat": None, "host": False}
    assert watcher.state["game"] is None and watcher.state["room"]["status"] == "waiting"
    everyone = [ann, bob, watcher]

    await ann.send({"type": "start", "id": "s1"})
    for c in everyone:
        state = await c.until(lambda m: m["type"] == "state" and m["game"] is not None)
        assert state["seq"] == 2 and state["room"]["status"] == "playing"
    assert [s["connected"] for s in watcher.state["room"]["seats"]] == [True, True]
    assert watcher.state["room"]["watchers"] == 1

    players = [ann, bob]
    while not ann.game["finished"]:
        await play_move(players[ann.game["current_player"]], everyone)

    stored = await database_sync_to_async(
        lambda: list(GameEvent.objects.filter(game__room=room).order_by("seq").values_list(
            "seq", "kind", "payload")))()
    expected = [(seq, {"kind": kind, **payload}) for seq, kind, payload in stored if seq > 2]
    for c in everyone:
        got = [(m["seq"], m["event"]) for m in c.events]
        assert got == expected, c.name
        assert c.game["finished"] and c.errors == []
    final = await Game.objects.aget(room=room)
    assert final.status == "finished" and ann.game["winners"] == final.winners
    assert ann.game == {**final.snapshot, "id": final.pk, "seq": final.seq}
    for c in everyone:
        await c.close()
    await close_layer()


async def test_every_bad_message_gets_its_code_and_changes_nothing(layer, connect, sessions,
                                                                   settings):
    settings.WS_RATE_PER_SECOND = 10_000  # the flood limit has its own test
    room, people = await seated_room(sessions, ["Ann", "Bob"])
    ann = await connect(room.code, people[0][0], "ann")
    bob = await connect(room.code, people[1][0], "bob")
    watcher = await connect(room.code, None, "watcher")

    async def expect(client, message, code):
        reply = await client.request(message)
        assert reply["type"] == "error" and reply["code"] == code, (message, reply)
        assert reply["message"]

    # Before the game.
    await expect(ann, {"type": "roll", "hold": []}, "no_game")
    await expect(bob, {"type": "start"}, "not_host")
    await expect(watcher, {"type": "start"}, "not_host")
    await ann.send({"type": "start"})
    for c in (ann, bob, watcher):
        await c.until(lambda m: m["type"] == "state" and m["game"] is not None)
    game = await Game.objects.aget(room=room)

    shape_cases = [
        ("this is not json", "bad_json"),
        ('{"type": "roll"', "bad_json"),
        ("[1, 2, 3]", "bad_message"),
        ('"roll"', "bad_message"),
        ("{}", "bad_message"),
        ({"type": 5}, "bad_message"),
        ({"type": ["roll"]}, "bad_message"),
        ({"type": "dance"}, "unknown_type"),
        ({"type": "roll", "hold": "all"}, "bad_message"),
        ({"type": "roll", "hold": [0, 1, 2, 3, 4, 0]}, "bad_message"),
        ({"type": "roll", "hold": [True]}, "bad_message"),
        ({"type": "roll", "hold": [], "id": 7}, "bad_message"),
        ({"type": "roll", "hold": [], "id": "x" * 65}, "bad_message"),
        ({"type": "score", "box": 5}, "bad_message"),
        ({"type": "score", "box": "chance", "column": "1"}, "bad_message"),
        ({"type": "score", "box": "chance", "column": 10**30}, "bad_message"),
        ("[" * 2000 + "]" * 2000, "bad_json"),
        (json.dumps({"type": "sync", "pad": "x" * 5000}), "too_large"),
    ]
    for message, code in shape_cases:
        await expect(watcher, message, code)
    await watcher.comm.send_to(bytes_data=b"\x00\x01")
    reply = await watcher.until_type("error")
    assert reply["code"] == "bad_message"

    await expect(watcher, {"type": "roll", "hold": []}, "watcher")
    await expect(watcher, {"type": "score", "box": "chance"}, "watcher")
    await expect(bob, {"type": "roll", "hold": []}, "not_your_turn")
    await expect(ann, {"type": "score", "box": "chance", "column": 0}, "not_rolled")
    await expect(ann, {"type": "roll", "hold": [0]}, "hold_before_roll")
    await expect(ann, {"type": "start"}, "game_running")
    await expect(ann, {"type": "rematch"}, "game_running")
    reply = await ann.request({"type": "roll", "hold": [], "id": "r1"})
    assert reply["type"] == "event" and reply["seq"] == 3
    await expect(ann, {"type": "roll", "hold": [5]}, "invalid_die_position")
    await expect(ann, {"type": "roll", "hold": [1, 1]}, "invalid_die_position")
    await expect(ann, {"type": "score", "box": "bogus"}, "unknown_box")
    await expect(ann, {"type": "score", "box": "chance", "column": 1}, "invalid_column")
    reply = await ann.request({"type": "score", "box": "one_pair", "id": "e9"})
    assert reply["code"] == "unknown_box" and reply["id"] == "e9"  # yatzy box, not yahtzee
    await ann.request({"type": "roll", "hold": [0, 1, 2, 3, 4]})
    await ann.request({"type": "roll", "hold": [0, 1, 2, 3, 4]})
    await expect(ann, {"type": "roll", "hold": []}, "no_rolls_left")

    await game.arefresh_from_db()
    assert game.seq == 5  # the three rolls, nothing else
    # A filled box: Ann scores chance, Bob plays, Ann tries chance again.
    for who, player, move, kind in (
            (ann, 0, {"type": "score", "box": "chance"}, "scored"),
            (bob, 1, {"type": "roll", "hold": []}, "rolled"),
            (bob, 1, {"type": "score", "box": "chance"}, "scored"),
            (ann, 0, {"type": "roll", "hold": []}, "rolled")):
        await who.send(move)
        reply = await who.until(lambda m, p=player, k=kind: m["type"] == "error" or (
            m["type"] == "event" and m["event"]["kind"] == k and m["event"]["player"] == p))
        assert reply["type"] == "event", reply
    await expect(ann, {"type": "score", "box": "chance"}, "box_filled")
    await game.arefresh_from_db()
    seq = game.seq
    # The socket is still open and answers.
    await watcher.send({"type": "sync"})
    state = await watcher.until_type("state")
    assert state["seq"] == seq and [e["seq"] for e in watcher.events] == list(range(3, seq + 1))
    for c in (ann, bob, watcher):
        await c.close()
    await close_layer()


async def test_a_flood_is_rate_limited_and_the_socket_survives(connect, sessions, settings):
    settings.WS_RATE_BURST = 5
    settings.WS_RATE_PER_SECOND = 0.001  # no refill within the test
    room, people = await seated_room(sessions, ["Ann"])
    ann = await connect(room.code, people[0][0], "ann")
    watcher = await connect(room.code, None, "watcher")
    await ann.send({"type": "start"})
    for c in (ann, watcher):
        await c.until(lambda m: m["type"] == "state" and m["game"] is not None)
    for _ in range(60):  # a watcher's moves: each refused with an error while under the limit
        await watcher.send({"type": "roll", "hold": []})
    replies = [await watcher.until(lambda m: m["type"] in ("state", "error"))
               for _ in range(6)]
    assert [r["code"] for r in replies] == ["watcher"] * 5 + ["rate_limited"]
    # The flood changed nothing, and the socket still gets the room's stream.
    reply = await ann.request({"type": "roll", "hold": []})
    assert reply["type"] == "event" and reply["seq"] == 3
    seen = await watcher.until(lambda m: m["type"] in ("event", "state", "error"))
    assert seen["type"] == "event" and seen["seq"] == 3  # the other 54 frames were dropped
    await ann.close()
    await watcher.close()


async def test_a_reconnecting_player_gets_the_full_state(layer, connect, sessions):
    room, people = await seated_room(sessions, ["Ann", "Bob"])
    ann = await connect(room.code, people[0][0], "ann")
    await ann.send({"type": "start"})
    await ann.until(lambda m: m["type"] == "state" and m["game"] is not None)
    await ann.request({"type": "roll", "hold": []})
    await ann.request({"type": "roll", "hold": [0, 1]})
    before = ann.game
    await ann.close()

    again = await connect(room.code, people[0][0], "ann-again")
    assert again.state["you"] == {"seat": 0, "host": True}
    assert again.state["seq"] == 4 and again.game == before
    assert again.game["dice"] == before["dice"] and again.game["rolls_left"] == 1
    # A second tab of the same guest is the same seat and may play.
    tab = await connect(room.code, people[0][0], "ann-tab")
    assert tab.state["you"]["seat"] == 0
    reply = await tab.request({"type": "score", "box": "chance"})
    assert reply["type"] == "event" and reply["event"]["kind"] == "scored"
    await again.until_seq(reply["seq"])
    await again.close()
    await tab.close()
    await close_layer()


async def test_a_repeated_command_id_applies_once_over_the_socket(connect, sessions):
    room, people = await seated_room(sessions, ["Ann"])
    ann = await connect(room.code, people[0][0], "ann")
    await ann.send({"type": "start"})
    await ann.until(lambda m: m["type"] == "state" and m["game"] is not None)
    first = await ann.request({"type": "roll", "hold": [], "id": "c-1"})
    again = await ann.request({"type": "roll", "hold": [], "id": "c-1"})
    assert first["type"] == "event" and first["seq"] == 3
    assert again["type"] == "state" and again["seq"] == 3
    assert await GameEvent.objects.filter(game__room=room).acount() == 3
    await ann.close()


async def test_two_tabs_scoring_at_once_apply_exactly_once(connect, sessions):
    room, people = await seated_room(sessions, ["Ann", "Bob"])
    tab1 = await connect(room.code, people[0][0], "tab1")
    tab2 = await connect(room.code, people[0][0], "tab2")
    await tab1.send({"type": "start"})
    for t in (tab1, tab2):
        await t.until(lambda m: m["type"] == "state" and m["game"] is not None)
    rolled = await tab1.request({"type": "roll", "hold": []})
    await tab2.until_seq(rolled["seq"])
    await asyncio.gather(tab1.send({"type": "score", "box": "chance", "id": "a"}),
                         tab2.send({"type": "score", "box": "ones", "id": "b"}))
    errors = []
    for t in (tab1, tab2):
        msg = await t.until(lambda m: m["type"] == "error" or (
            m["type"] == "event" and m["event"]["kind"] == "turn_started"))
        if msg["type"] == "error":
            errors.append(msg["code"])
    assert errors == ["not_your_turn"]
    assert await GameEvent.objects.filter(game__room=room, kind="scored").acount() == 1
    for t in (tab1, tab2):
        await t.close()


async def test_unknown_room_is_refused_and_presence_is_shared(connect, sessions):
    from channels.testing import WebsocketCommunicator

    from yahtzee_site.asgi import application

    comm = WebsocketCommunicator(application, "/ws/rooms/nosuchroom/",
                                 headers=[(b"origin", b"http://localhost"),
                                          (b"host", b"localhost")])
    connected, code = await comm.connect(timeout=5)
    assert not connected
    foreign = WebsocketCommunicator(application, "/ws/rooms/abc/",
                                    headers=[(b"origin", b"http://evil.example")])
    connected, _ = await foreign.connect(timeout=5)
    assert not connected

    room, people = await seated_room(sessions, ["Ann", "Bob"])
    ann = await connect(room.code, people[0][0], "ann")
    bob = await connect(room.code, people[1][0], "bob")
    msg = await ann.until(lambda m: m["type"] == "presence" and m["seats"][1]["connected"])
    assert msg["seats"] == [
        {"seat": 0, "connected": True, "autoplay_in": None, "host_passes_in": None},
        {"seat": 1, "connected": True, "autoplay_in": None, "host_passes_in": None}]
    await bob.close()
    # A presence sent before the close (a beat, Bob's own arrival) may still be on its way.
    msg = await ann.until(lambda m: m["type"] == "presence" and not m["seats"][1]["connected"])
    # No game: nobody's turn is played for them.
    assert msg["seats"][1] == {"seat": 1, "connected": False, "autoplay_in": None,
                               "host_passes_in": None}  # Bob is not the host
    assert msg["watchers"] == 0
    assert (await Room.objects.aget(pk=room.pk)).status == "waiting"
    await ann.close()
