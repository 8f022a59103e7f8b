"""Your games: every over-days game of a person, the ones waiting for them first, in the
header (how many wait), the lobby, and the page with its notice settings."""

from __future__ import annotations

import html

import pytest
from django.urls import reverse

from game import services
from game.models import Player
from game.web.players import COOKIE
from tests.support.correspondence import over_days_room, play_turn

pytestmark = pytest.mark.django_db


def as_player(client, player: Player):
    client.cookies[COOKIE] = player.token
    return client


def test_the_games_waiting_for_you_come_first_with_the_last_move(client):
    room_a, guests_a, (ann, bea) = over_days_room(["Ann", "Bea"], days=2)
    play_turn(room_a, guests_a[0])  # Bea's move in this one
    over_days_room(["Cy", "Dee"], days=1)  # not hers
    room_c = services.open_room("host-c", nickname="Bea", name="Bea's own", rules="yatzy",
                                seats=[services.SeatSpec(), services.SeatSpec()],
                                player=bea, pace="days", move_days=3)
    page = html.unescape(as_player(client, bea).get(reverse("game:your_games")).content.decode())
    first, second = page.index("Your turn"), page.index("Waiting to start")
    assert first < page.index("Ann's table") < second < page.index("Bea's own")
    assert "Ann scored" in page and "left" in page
    assert "Cy" not in page  # not her game
    header = as_player(client, bea).get("/").content.decode()
    assert 'class="your-games-link"' in header and "waiting for you:" in header
    lobby_panel = header[header.index("lobby-your-games"):header.index("play-with-friends")]
    assert "Your turn" in lobby_panel and room_c.code not in lobby_panel.split("Your turn")[0]


def test_nobody_without_games_over_days_sees_the_link(client):
    me = services.new_player("Eve")
    assert "your-games-link" not in as_player(client, me).get("/").content.decode()
    page = as_player(client, me).get(reverse("game:your_games")).content.decode()
    assert "No games over days yet" in page


def test_the_header_link_follows_a_seat_over_days_and_a_guest_merged_into_an_account(
        client, django_user_model):
    _, _, (ann, _) = over_days_room(["Ann", "Bea"], days=2)
    ann.refresh_from_db()
    assert ann.plays_over_days  # flagged as she sat, so no page searches her seats for it
    account = services.claim_player(django_user_model.objects.create_user("zed", password="x" * 12),
                                    None)
    assert not account.plays_over_days
    services.claim_player(account.user, ann)  # Ann's guest games join the account's
    account.refresh_from_db()
    assert account.plays_over_days
    client.force_login(account.user)  # an account's player is its signed-in browser's
    assert "your-games-link" in client.get("/").content.decode()


def test_the_notice_settings_are_saved_and_a_bad_value_changes_nothing(client):
    _, _, (ann, _) = over_days_room(["Ann", "Bea"], days=2)
    url = reverse("game:notice_settings")
    assert as_player(client, ann).post(url, {"email": "turns"}).status_code == 302
    ann.refresh_from_db()
    assert (ann.notify_push, ann.notify_email) == (False, "turns")
    response = as_player(client, ann).post(url, {"push": "on", "email": "hourly"}, follow=True)
    assert "never, before a move" in response.content.decode()
    ann.refresh_from_db()
    assert (ann.notify_push, ann.notify_email) == (False, "turns")
