"""Names people can trust: look-alikes, invisible letters and the site's own labels refused,
each with the reason shown in the join form; a refused name changes nothing."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from game import services
from game.models import Seat
from game.services.names import skeleton
from tests.support.rooms import room_with_players

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(("a", "b"), [
    ("Ann", "ANN"),            # case
    ("Ann", "Ánn"),            # accents
    ("Ann", "\u0410nn"),       # Cyrillic capital A
    ("Bob", "B0b"),            # zero for o
    ("Paul", "PauI"),          # capital i for l
    ("Ann", "Ａｎｎ"),          # full-width letters (NFKC)
    ("Ann Lee", "Ann  Lee"),   # runs of spaces
])
def test_look_alike_names_share_a_skeleton(a, b):
    assert skeleton(a) == skeleton(b)


@pytest.mark.parametrize(("a", "b"), [("Ann", "Anna"), ("Ali", "All"), ("Bob", "Rob")])
def test_different_names_do_not(a, b):
    assert skeleton(a) != skeleton(b)


def join(client: Client, code: str, nickname: str, seat: int):
    return client.post(reverse("game:join", args=[code]), {"nickname": nickname, "seat": seat})


@pytest.mark.parametrize(("nickname", "reason"), [
    ("\u0410nn", "mixes the letters of Cyrillic and Latin"),  # Cyrillic А beside Latin nn
    ("ann", "too much like “Ann”"),
    ("Bot 2 (easy)", "looks like a label of the site"),
    ("ｂｏｔ", "looks like a label of the site"),
    ("Free seat", "looks like a label of the site"),
    ("Eve\u200b", "invisible or control characters"),  # zero-width space
    ("\u3164", "invisible or control characters"),    # Hangul filler: looks blank
    ("A\u202eve", "invisible or control characters"),  # right-to-left override
    ("...", "at least one letter or digit"),
])
def test_the_join_form_says_why_a_name_is_refused(client, nickname, reason):
    room, _ = room_with_players(["Ann"], start=False)
    Seat.objects.create(room=room, index=1)
    resp = join(client, room.code, nickname, 1)
    assert resp.status_code == 400
    assert reason in resp.content.decode()
    assert Seat.objects.get(room=room, index=1).is_free


def test_a_name_is_stored_normalised():
    room, _ = room_with_players(["Ann"], start=False)
    Seat.objects.create(room=room, index=1)
    seat = services.take_seat(room.code, "guest-2", "  Ｅｖｅ   Lee ", 1)
    assert seat.nickname == "Eve Lee"


def test_room_names_refuse_invisible_letters(client):
    data = {"name": "Friday\u200b", "rules": "yahtzee", "seats": "2", "nickname": "",
            **{f"seat_{i}": "human" for i in range(6)}}
    resp = client.post(reverse("game:lobby"), data)
    assert resp.status_code == 400
    assert "invisible or control characters" in resp.content.decode()
