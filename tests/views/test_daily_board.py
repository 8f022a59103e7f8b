"""The accounts' daily board lists an attempt only if an account played it from its first roll:
the best of several throwaway guests' tries cannot be signed into (or signed up as) an account
that never played the day."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from game import services
from game.models import DailyAttempt, Player
from game.selectors import daily
from game.web.players import COOKIE
from tests.support.rooms import as_action, next_move

from .test_daily import day_url, finish

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "correct horse battery"


def play_the_day_as_a_guest(client: Client) -> DailyAttempt:
    client.post("/name", {"player_name": "Throwaway", "next": "/"})
    client.post(reverse("game:daily_play", args=["yahtzee"]))
    player = Player.objects.get(token=client.cookies[COOKIE].value)
    attempt = DailyAttempt.objects.get(player=player)
    return finish(attempt, client.session["guest"])


def board_players(attempt: DailyAttempt) -> list[str]:
    return [row.name for row in daily.leaderboard(attempt.challenge, None)]


def test_a_guests_finished_attempt_stays_off_the_board_when_signed_into_an_account():
    get_user_model().objects.create_user("mallory", password=PASSWORD)
    tries = [Client() for _ in range(3)]
    attempts = [play_the_day_as_a_guest(c) for c in tries]
    best = max(range(3), key=lambda i: attempts[i].final)
    browser = tries[best]
    signed_in = browser.post("/accounts/login/", {"login": "mallory", "password": PASSWORD})
    assert signed_in.status_code == 302
    moved = DailyAttempt.objects.get(pk=attempts[best].pk)
    assert moved.player.user.username == "mallory"  # it is the account's attempt now ...
    assert not moved.account  # ... but not on the accounts' board
    assert board_players(moved) == []
    assert browser.get(day_url(moved)).status_code == 200  # its results, among the guests
    assert [r.final for r in daily.guests(moved.challenge, None)][0] == moved.final
    # An account's attempt from its first roll is listed (started before the sign-in: no
    # die rolled yet).
    get_user_model().objects.create_user("honest", password=PASSWORD)
    honest = Client()
    honest.post("/name", {"player_name": "Honest", "next": "/"})
    honest.post(reverse("game:daily_play", args=["yahtzee"]))
    assert honest.post("/accounts/login/", {"login": "honest",
                                            "password": PASSWORD}).status_code == 302
    mine = DailyAttempt.objects.get(player__user__username="honest")
    assert mine.account
    finish(mine, honest.session["guest"])
    assert board_players(moved) == ["Honest"]


def test_a_guests_finished_attempt_stays_off_the_board_when_it_signs_up():
    browser = Client()
    attempt = play_the_day_as_a_guest(browser)
    made = browser.post("/accounts/signup/", {"username": "newcomer", "password1": PASSWORD,
                                              "password2": PASSWORD})
    assert made.status_code == 302
    attempt.refresh_from_db()
    assert attempt.player.user.username == "newcomer" and not attempt.account
    assert board_players(attempt) == []


def test_signing_in_during_a_guests_game_does_not_raise_it_onto_the_board():
    get_user_model().objects.create_user("mallory", password=PASSWORD)
    browser = Client()
    browser.post(reverse("game:daily_play", args=["yahtzee"]))
    attempt = DailyAttempt.objects.get()
    game = attempt.game
    services.play(attempt.room.code, as_action(next_move(game.snapshot)),  # its first roll
                  guest_key=browser.session["guest"])
    assert browser.post("/accounts/login/", {"login": "mallory",
                                             "password": PASSWORD}).status_code == 302
    attempt = finish(DailyAttempt.objects.get(pk=attempt.pk), browser.session["guest"])
    assert attempt.final is not None and not attempt.account
    assert board_players(attempt) == []
