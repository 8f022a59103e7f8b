"""Names the server makes for rooms are stored in their creator's language (the active one)."""

from __future__ import annotations

import pytest
from django.utils import translation

from game import services
from game.models import Player
from game.services.daily import start_attempt
from game.services.rooms import default_room_name

pytestmark = pytest.mark.django_db


@pytest.fixture
def tagged(monkeypatch):
    """gettext marking what it translates with the active language."""
    monkeypatch.setattr(translation, "gettext",
                        lambda message: f"[{translation.get_language()}] {message}")


def test_english_names_unchanged():
    with translation.override("en"):
        assert default_room_name("Ann") == "Ann’s table"
        assert default_room_name("") == "The computers’ table"
        room = services.play_the_computer("g", nickname="Zoe", rules="yahtzee", level="easy")
    assert room.name == "Zoe vs the computer"


def test_room_names_in_the_creators_language(tagged):
    with translation.override("de"):
        assert default_room_name("Ann") == "[de] Ann’s table"
        room = services.play_the_computer("g", nickname="Zoe", rules="yahtzee", level="easy")
        attempt = start_attempt(Player.objects.create(name="Bea"), "h", "yatzy")
    assert room.name == "[de] Zoe vs the computer"
    assert attempt.room.name.startswith("[de] Daily ")
