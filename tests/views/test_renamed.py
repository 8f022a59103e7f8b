"""One name: a guest who played as "Player" (or under an older name) and then gave a name is
listed under it on their old games — their profile, others' profiles, the lobby — while the
game itself (its events, replay and dice file) keeps the names it was played with."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from game import services
from game.models import GameAnalysis
from tests.support.profiles import played_game

from .test_private_players import as_player
from .test_try import the_review


@pytest.fixture
def renamed_game(db, yahtzee_table):
    """A reviewed game of "Player" (seat 1, named Pat since) against Bea."""
    pat, bea = services.new_player("Player"), services.new_player("Bea")
    game = played_game([pat, bea])
    review = the_review(game)
    GameAnalysis.objects.create(game=game, version=review["version"], data=review)
    assert services.record_game(game.pk)
    services.rename_player(pat, "Pat")
    return pat, bea, game


@pytest.mark.django_db
def test_a_rename_shows_on_the_old_games_where_games_are_listed(renamed_game):
    pat, bea, game = renamed_game
    pages = [pat.get_absolute_url(), bea.get_absolute_url(), "/", reverse("game:lobby_rooms")]
    for url in pages:
        html = Client().get(url).content.decode()
        assert game.get_absolute_url() in html, url
        assert "Pat" in html and '"seat-person">Player' not in html, url
        assert "Player beat" not in html and "beat Player" not in html, url
    # The game as played: its page's replay and its dice file keep the name it had.
    page = Client().get(game.get_absolute_url())
    assert page.context["replay"]["start"]["players"] == ["Player", "Bea"]
    game.refresh_from_db()
    assert game.players == ["Player", "Bea"]  # nothing stored changed


@pytest.mark.django_db
def test_a_renamed_private_player_stays_unnamed_to_others(renamed_game):
    pat, bea, game = renamed_game
    services.set_profile_private(pat, True)
    for url in (bea.get_absolute_url(), "/", reverse("game:lobby_rooms")):
        html = Client().get(url).content.decode()
        assert game.get_absolute_url() in html, url
        # As a word: a CSRF token in the page may hold the letters.
        assert not re.search(r"\bPat\b", html) and "Player 1" in html, url
        assert "Pat" in as_player(pat).get(url).content.decode(), url
