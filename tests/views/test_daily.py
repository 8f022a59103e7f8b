"""The daily challenge's pages: today's (play, go on, tomorrow's commitments), the room of an
attempt (its player's only), a day's results once you finished (par, the leaderboard of
accounts with guests apart, the scores, friends, streak, a share text without dice), a past
day's (the seed, everyone, par's line), the commitments as JSON, a daily game's page and dice
file hidden from others until its day is over and checkable after."""

from __future__ import annotations

import datetime
import json
import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from game import services
from game.domain.clock import utc_today
from game.models import DailyAttempt, DailyChallenge, Game, Player, Room, Seat
from game.rules.fairness import check_dice_file
from game.selectors import daily
from game.services.daily import start_attempt
from game.web.players import COOKIE
from tests.support.rooms import as_action, next_move

pytestmark = pytest.mark.django_db(transaction=True)


def as_player(player: Player) -> Client:
    """A browser that is ``player``: its cookie, signed in when the player has an account (an
    account's player is nobody's on a browser not signed in to it)."""
    client = Client()
    client.cookies[COOKIE] = player.token
    if player.user is not None:
        client.force_login(player.user)
    return client


def with_account(player: Player) -> Player:
    player.user = get_user_model().objects.create_user(f"user{player.pk}", password="x")
    player.save(update_fields=["user"])
    return player


def finish(attempt: DailyAttempt, guest: str) -> DailyAttempt:
    game = attempt.game
    while game.status == Game.Status.PLAYING:
        services.play(attempt.room.code, as_action(next_move(game.snapshot)), guest_key=guest)
        game.refresh_from_db()
    attempt.refresh_from_db()
    return attempt


def later(monkeypatch, days: int = 1) -> None:
    real = timezone.now
    monkeypatch.setattr(timezone, "now", lambda: real() + datetime.timedelta(days=days))


def day_url(attempt: DailyAttempt) -> str:
    return reverse("game:daily_day", kwargs={"rules": attempt.challenge.rules,
                                             "day": attempt.challenge.day.isoformat()})


def test_today_page_offers_both_rulesets_and_tomorrows_commitments_never_a_seed():
    page = Client().get(reverse("game:daily"))
    assert page.status_code == 200
    text = page.content.decode()
    today, tomorrow = utc_today(), utc_today() + datetime.timedelta(days=1)
    assert DailyChallenge.objects.filter(day=today).count() == 2
    for c in DailyChallenge.objects.filter(day__in=[today, tomorrow]):
        assert c.commitment in text
        assert c.seed not in text
    assert "Play today’s Yahtzee" in text and "Play today’s Yatzy" in text


def test_play_makes_one_attempt_and_the_room_is_its_players_only():
    client = Client()
    first = client.post(reverse("game:daily_play", args=["yahtzee"]))
    attempt = DailyAttempt.objects.get()
    assert first.url == attempt.room.get_absolute_url()
    again = client.post(reverse("game:daily_play", args=["yahtzee"]))
    assert again.url == first.url and DailyAttempt.objects.count() == 1
    room_page = client.get(first.url).content.decode()
    assert 'data-daily="1"' in room_page and "Daily challenge" in room_page
    # someone else opening the link is sent to their own daily: no watchers
    other = Client().get(first.url)
    assert other.status_code == 302 and other.url == reverse("game:daily")
    assert Client().post(reverse("game:daily_play", args=["triple"])).status_code == 404


def test_the_same_player_on_another_device_goes_on_with_the_same_game():
    player = with_account(services.new_player("Ann"))
    phone, laptop = as_player(player), as_player(player)  # two sessions, one player
    a = phone.post(reverse("game:daily_play", args=["yatzy"]))
    b = laptop.post(reverse("game:daily_play", args=["yatzy"]))
    assert a.url == b.url and DailyAttempt.objects.count() == 1
    seat = Seat.objects.get(room__daily__isnull=False)
    assert seat.guest_key == laptop.session[services.SESSION_GUEST]


def test_results_wait_for_the_end_then_show_par_board_guests_friends_streak_and_share():
    ann = with_account(services.new_player("Ann"))
    bea = with_account(services.new_player("Bea"))
    gus = services.new_player("Gus")  # a guest
    a = start_attempt(ann, "ga", "yahtzee")
    url = day_url(a)
    early = as_player(ann).get(url)
    assert early.status_code == 302 and early.url == reverse("game:daily")
    a = finish(a, "ga")
    b = finish(start_attempt(bea, "gb", "yahtzee"), "gb")
    g = finish(start_attempt(gus, "gg", "yahtzee"), "gg")
    # Ann and Bea played together once: friends
    room = Room.objects.create(name="t", rules="yahtzee")
    Seat.objects.create(room=room, index=0, player=ann, guest_key="x")
    Seat.objects.create(room=room, index=1, player=bea, guest_key="y")
    DailyAttempt.objects.filter(pk=a.pk).update(loss=3.0, turn_grades=["best"] * 12 + ["blunder"])
    a.refresh_from_db()
    page = as_player(ann).get(url)
    assert page.status_code == 200
    ctx = page.context
    # best first; on a tie the reviewed game (Ann's) before the one not reviewed yet
    expected = ["Ann", "Bea"] if a.final >= b.final else ["Bea", "Ann"]
    assert [r.name for r in ctx["board"]] == expected
    assert ctx["place"] == expected.index("Ann") + 1
    assert [r.name for r in ctx["guests"]] == ["Gus"]
    assert {r.name for r in ctx["friends"]} == {"Ann", "Bea"}
    assert ctx["streak"] == 1 and ctx["players"] == 3
    share = ctx["share"]
    assert share.startswith(f"Daily Yahtzee {a.challenge.day.isoformat()}: {a.final}")
    assert "🟩" * 12 + "🟥" in share and share.endswith(url)
    assert not re.search(r"[1-6]{5}|\[\d", share)  # no dice
    text = page.content.decode()
    assert 'class="bar' in text and "<svg" in text
    assert a.challenge.seed not in text
    assert g.final is not None


def test_ties_go_to_the_smaller_loss_and_places_count_accounts_apart():
    players = [with_account(services.new_player(n)) for n in ("A", "B", "C")]
    attempts = [finish(start_attempt(p, f"g{p.pk}", "yatzy"), f"g{p.pk}") for p in players]
    for att, loss in zip(attempts, (5.0, 1.0, 3.0), strict=True):
        DailyAttempt.objects.filter(pk=att.pk).update(final=200, loss=loss)
    rows = daily.leaderboard(attempts[0].challenge, None)
    assert [r.name for r in rows] == ["B", "C", "A"]
    first = DailyAttempt.objects.get(pk=attempts[0].pk)
    assert daily.place_of(first) == 3


def test_a_past_day_shows_its_seed_everyone_and_pars_line(monkeypatch):
    ann = services.new_player("Ann")
    a = finish(start_attempt(ann, "g", "yahtzee"), "g")
    DailyChallenge.objects.filter(pk=a.challenge_id).update(
        par=250, par_line=[{"turn": 1, "rolls": [[1, 2, 3, 4, 5]], "held": [],
                            "box": "large_straight", "points": 40},
                           # A line stored with a box's bonus in its points: told apart.
                           {"turn": 2, "rolls": [[4, 4, 4, 5, 5]], "held": [],
                            "box": "fours", "points": 47},
                           {"turn": 3, "rolls": [[6, 6, 6, 6, 6]], "held": [], "box": "sixes",
                            "points": 30, "bonus": 0},
                           {"turn": 4, "rolls": [[2, 2, 2, 2, 2]], "held": [], "box": "chance",
                            "points": 10, "bonus": 100}])
    later(monkeypatch)
    page = Client().get(day_url(a))  # anyone, played or not
    assert page.status_code == 200
    text = page.content.decode()
    assert a.challenge.seed in text and "12345" in text and "Large straight" in text
    line = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", text))
    assert "44455 → Fours 12 (and a bonus of 35)" in line and "Fours 47" not in line
    assert "→ Large straight 40 " in line and "→ Sixes 30 " in line
    assert "→ Chance 10 (and a bonus of 100)" in line
    assert [r.name for r in page.context["guests"]] == ["Ann"]


def test_a_daily_games_page_is_its_players_until_the_day_is_over_then_checkable(monkeypatch):
    ann = services.new_player("Ann")
    a = finish(start_attempt(ann, "g", "yatzy"), "g")
    game_url = reverse("game:game_detail", args=[a.game_id])
    dice_url = reverse("game:game_dice", args=[a.game_id])
    assert Client().get(game_url).status_code == 302
    assert Client().get(dice_url).status_code == 404
    # "Try it yourself" would show its positions' dice: refused before the worker is asked
    tried = Client().get(reverse("game:game_try", args=[a.game_id, 5]))
    assert tried.status_code == 404 and tried.json()["error"] == "no_game"
    own = as_player(ann).get(dice_url)
    assert own.status_code == 200 and own.json()["server_seed"] is None
    assert a.challenge.seed not in as_player(ann).get(game_url).content.decode()
    later(monkeypatch)
    data = Client().get(dice_url).json()
    assert data["server_seed"] == a.challenge.seed and data["daily"] == a.challenge.day.isoformat()
    assert all({"turn", "roll"} <= set(r) for r in data["rolls"])
    assert check_dice_file(data).ok
    assert Client().get(game_url).status_code == 200


def test_commitments_json_publishes_ahead_and_reveals_after(monkeypatch):
    data = Client().get(reverse("game:daily_commitments")).json()
    today = utc_today()
    days = {(c["day"], c["rules"]): c for c in data["challenges"]}
    tomorrow = (today + datetime.timedelta(days=1)).isoformat()
    assert (tomorrow, "yahtzee") in days and days[(tomorrow, "yatzy")]["seed"] is None
    assert days[(today.isoformat(), "yahtzee")]["seed"] is None
    later(monkeypatch)
    data = Client().get(reverse("game:daily_commitments")).json()
    revealed = {(c["day"], c["rules"]): c for c in data["challenges"]}
    seed = revealed[(today.isoformat(), "yahtzee")]["seed"]
    assert seed == DailyChallenge.objects.get(day=today, rules="yahtzee").seed
    assert json.dumps(data).count(seed) == 1


def test_streak_counts_days_in_a_row():
    ann = services.new_player("Ann")
    today = utc_today()
    for back in (1, 2, 4):
        day = DailyChallenge.objects.create(day=today - datetime.timedelta(days=back),
                                            rules="yahtzee", seed="0" * 64, commitment="x")
        room = Room.objects.create(name="d", rules="yahtzee", daily=day)
        game = Game.objects.create(room=room, rules="yahtzee", daily=day)
        DailyAttempt.objects.create(challenge=day, player=ann, room=room, game=game, final=200)
    assert daily.streak(ann, today) == 2  # yesterday and the day before; today still to play


def test_no_page_shows_the_seed_or_a_die_not_yet_rolled_before_the_day_is_over():
    """Mid-game and after it, every page its player can open (the room, today's page, the
    game's page and dice file, the commitments) holds no day seed, and every five dice in them
    are dice this player rolled."""
    from tests.services.test_daily import dice_arrays

    client = Client()
    room_url = client.post(reverse("game:daily_play", args=["yahtzee"])).url
    attempt = DailyAttempt.objects.select_related("challenge").get()
    guest = client.session[services.SESSION_GUEST]
    rolled: list[list[int]] = []
    checked = 0
    game = attempt.game
    while game.status == Game.Status.PLAYING:
        result = services.play(attempt.room.code, as_action(next_move(game.snapshot)),
                               guest_key=guest)
        if result.state["dice"]:
            rolled.append(result.state["dice"])
        game.refresh_from_db()
        if len(rolled) % 10 == 1 or game.status == Game.Status.FINISHED:
            pages = [room_url, reverse("game:daily"), reverse("game:daily_commitments"),
                     reverse("game:game_detail", args=[game.pk]),
                     reverse("game:game_dice", args=[game.pk])]
            for url in pages:
                text = client.get(url, follow=True).content.decode()
                assert attempt.challenge.seed not in text, url
                for dice in dice_arrays(text):
                    assert dice in rolled, (url, dice)
                    checked += 1
    assert checked > 13  # the game's page and dice file show every roll
