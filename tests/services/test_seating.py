"""Seats between games (a late friend, someone who left, a computer in an absent player's seat)
and the room's turn time, through the services and over websockets."""

from __future__ import annotations

import pytest
from django.utils import timezone

from game import protocol, services
from game.models import Game, GameEvent, Room, Seat
from game.selectors import room_state
from game.services import ServiceError
from tests.support.rooms import play_to_end, room_with_players
from tests.support.sockets import seated_room

HOST = "host-Ann"


def seats(room: Room) -> list[tuple[int, str, str]]:
    return [(s.index, s.kind, s.display_name) for s in Seat.objects.filter(room=room)]


@pytest.mark.django_db
def test_a_late_friend_takes_a_new_seat_for_the_rematch():
    room, guests = room_with_players(["Ann", "Bob"])
    with pytest.raises(ServiceError) as refused:
        services.add_seat(room.code, HOST)
    assert refused.value.code == "game_running"
    with pytest.raises(ServiceError) as refused:
        services.take_seat(room.code, "guest-Cy", "Cy", 2)
    assert refused.value.code == "game_running"
    play_to_end(room, guests)
    with pytest.raises(ServiceError) as refused:
        services.add_seat(room.code, guests[1])
    assert refused.value.code == "not_host"
    services.add_seat(room.code, HOST)
    services.take_seat(room.code, "guest-Cy", "Cy", 2)
    services.start_game(room.code, HOST)
    assert Game.objects.filter(room=room).first().players == ["Ann", "Bob", "Cy"]


@pytest.mark.django_db
def test_the_host_sets_the_seats_of_a_rematch():
    room, guests = room_with_players(["Ann", "Bob", "Cy"])
    play_to_end(room, guests)
    services.leave_seat(room.code, guests[2])  # Cy goes: a free seat
    assert seats(room)[2] == (2, "human", "")
    with pytest.raises(ServiceError) as refused:
        services.leave_seat(room.code, guests[2])
    assert refused.value.code == "not_seated"
    services.seat_bot(room.code, HOST, 1, "medium")  # Bob is absent: a computer plays for him
    with pytest.raises(ServiceError) as refused:
        services.seat_bot(room.code, HOST, 0, "godlike")
    assert refused.value.code == "bad_level"
    services.remove_seat(room.code, HOST, 2)
    assert seats(room) == [(0, "human", "Ann"), (1, "bot", "Bot 1 (medium)")]
    services.remove_seat(room.code, HOST, 1)
    with pytest.raises(ServiceError) as refused:
        services.remove_seat(room.code, HOST, 0)
    assert refused.value.code == "last_seat"
    with pytest.raises(ServiceError) as refused:
        services.remove_seat(room.code, HOST, 5)
    assert refused.value.code == "no_seat"
    room.refresh_from_db()
    assert room.seats_count == 1


@pytest.mark.django_db
def test_the_host_gives_a_seat_to_the_computer_that_plays_to_win():
    room, guests = room_with_players(["Ann", "Bob"])
    play_to_end(room, guests)
    services.leave_seat(room.code, guests[1])
    services.seat_bot(room.code, HOST, 1, "to_win")
    assert seats(room) == [(0, "human", "Ann"), (1, "bot", "Bot 1 (to win)")]
    assert Seat.objects.get(room=room, index=1).bot_level == "to_win"
    with pytest.raises(ServiceError) as refused:
        services.seat_bot(room.code, HOST, 1, "to-win")
    assert refused.value.code == "bad_level"
    assert refused.value.params == {"levels": "easy, medium, optimal, to_win"}


@pytest.mark.django_db
def test_a_player_here_keeps_their_seat_and_options_need_the_host():
    room, guests = room_with_players(["Ann", "Bob"], start=False)
    room.connections.create(channel_name="bob-socket", guest_key=guests[1],
                            last_seen=timezone.now())
    for refused_call in (lambda: services.seat_bot(room.code, HOST, 1, "easy"),
                         lambda: services.remove_seat(room.code, HOST, 1)):
        with pytest.raises(ServiceError) as refused:
            refused_call()
        assert refused.value.code == "player_here"
    with pytest.raises(ServiceError) as refused:
        services.set_room_options(room.code, HOST, turn_time=90)
    assert refused.value.code == "bad_option"
    with pytest.raises(ServiceError) as refused:
        services.set_room_options(room.code, guests[1], turn_time=60)
    assert refused.value.code == "not_host"
    services.set_room_options(room.code, HOST, turn_time=120)
    room.refresh_from_db()
    assert room.turn_time == 120 and seats(room)[1] == (1, "human", "Bob")


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_an_idle_player_is_autoplayed_when_the_turn_time_runs_out(connect, sessions,
                                                                       settings):
    settings.AUTOPLAY_LEVEL = "easy"
    settings.TURN_TIME_SCALE = 1 / 60  # a minute of turn time lasts one second
    room, people = await seated_room(sessions, ["Ann", "Bob"])
    ann = await connect(room.code, people[0][0], "ann")
    bob = await connect(room.code, people[1][0], "bob")
    await bob.send({"type": "room_options", "turn_time": 60})
    assert (await bob.until_type("error"))["code"] == "not_host"
    for bad in ({"type": "room_options", "turn_time": "60"},
                {"type": "seat_bot", "seat": True, "level": "easy"},
                {"type": "seat_bot", "seat": 1, "level": ["easy"]},
                {"type": "remove_seat"}):
        await ann.send(bad)
        assert (await ann.until_type("error"))["code"] == "bad_message"
    await ann.send({"type": "room_options", "turn_time": 60})
    state = await bob.until(lambda m: m["type"] == "state" and m["room"]["turn_time"] == 60)
    assert state["room"]["turn_seconds"] == 1 and state["turn_ends_in"] is None
    await ann.send({"type": "start"})
    state = await bob.until(lambda m: m["type"] == "state" and m["game"] is not None)
    assert 0 < state["turn_ends_in"] <= 1
    # Ann is here but does nothing: after a second her turn is played for her, and Bob's.
    await bob.until(lambda m: m["type"] == "event" and m["event"]["kind"] == "turn_started"
                    and m["event"]["round"] == 2)
    game = await Game.objects.aget(room=room)
    played = {(e.seat, e.by) async for e in GameEvent.objects.filter(game=game, kind="scored")}
    assert played >= {(0, "autoplay"), (1, "autoplay")}
    settings.TURN_TIME_SCALE = 1000  # nothing more moves while the sockets close
    await ann.close()
    await bob.close()


@pytest.mark.django_db
def test_the_state_counts_down_the_turn():
    room, _ = room_with_players(["Ann"], start=False)
    services.set_room_options(room.code, HOST, turn_time=300)
    services.start_game(room.code, HOST)
    room.refresh_from_db()
    left = protocol.state(room_state(room, HOST))["turn_ends_in"]
    assert 295 < left <= 300


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_the_host_changes_who_sees_the_chances_between_games(connect, sessions):
    room, people = await seated_room(sessions, ["Ann", "Bob"])
    ann = await connect(room.code, people[0][0], "ann")
    bob = await connect(room.code, people[1][0], "bob")
    assert bob.state["room"]["chances"] == "auto"
    assert bob.state["room"]["chances_for_players"] is False  # no computer player
    await bob.send({"type": "room_options", "chances": "on"})
    assert (await bob.until_type("error"))["code"] == "not_host"
    for bad, code in (({"type": "room_options", "chances": 1}, "bad_message"),
                      ({"type": "room_options", "chances": "sometimes"}, "bad_option")):
        await ann.send(bad)
        assert (await ann.until_type("error"))["code"] == code
    await ann.send({"type": "room_options", "chances": "on"})
    state = await bob.until(lambda m: m["type"] == "state" and m["room"]["chances"] == "on")
    assert state["room"]["chances_for_players"] is True
    assert state["room"]["turn_time"] == 0  # the other option is left as it was
    await ann.send({"type": "start"})
    await bob.until(lambda m: m["type"] == "state" and m["game"] is not None)
    await ann.send({"type": "room_options", "chances": "off"})
    assert (await ann.until_type("error"))["code"] == "game_running"
    assert (await Room.objects.aget(pk=room.pk)).chances == "on"
    await ann.close()
    await bob.close()
