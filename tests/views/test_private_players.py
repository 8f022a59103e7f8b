"""A private player is nobody in particular on everyone else's pages: a game's page, its
analysis and dice file, another player's profile, the lobby's lists and the daily board show
a seat label or "A player", never their name or a link to them; they still see themselves,
and the game's seeds and rolls stay checkable."""

from __future__ import annotations

import json

import pytest
from django.test import Client
from django.urls import reverse

from game import services
from game.models import DailyAttempt, Game, GameAnalysis, Player, Room
from game.web.players import COOKIE
from tests.support.profiles import played_game

from .test_daily import day_url, finish, later
from .test_try import the_review

NAME = "Zephyrine"


def as_player(player: Player) -> Client:
    client = Client()
    client.cookies[COOKIE] = player.token
    return client


@pytest.fixture
def private_game(db, yahtzee_table):
    """A reviewed game of Zephyrine (seat 1, private since) against Bea (seat 2)."""
    zeph, bea = services.new_player(NAME), services.new_player("Bea")
    game = played_game([zeph, bea])
    review = the_review(game)
    GameAnalysis.objects.create(game=game, version=review["version"], data=review)
    assert services.record_game(game.pk)
    services.set_profile_private(zeph, True)
    return zeph, bea, game


@pytest.mark.django_db
def test_a_games_page_analysis_and_dice_name_a_private_player_only_to_themselves(private_game):
    zeph, bea, game = private_game
    pages = [game.get_absolute_url(), reverse("game:game_analysis", args=[game.pk]),
             reverse("game:game_dice", args=[game.pk])]
    for viewer in (Client(), as_player(bea)):
        for url in pages:
            response = viewer.get(url)
            assert response.status_code == 200, url
            assert NAME not in response.content.decode(), url
    page = Client().get(game.get_absolute_url())
    assert [s["name"] for s in page.context["standings"]] != []
    assert {s["name"] for s in page.context["standings"]} == {"Player 1", "Bea"}
    assert page.context["replay"]["players"] == ["Player 1", "Bea"]
    assert page.context["replay"]["start"]["players"] == ["Player 1", "Bea"]
    assert [p["name"] for p in page.context["analysis"]["players"]] == ["Player 1", "Bea"]
    # Their own view is unchanged.
    mine = as_player(zeph)
    for url in pages:
        assert NAME in mine.get(url).content.decode(), url
    # The dice stay checkable: only the names differ.
    theirs = json.loads(Client().get(pages[2]).content)
    own = json.loads(mine.get(pages[2]).content)
    assert theirs["players"] == ["Player 1", "Bea"] and own["players"] == [NAME, "Bea"]
    assert {**theirs, "players": None} == {**own, "players": None}
    assert theirs["rolls"] and theirs["client_seeds"] == list(game.client_seeds)
    assert Game.objects.get(pk=game.pk).players == [NAME, "Bea"]  # nothing stored changed


@pytest.mark.django_db
def test_another_players_profile_shows_no_private_opponent(private_game):
    zeph, bea, game = private_game
    profile = f"/p/{bea.public_id}/"
    response = Client().get(profile)
    assert response.status_code == 200
    html = response.content.decode()
    assert NAME not in html and zeph.public_id not in html
    assert response.context["rivals"] == []  # no unnamed row of games against one person
    assert game.get_absolute_url() in html  # the game itself is still listed
    # Zephyrine, looking at Bea's profile, sees her own record against Bea.
    mine = as_player(zeph).get(profile)
    assert [r.name for r in mine.context["rivals"]] == [NAME]
    assert NAME in mine.content.decode()


@pytest.mark.django_db
def test_the_lobby_lists_a_private_player_under_a_seat_label(private_game):
    zeph, _bea, game = private_game
    Room.objects.filter(pk=game.room_id).update(name=f"{NAME} vs Bea")
    for url in ("/", reverse("game:lobby_rooms")):
        html = Client().get(url).content.decode()
        assert game.get_absolute_url() in html, url  # listed among the recently finished
        assert NAME not in html, url
        assert "Player 1 vs Bea" in html and "Player 1</span>" in html, url
        assert NAME in as_player(zeph).get(url).content.decode(), url


@pytest.mark.django_db(transaction=True)
def test_the_daily_board_lists_a_private_player_without_name_or_link(monkeypatch):
    client = Client()
    client.post("/name", {"player_name": NAME, "next": "/"})
    client.post(reverse("game:daily_play", args=["yahtzee"]))
    zeph = Player.objects.get(token=client.cookies[COOKIE].value)
    attempt = finish(DailyAttempt.objects.get(player=zeph), client.session["guest"])
    services.set_profile_private(zeph, True)
    later(monkeypatch)  # the day is over: its board and games are everyone's
    response = Client().get(day_url(attempt))
    assert response.status_code == 200
    html = response.content.decode()
    assert NAME not in html and zeph.public_id not in html
    (row,) = response.context["guests"]
    assert (row.name, row.profile_url, row.final) == ("A player", "", attempt.final)
    assert attempt.game.get_absolute_url() in html  # the game stays checkable
    assert NAME not in Client().get(attempt.game.get_absolute_url()).content.decode()
    own = client.get(day_url(attempt))
    assert NAME in own.content.decode() and zeph.public_id in own.content.decode()
