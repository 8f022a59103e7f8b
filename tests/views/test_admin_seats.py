"""The admin's own seat pages keep a running game's seats read-only, as its room page does
(README): a change, a delete or a new seat posted for such a room changes nothing."""

from __future__ import annotations

import pytest
from django.urls import reverse

from game.models import Room, Seat
from tests.support.rooms import room_with_players

pytestmark = pytest.mark.django_db


def seat_form(seat: Seat, **changes) -> dict:
    data = {"room": seat.room_id, "index": seat.index, "kind": seat.kind,
            "bot_level": seat.bot_level or "", "nickname": seat.nickname,
            "guest_key": seat.guest_key, "client_seed": seat.client_seed}
    return {**data, **changes}


def test_a_running_games_seat_cannot_be_changed_or_deleted(admin_client):
    room, _ = room_with_players(["Ann", "Bob"])
    seat = Seat.objects.get(room=room, index=1)
    before = Seat.objects.filter(room=room).values().order_by("index")
    url = reverse("admin:game_seat_change", args=[seat.pk])
    page = admin_client.get(url).content.decode()
    assert 'name="kind"' not in page and 'name="nickname"' not in page
    admin_client.post(url, seat_form(seat, kind=Seat.Kind.BOT, bot_level="easy",
                                     nickname="Taken over"))
    delete = admin_client.post(reverse("admin:game_seat_delete", args=[seat.pk]),
                               {"post": "yes"})
    assert delete.status_code == 403
    assert list(Seat.objects.filter(room=room).values().order_by("index")) == list(before)


def test_no_seat_is_added_to_a_running_game(admin_client):
    room, _ = room_with_players(["Ann", "Bob"])
    seat = Seat.objects.get(room=room, index=1)
    resp = admin_client.post(reverse("admin:game_seat_add"),
                             seat_form(seat, index=2, nickname="Eve", guest_key="eve"))
    assert resp.status_code == 200 and "seats are read-only" in resp.content.decode()
    assert Seat.objects.filter(room=room).count() == 2


def test_a_waiting_rooms_seat_is_still_editable(admin_client):
    room, _ = room_with_players(["Ann"], start=False)
    assert room.status == Room.Status.WAITING
    seat = Seat.objects.get(room=room, index=0)
    resp = admin_client.post(reverse("admin:game_seat_change", args=[seat.pk]),
                             seat_form(seat, nickname="Annie"))
    assert resp.status_code == 302, resp.content.decode()[:2000]
    assert Seat.objects.get(pk=seat.pk).nickname == "Annie"
