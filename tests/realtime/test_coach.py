"""The coach of a practice room: after each roll the player to move (and only they) gets what
each choice is worth — the numbers of ``manage.py advise`` — and no other room's socket ever
carries advice."""

from __future__ import annotations

import io
import json

import pytest
from channels.db import database_sync_to_async
from django.core.management import call_command

from game.models import Room
from tests.support.sockets import close_layer, play_move, seated_room

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True),
              pytest.mark.usefixtures("yahtzee_table")]


def advise(dice: list[int], rolls_left: int) -> list[dict]:
    out = io.StringIO()
    call_command("advise", "--rules", "yahtzee", "--dice", ",".join(map(str, dice)),
                 "--rolls-left", str(rolls_left), "--json", stdout=out)
    return json.loads(out.getvalue())


async def practice_room(sessions, names, practice=True):
    room, people = await seated_room(sessions, names)
    await Room.objects.filter(pk=room.pk).aupdate(practice=practice)
    return room, people


async def test_the_player_to_move_gets_advise_s_numbers_after_each_roll(connect, sessions,
                                                                        layer):
    room, people = await practice_room(sessions, ["Ann", "Bob"])
    ann = await connect(room.code, people[0][0], "ann")
    bob = await connect(room.code, people[1][0], "bob")
    watcher = await connect(room.code, None, "watcher")
    await ann.send({"type": "start"})
    for c in (ann, bob, watcher):
        state = await c.until(lambda m: m["type"] == "state" and m["game"] is not None)
        assert state["room"]["practice"] is True
    rolled = await ann.request({"type": "roll", "hold": [], "id": "r1"})
    advice = await ann.until_type("advice")
    dice = rolled["event"]["dice"]
    assert advice["seq"] == rolled["seq"] and advice["player"] == 0
    assert advice["rolls_left"] == 2
    expected = advise(dice, 2)
    assert [(h["dice"], h["value"]) for h in advice["holds"]] == [
        (e["hold"], pytest.approx(e["expected"], abs=5e-4)) for e in expected]
    for h in advice["holds"]:  # positions that keep those dice
        assert sorted(dice[i] for i in h["hold"]) == h["dice"]
    # Boxes too: scoring now is a choice with rolls left.
    assert {b["box"] for b in advice["boxes"]} == {e["box"] for e in advise(dice, 0)}
    # After the last roll: boxes only, the same as advise.
    await ann.request({"type": "roll", "hold": [], "id": "r2"})
    await ann.until_type("advice")
    last = await ann.request({"type": "roll", "hold": [], "id": "r3"})
    final = await ann.until_type("advice")
    assert final["seq"] == last["seq"] and final["holds"] == []
    assert [(b["box"], b["value"]) for b in final["boxes"]] == [
        (e["box"], pytest.approx(e["expected"], abs=5e-4))
        for e in advise(last["event"]["dice"], 0)]
    # Nobody else was told (the group message went out at once: a sync after proves it).
    for c in (bob, watcher):
        await c.request({"type": "sync"})
        assert not [m for m in c.messages if m["type"] == "advice"], c.name
    # A reload mid-turn gets the advice again after its state.
    again = await connect(room.code, people[0][0], "ann again")
    assert (await again.until_type("advice"))["seq"] == last["seq"]
    for c in (ann, bob, watcher, again):
        await c.close()
    await close_layer()


async def test_no_socket_of_a_normal_room_ever_carries_advice(connect, sessions, settings):
    settings.WS_RATE_PER_SECOND = 10_000  # a scripted player is faster than any person
    room, people = await practice_room(sessions, ["Ann", "Bob"], practice=False)
    ann = await connect(room.code, people[0][0], "ann")
    bob = await connect(room.code, people[1][0], "bob")
    watcher = await connect(room.code, None, "watcher")
    everyone = (ann, bob, watcher)
    await ann.send({"type": "start"})
    for c in everyone:
        await c.until(lambda m: m["type"] == "state" and m["game"] is not None)
    movers = {0: ann, 1: bob}
    while not ann.game["finished"]:
        await play_move(movers[ann.game["current_player"]], everyone)
    for c in everyone:
        await c.request({"type": "sync"})
        assert not [m for m in c.messages if m["type"] == "advice"], c.name
        assert not [m for m in c.messages if "holds" in m or "boxes" in m], c.name
    assert await database_sync_to_async(lambda: Room.objects.get(pk=room.pk).practice)() is False
    for c in everyone:
        await c.close()
    await close_layer()
