""""Chances: never" hides the bar from the players' sockets; it cannot keep a player from
watching the room. The create form says so where the option is chosen."""

from __future__ import annotations

import html

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def test_the_create_form_says_never_only_hides_the_chances(client):
    page = html.unescape(client.get(reverse("game:lobby")).content.decode())
    assert "Chances to win shown to players" in page
    assert "“Never” only hides them: a player can also watch." in page
