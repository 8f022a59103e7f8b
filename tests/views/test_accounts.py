"""Accounts through the real views (django-allauth's forms, the site's adapter): a guest's
games kept at sign-up and merged at sign-in, the cookie following the account, sign-out, no
guest taking an account's player over, look-alike names, throttles, disabled players, and the
password reset mailed through a real SMTP server on loopback."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from game import services
from game.models import GameResult, Player, PlayerRating, Seat
from game.web.players import COOKIE
from tests.support.profiles import played_game, store_review

pytestmark = pytest.mark.django_db

PASSWORD = "correct horse battery"


def guest_with_games(client: Client, name: str, games: int = 1) -> Player:
    """The client's guest player, named ``name``, with ``games`` rated games against the easy
    computer player."""
    client.post("/name", {"player_name": name, "next": "/"})
    player = Player.objects.get(token=client.cookies[COOKIE].value)
    for _ in range(games):
        game = played_game([player, "easy"])
        store_review(game, [0.0, 0.0])
        assert services.record_game(game.pk)
    return player


def sign_up(client: Client, username: str, **extra: str):
    return client.post("/accounts/signup/", {"username": username, "password1": PASSWORD,
                                             "password2": PASSWORD, **extra})


def sign_in(client: Client, username: str, password: str = PASSWORD, **kwargs):
    return client.post("/accounts/login/", {"login": username, "password": password}, **kwargs)


def test_signing_up_keeps_the_guests_player_and_games(client):
    guest = guest_with_games(client, "Zoe", games=2)
    response = sign_up(client, "zoe")
    assert response.status_code == 302, response.content.decode()[:2000]
    user = get_user_model().objects.get(username="zoe")
    assert user.player == guest  # the same record: its seats, results and rating
    assert client.cookies[COOKIE].value == guest.token
    assert GameResult.objects.filter(player=guest).count() == 2
    page = client.get("/").content.decode()
    assert "Signed in as" in page and "Sign out" in page


def test_signing_in_merges_the_browsers_guest_into_the_account(client):
    account = guest_with_games(client, "Zoe", games=2)
    sign_up(client, "zoe")
    client.post("/accounts/logout/")
    before = PlayerRating.objects.get(player=account, ruleset="yahtzee")

    phone = Client()
    guest = guest_with_games(phone, "Zed", games=1)
    guest_rating = PlayerRating.objects.get(player=guest, ruleset="yahtzee")
    seat_ids = set(Seat.objects.filter(player=guest).values_list("id", flat=True))
    response = sign_in(phone, "zoe")
    assert response.status_code == 302
    assert phone.cookies[COOKIE].value == account.token  # this device is the account's player
    assert not Player.objects.filter(pk=guest.pk).exists()
    assert set(Seat.objects.filter(player=account).values_list("id", flat=True)) >= seat_ids
    results = GameResult.objects.filter(player=account)
    assert results.count() == 3
    # The finished games keep the names they were played under.
    assert sorted(r.name for r in results) == ["Zed", "Zoe", "Zoe"]
    merged = PlayerRating.objects.get(player=account, ruleset="yahtzee")
    assert merged.games == before.games + guest_rating.games
    assert merged.own_games == before.own_games + guest_rating.own_games > before.own_games
    assert merged.points_sum == pytest.approx(before.points_sum + guest_rating.points_sum)
    assert merged.loss_sum == pytest.approx(before.loss_sum + guest_rating.loss_sum)
    # The later of the two last games: the time away is counted from the latest one.
    assert merged.last_game == max(before.last_game, guest_rating.last_game) is not None
    assert merged.rd < min(before.rd, guest_rating.rd)  # two estimates know more than one
    assert min(before.rating, guest_rating.rating) <= merged.rating \
        <= max(before.rating, guest_rating.rating)
    assert account.seats.count() == 3


def test_signing_out_forgets_the_player_and_its_cookie_takes_nothing_over(client):
    guest_with_games(client, "Zoe")
    sign_up(client, "zoe")
    account = Player.objects.get(user__username="zoe")
    response = client.post("/accounts/logout/")
    assert response.status_code == 302
    assert client.cookies[COOKIE].value == ""  # deleted
    # Someone holding the account player's cookie (kept, copied) is not that player.
    thief = Client()
    thief.cookies[COOKIE] = account.token
    page = thief.get("/").content.decode()
    assert '<span class="name-current">Your name</span>' in page and "Sign in" in page
    thief.post("/name", {"player_name": "Mallory", "next": "/"})
    account.refresh_from_db()
    assert account.name == "Zoe"
    assert thief.cookies[COOKIE].value != account.token
    # Nor does signing up from that browser take the account's player.
    sign_up(thief, "mallory")
    assert get_user_model().objects.get(username="mallory").player != account


@pytest.mark.parametrize("taken, alike", [
    ("Ann", "ann"),
    ("Kea", "\u041a\u0435\u0430"),  # all Cyrillic
    ("Bill", "BiII"),  # capital i for l
    ("Otto", "0tto"),
    ("Zoe", "Ｚｏｅ"),  # full-width: NFKC makes it "Zoe"
])
def test_account_names_that_read_alike_are_refused(client, taken, alike):
    assert sign_up(client, taken).status_code == 302
    client.post("/accounts/logout/")
    response = sign_up(Client(), alike)
    assert response.status_code == 200
    assert "exists already" in response.content.decode()
    assert get_user_model().objects.count() == 1


@pytest.mark.parametrize("name, error", [
    ("Bot", "looks like a label"),
    ("Anл", "mixes the letters"),
    ("a b", "Enter a valid username"),
])
def test_account_names_pass_the_nicknames_checks(client, name, error):
    response = sign_up(client, name)
    assert response.status_code == 200
    assert error in response.content.decode()
    assert not get_user_model().objects.exists()


def test_failed_sign_ins_lock_that_account_from_that_address_only(client, settings):
    sign_up(client, "zoe")
    client.post("/accounts/logout/")
    attacker = Client(REMOTE_ADDR="198.51.100.9")
    for attempt in range(1, settings.AXES_FAILURE_LIMIT + 1):
        response = sign_in(attacker, "zoe", "wrong password")
        assert response.status_code == (429 if attempt == settings.AXES_FAILURE_LIMIT else 200)
    response = sign_in(attacker, "zoe")  # the right password, from the locked address
    assert response.status_code == 429
    assert "Too many failed sign-ins" in response.content.decode()
    # The owner, from their own address, signs in.
    assert sign_in(client, "zoe").status_code == 302


def test_failed_sign_ins_from_rotating_addresses_lock_nobody_out(client, settings):
    sign_up(client, "zoe")
    client.post("/accounts/logout/")
    for i in range(settings.AXES_FAILURE_LIMIT * 2):
        sign_in(Client(), "zoe", "wrong", REMOTE_ADDR=f"203.0.113.{i + 1}")
    assert sign_in(client, "zoe").status_code == 302


def test_an_address_guessing_many_accounts_is_throttled(client, settings):
    sign_up(Client(REMOTE_ADDR="192.0.2.1"), "zoe")
    guesser = Client(REMOTE_ADDR="198.51.100.20")
    for i in range(settings.LOGIN_FAILURES_PER_MINUTE):
        response = sign_in(guesser, f"nobody{i}", "wrong")
        assert "Too many failed" not in response.content.decode()
    # Past the limit even a right password waits, from that address only.
    response = sign_in(guesser, "zoe")
    assert "Too many failed login attempts" in response.content.decode()
    assert "_auth_user_id" not in guesser.session
    assert sign_in(client, "zoe").status_code == 302


def test_sign_ups_are_limited_per_address(settings):
    for i in range(settings.SIGNUPS_PER_HOUR):
        assert sign_up(Client(), f"player{i}").status_code == 302
    response = sign_up(Client(), "one-more")
    assert response.status_code == 429
    assert not get_user_model().objects.filter(username="one-more").exists()
    assert sign_up(Client(REMOTE_ADDR="192.0.2.50"), "elsewhere").status_code == 302


def test_a_disabled_player_cannot_act(client):
    player = guest_with_games(client, "Zoe", games=0)
    services.set_player_disabled(player, True)
    client.post("/name", {"player_name": "Zed", "next": "/"})
    player.refresh_from_db()
    assert player.name == "Zoe"
    response = client.post("/", {"nickname": "Zoe", "name": "Table", "rules": "yahtzee",
                                 "seats": 2, "seat_1": "human"})
    assert "has been disabled by the site" in response.content.decode()
    response = client.post("/play-computer", {"rules": "yahtzee", "level": "easy"},
                           follow=True)
    assert "has been disabled by the site" in response.content.decode()
    assert not player.seats.exists()


def test_a_disabled_players_seat_cannot_play():
    player = services.new_player("Zoe")
    room = services.create_room(name="T", rules="yahtzee",
                                seats=[services.SeatSpec(), services.SeatSpec("easy")],
                                host_key="host")
    services.take_seat(room.code, "host", "Zoe", 0, player=player)
    services.start_game(room.code, "host")
    services.set_player_disabled(player, True)
    from game.rules import Roll

    with pytest.raises(services.ServiceError) as refused:
        services.apply_command(room.code, Roll(hold=()), guest_key="host")
    assert refused.value.code == "disabled"


def test_a_password_reset_is_mailed_over_smtp_and_its_link_sets_a_new_password(
        client, settings, smtp_server):
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", smtp_server.port
    sign_up(client, "zoe", email="zoe@example.com")
    client.post("/accounts/logout/")
    response = client.post("/accounts/password/reset/", {"email": "zoe@example.com"})
    assert response.status_code == 302
    message = smtp_server.wait_for("zoe@example.com")
    assert "Password Reset" in message["Subject"]
    link = smtp_server.link(message)
    page = client.get(link, follow=True)
    form_url = page.redirect_chain[-1][0] if page.redirect_chain else link
    response = client.post(form_url, {"password1": "a new password 42",
                                      "password2": "a new password 42"})
    assert response.status_code == 302
    assert sign_in(client, "zoe").status_code == 200  # the old password no longer works
    assert sign_in(client, "zoe", "a new password 42").status_code == 302


def test_an_account_takes_no_disabled_guest_and_no_other_accounts_player():
    from django.contrib.auth import get_user_model

    users = get_user_model().objects
    banned = services.new_player("Ban")
    services.set_player_disabled(banned, True)
    first = services.claim_player(users.create_user("first", password=PASSWORD), banned)
    assert first != banned and first.name == "first"  # a fresh player, not the disabled one
    banned.refresh_from_db()
    assert banned.user_id is None
    # Another account's player is never merged into a second account.
    second = services.claim_player(users.create_user("second", password=PASSWORD), first)
    assert second != first and Player.objects.filter(pk=first.pk).exists()
    # An account signing in again on its own browser changes nothing.
    again = services.claim_player(users.get(username="first"), first)
    assert again == first
