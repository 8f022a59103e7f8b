"""Nothing grows without bound: rooms created and seats taken are limited per session and per
address; a refused request says why and changes nothing."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from game.models import Room, Seat
from tests.support.rooms import room_with_players

pytestmark = pytest.mark.django_db


def create(client: Client, **extra) -> object:
    data = {"name": "Friday", "rules": "yahtzee", "seats": "2", "nickname": "Ann",
            **{f"seat_{i}": "human" for i in range(6)}}
    return client.post(reverse("game:lobby"), data, **extra)


def test_one_session_cannot_create_rooms_without_limit(client, settings):
    settings.ROOMS_PER_HOUR = 3
    for _ in range(3):
        assert create(client).status_code == 302
    refused = create(client)
    assert refused.status_code == 400
    assert "Too many at once; try again in" in refused.content.decode()
    assert Room.objects.count() == 3
    assert create(Client()).status_code == 302  # another visitor is not held back


def test_one_address_is_limited_across_sessions(settings):
    settings.ROOMS_PER_HOUR = 1  # an address gets five times a session's share
    for _ in range(5):
        assert create(Client(), REMOTE_ADDR="203.0.113.7").status_code == 302
    assert create(Client(), REMOTE_ADDR="203.0.113.7").status_code == 400
    assert create(Client(), REMOTE_ADDR="203.0.113.8").status_code == 302
    assert Room.objects.count() == 6


def test_behind_a_proxy_the_address_comes_from_its_header(settings):
    settings.ROOMS_PER_HOUR = 1
    settings.CLIENT_IP_HEADER = "X-Forwarded-For"
    # All from the proxy's own address; the right-most entry is the client the proxy saw.
    for i in range(5):
        assert create(Client(), HTTP_X_FORWARDED_FOR=f"10.0.0.{i}, 203.0.113.9").status_code == 302
    assert create(Client(), HTTP_X_FORWARDED_FOR="1.2.3.4, 203.0.113.9").status_code == 400
    assert create(Client(), HTTP_X_FORWARDED_FOR="203.0.113.10").status_code == 302


def test_taking_seats_is_limited_per_session(client, settings):
    settings.JOINS_PER_MINUTE = 2
    rooms = []
    for _ in range(3):
        room, _ = room_with_players(["Ann"], start=False)
        Seat.objects.create(room=room, index=1)
        rooms.append(room)
    for room in rooms[:2]:
        resp = client.post(reverse("game:join", args=[room.code]), {"nickname": "Eve", "seat": 1})
        assert resp.status_code == 302
    resp = client.post(reverse("game:join", args=[rooms[2].code]), {"nickname": "Eve", "seat": 1})
    assert resp.status_code == 400
    assert "Too many at once" in resp.content.decode()
    assert Seat.objects.get(room=rooms[2], index=1).is_free
