"""A shown name cannot pass for another person's account or for a computer player, in any of
the site's languages: through the header's name control, the join form, the lobby's form."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import translation

from game.models import Player, Seat
from game.web.players import COOKIE
from tests.support.rooms import room_with_players

from .test_accounts import sign_up

pytestmark = pytest.mark.django_db


def named(client: Client, name: str) -> str:
    """Set the browser's name; the page's message."""
    return client.post("/name", {"player_name": name, "next": "/"}, follow=True) \
        .content.decode()


def player_name(client: Client) -> str | None:
    player = Player.objects.filter(token=client.cookies[COOKIE].value).first() \
        if COOKIE in client.cookies else None
    return player.name if player else None


@pytest.mark.parametrize("shown", ["Alice3846", "ALICE3846", "alice3846", "A1ice3846",
                                   "\uff21lice3846"])
def test_nobody_shows_themselves_as_an_accounts_name(shown):
    owner = Client()
    assert sign_up(owner, "Alice3846").status_code == 302
    guest = Client()
    named(guest, "Mallory")
    page = named(guest, shown)
    assert "reads as the name of someone’s account" in page
    assert player_name(guest) == "Mallory"
    # Nor on a seat, by the join form.
    room, _ = room_with_players(["Ann"], start=False)
    Seat.objects.create(room=room, index=1)
    response = guest.post(reverse("game:join", args=[room.code]),
                          {"nickname": shown, "seat": 1})
    assert response.status_code == 400
    assert Seat.objects.get(room=room, index=1).is_free
    # The account itself shows its own name, in any case it likes.
    assert "reads as" not in named(owner, shown)
    assert Player.objects.get(user__username="Alice3846").name == \
        shown.replace("\uff21", "A")


def test_an_account_cannot_take_the_name_every_nameless_player_has():
    for name in ("Player", "PLAYER", "Spelare", "Joueur"):
        response = sign_up(Client(), name)
        assert response.status_code == 200, name
        assert "the name the site gives players without one" in response.content.decode()


@pytest.mark.parametrize("shown", ["Bot1 (optimal)", "Bot_1", "Bot-2", "B0t 1", "Dator (lätt)",
                                   "Dator", "Datorn", "Ordinateur (facile)", "Computadora",
                                   "Datamaskin 3", "Computer (leicht)"])
def test_no_name_passes_for_a_computer_player(client, shown):
    named(client, "Mallory")
    page = named(client, shown)
    assert "looks like a label of the site" in page, shown
    assert player_name(client) == "Mallory"


def test_every_languages_computer_label_is_refused(client):
    named(client, "Mallory")
    labels = set()
    for code, _ in settings.LANGUAGES:
        with translation.override(code):
            labels.add(translation.gettext("Computer"))
            labels.add(translation.pgettext("rival", "Computer (easy)"))
    assert len(labels) >= 8  # the catalogs differ
    for label in labels:
        assert "looks like a label of the site" in named(client, label), label


@pytest.mark.parametrize("shown", ["Botanist", "Bottle", "Computerfreak", "Datorspelare",
                                   "Alice", "Youssef"])
def test_names_that_only_begin_like_a_label_pass(client, shown):
    named(client, shown)
    assert player_name(client) == shown


def test_no_account_takes_another_accounts_name_in_capitals():
    assert sign_up(Client(), "Alice3846").status_code == 302
    response = sign_up(Client(), "ALICE3846")
    assert response.status_code == 200
    assert "exists already" in response.content.decode()
