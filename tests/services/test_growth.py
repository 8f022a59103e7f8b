"""What one visitor can make the site keep is bounded: a refused request leaves no session row,
a room starts a limited number of games an hour, and the turn driver forgets the rooms whose
timers fired."""

from __future__ import annotations

import asyncio

import pytest
from django.contrib.sessions.models import Session
from django.test import Client
from django.urls import reverse

from game import services
from game.models import Game, Room
from game.realtime import turn_driver
from tests.support.rooms import room_with_players


@pytest.mark.django_db
def test_refused_one_click_games_leave_no_session_behind(settings):
    settings.ROOMS_PER_HOUR = 1  # one per session, five per address
    answers = [Client().post(reverse("game:play_computer"),
                             {"rules": "yahtzee", "level": "easy"}) for _ in range(8)]
    made = [a for a in answers if a["Location"].startswith("/r/")]
    assert len(made) == 5 and Room.objects.count() == 5
    assert Session.objects.count() == 5  # the three refused visitors left nothing


@pytest.mark.django_db
def test_a_room_starts_a_limited_number_of_games_an_hour(settings):
    settings.GAMES_PER_ROOM_PER_HOUR = 2
    room, guests = room_with_players(["Ann"], bots=["easy"])
    services.end_game(Game.objects.get(room=room).pk)
    services.start_game(room.code, guests[0])  # the rematch: the second game of the hour
    services.end_game(Game.objects.filter(room=room).latest("id").pk)
    with pytest.raises(services.ServiceError) as refused:
        services.start_game(room.code, guests[0])
    assert refused.value.code == "too_many_games"
    assert "create a new room" in refused.value.message
    assert Game.objects.filter(room=room).count() == 2
    assert Room.objects.get(pk=room.pk).status == Room.Status.FINISHED


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_the_turn_driver_forgets_a_room_once_its_timer_fired():
    turn_driver._wake_later("gone", 0)  # a room that no longer needs a wake-up
    for _ in range(200):
        if "gone" not in turn_driver._timers and "gone" not in turn_driver._tasks:
            break
        await asyncio.sleep(0.05)
    assert "gone" not in turn_driver._timers
    assert "gone" not in turn_driver._tasks
