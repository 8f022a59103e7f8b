"""A seated person away: everyone sees when the computer plays for them, the host can have it
played at once, and a host away past the grace hands the role on."""

from __future__ import annotations

import pytest

from game.models import Room
from game.realtime import heartbeat
from tests.support.correspondence import Clock
from tests.support.sockets import play_move, seated_room

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


def seat_of(frame, index):
    seats = frame["room"]["seats"] if frame["type"] == "state" else frame["seats"]
    return next(s for s in seats if s["seat"] == index)


async def test_everyone_is_told_when_the_computer_plays_for_an_away_player(
        connect, sessions, settings):
    settings.AWAY_GRACE = 600
    room, people = await seated_room(sessions, ["Ann", "Bob"])
    ann = await connect(room.code, people[0][0], "ann")
    bob = await connect(room.code, people[1][0], "bob")
    assert seat_of(ann.state, 1)["autoplay_in"] is None  # no game yet: nobody is waited for
    await ann.send({"type": "start"})
    await ann.until(lambda m: m["type"] == "state" and m["game"] is not None)
    await bob.until(lambda m: m["type"] == "state" and m["game"] is not None)
    await bob.close()
    left = await ann.until(lambda m: m["type"] == "presence"
                           and not seat_of(m, 1)["connected"])
    assert 590 <= seat_of(left, 1)["autoplay_in"] <= 600
    assert seat_of(left, 0)["autoplay_in"] is None  # Ann is here
    # The countdown changes with every reading, who is here does not: beats announce nothing.
    await heartbeat.beat()
    await heartbeat.beat()
    assert await ann.comm.receive_nothing(timeout=0.5)
    watcher = await connect(room.code, None, "watcher")
    assert 0 < seat_of(watcher.state, 1)["autoplay_in"] <= seat_of(left, 1)["autoplay_in"]
    assert seat_of(watcher.state, 0)["autoplay_in"] is None
    # Bob is back: nobody waits for the computer any more.
    bob = await connect(room.code, people[1][0], "bob")
    back = await ann.until(lambda m: m["type"] == "presence" and seat_of(m, 1)["connected"])
    assert seat_of(back, 1)["autoplay_in"] is None
    assert seat_of(bob.state, 1)["autoplay_in"] is None
    for client in (ann, bob, watcher):
        await client.close()


async def test_the_host_has_the_computer_play_an_away_players_turn_now(
        connect, sessions, settings):
    settings.AWAY_GRACE = 3600  # without the host, Bob's turn would wait an hour
    settings.AUTOPLAY_LEVEL = "easy"
    settings.WS_RATE_PER_SECOND = 10_000
    room, people = await seated_room(sessions, ["Ann", "Bob", "Cy"])
    ann = await connect(room.code, people[0][0], "ann")
    cy = await connect(room.code, people[2][0], "cy")
    refused = await ann.request({"type": "play_for_away", "id": "early"})
    assert (refused["type"], refused["code"], refused["id"]) == ("error", "no_game", "early")
    await ann.send({"type": "start"})
    for client in (ann, cy):
        await client.until(lambda m: m["type"] == "state" and m["game"] is not None)
    refused = await ann.request({"type": "play_for_away"})
    assert (refused["type"], refused["code"]) == ("error", "not_away")  # Ann's turn, Ann here
    while ann.game["current_player"] == 0:
        await play_move(ann, [ann, cy])
    assert ann.game["current_player"] == 1  # Bob never came
    refused = await cy.request({"type": "play_for_away"})
    assert (refused["type"], refused["code"]) == ("error", "not_host")
    refusals = len(ann.errors)
    await ann.send({"type": "play_for_away"})
    passed = await ann.until(lambda m: m["type"] == "event"
                             and m["event"]["kind"] == "turn_started")
    assert passed["event"]["player"] == 2
    bobs = [m for m in ann.events if m["event"].get("player") == 1
            and m["event"]["kind"] in ("rolled", "scored")]
    assert bobs[-1]["event"]["kind"] == "scored"
    assert {m["by"] for m in bobs} == {"autoplay"}
    assert len(ann.errors) == refusals
    # Whoever comes now reads who played whose turns: one of Bob's, by the computer.
    watcher = await connect(room.code, None, "watcher")
    assert watcher.state["autoplayed"] == [0, 1, 0]
    await watcher.close()
    # Cy's turn, Cy here: the host cannot take it from them.
    refused = await ann.request({"type": "play_for_away"})
    assert (refused["type"], refused["code"]) == ("error", "not_away")
    for client in (ann, cy):
        await client.close()


async def test_a_host_away_past_the_grace_hands_the_role_to_a_player_who_is_here(
        connect, sessions, settings):
    settings.AWAY_GRACE = 3600
    room, people = await seated_room(sessions, ["Ann", "Bob", "Cy"])
    ann = await connect(room.code, people[0][0], "ann")
    cy = await connect(room.code, people[2][0], "cy")
    watcher = await connect(room.code, None, "watcher")
    await ann.close()
    await cy.until(lambda m: m["type"] == "presence" and not seat_of(m, 0)["connected"])
    await heartbeat.beat()  # within the grace: Ann is still the host
    assert (await Room.objects.aget(pk=room.pk)).host_key == people[0][1]
    settings.AWAY_GRACE = 0
    await heartbeat.beat()
    # Bob never came: Cy, the first seated player here, is the host now, and everyone is told.
    state = await cy.until(lambda m: m["type"] == "state")
    assert state["you"] == {"seat": 2, "host": True}
    assert [s["host"] for s in state["room"]["seats"]] == [False, False, True]
    seen = await watcher.until(lambda m: m["type"] == "state")
    assert seen["you"]["host"] is False and seat_of(seen, 2)["host"] is True
    assert (await Room.objects.aget(pk=room.pk)).host_key == people[2][1]
    reply = await cy.request({"type": "room_options", "turn_time": 60})
    assert reply["type"] == "state" and reply["room"]["turn_time"] == 60  # a host's command
    # Ann is back: she plays on, as a guest of the new host.
    ann = await connect(room.code, people[0][0], "ann")
    assert ann.state["you"] == {"seat": 0, "host": False}
    for client in (ann, cy, watcher):
        await client.close()


async def test_a_host_gone_before_the_start_counts_down_then_a_seated_friend_starts(
        connect, sessions, settings):
    settings.AWAY_GRACE = 3600
    room, people = await seated_room(sessions, ["Ann", "Bob", "Cy"])
    ann = await connect(room.code, people[0][0], "ann")
    cy = await connect(room.code, people[2][0], "cy")
    watcher = await connect(room.code, None, "watcher")
    assert seat_of(cy.state, 0)["host_passes_in"] is None  # Ann is here
    await ann.close()
    left = await cy.until(lambda m: m["type"] == "presence" and not seat_of(m, 0)["connected"])
    assert 3590 <= seat_of(left, 0)["host_passes_in"] <= 3600  # everyone counts down
    assert [seat_of(left, i)["host_passes_in"] for i in (1, 2)] == [None, None]
    later = await connect(room.code, None, "later")
    assert 0 < seat_of(later.state, 0)["host_passes_in"] <= seat_of(left, 0)["host_passes_in"]
    assert seat_of(later.state, 1)["host_passes_in"] is None  # Bob is away, not the host
    # Within the grace the role is Ann's: Cy may not start.
    refused = await cy.request({"type": "start"})
    assert (refused["type"], refused["code"]) == ("error", "not_host")
    assert (await Room.objects.aget(pk=room.pk)).status == Room.Status.WAITING
    settings.AWAY_GRACE = 0
    # Past it, before any heartbeat passed the role: Cy starts, and is the host from then on.
    reply = await cy.request({"type": "start"})
    assert reply["type"] == "state" and reply["game"] is not None, reply
    assert reply["you"] == {"seat": 2, "host": True}
    assert (await Room.objects.aget(pk=room.pk)).host_key == people[2][1]
    seen = await watcher.until(lambda m: m["type"] == "state" and m["game"] is not None)
    assert seen["you"]["host"] is False and seat_of(seen, 2)["host"] is True
    for client in (cy, watcher, later):
        await client.close()


async def test_a_watcher_may_not_start_when_the_host_is_gone(connect, sessions, settings):
    settings.AWAY_GRACE = 0
    room, people = await seated_room(sessions, ["Ann", "Bob"])
    ann = await connect(room.code, people[0][0], "ann")
    watcher = await connect(room.code, None, "watcher")
    await ann.close()
    refused = await watcher.request({"type": "start"})
    assert (refused["type"], refused["code"]) == ("error", "not_host")
    assert (await Room.objects.aget(pk=room.pk)).host_key == people[0][1]
    await watcher.close()


async def test_the_grace_is_counted_on_the_sites_clock(connect, sessions, settings, tmp_path):
    """The clock a test moves (``CLOCK_FILE``) counts the grace down: the countdown everyone
    is sent and the start a seated friend may make, with no test waiting it out."""
    settings.AWAY_GRACE = 3600
    clock = Clock(tmp_path / "clock")
    settings.CLOCK_FILE = str(clock.path)
    room, people = await seated_room(sessions, ["Ann", "Bob", "Cy"])
    ann = await connect(room.code, people[0][0], "ann")
    cy = await connect(room.code, people[2][0], "cy")
    await ann.close()
    left = await cy.until(lambda m: m["type"] == "presence" and not seat_of(m, 0)["connected"])
    assert 3590 <= seat_of(left, 0)["host_passes_in"] <= 3600
    clock.forward(3000)
    later = await connect(room.code, None, "later")
    assert 590 <= seat_of(later.state, 0)["host_passes_in"] <= 600
    refused = await cy.request({"type": "start"})
    assert (refused["type"], refused["code"]) == ("error", "not_host")
    clock.forward(600)
    reply = await cy.request({"type": "start"})
    assert reply["type"] == "state" and reply["game"] is not None, reply
    assert reply["you"] == {"seat": 2, "host": True}
    for client in (cy, later):
        await client.close()
