"""Player records: a name set once follows the browser (quick play, rooms, joining); "Play
with friends" needs only that name; a friend joins with one button; the invite's QR code."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from game import services
from game.models import Game, Player, Room, Seat
from game.web.players import COOKIE, COOKIE_AGE
from tests.support.rooms import as_action, next_move, room_with_players

pytestmark = pytest.mark.django_db

FRIENDS = {"nickname": "Ann", "name": "", "rules": "yahtzee", "seats": "2",
           **{f"seat_{i}": "human" for i in range(6)}}


def play_with_friends(client: Client, **fields: str):
    return client.post(reverse("game:lobby"), {**FRIENDS, **fields})


def test_play_with_friends_needs_only_a_name_and_seats_the_creator(client):
    resp = play_with_friends(client)
    room = Room.objects.get()
    assert resp.status_code == 302 and resp["Location"] == room.get_absolute_url()
    assert room.name == "Ann’s table" and room.status == "waiting"
    host, free = room.seats.order_by("index")
    player = Player.objects.get()
    assert (host.nickname, host.player, host.guest_key) == ("Ann", player, room.host_key)
    assert free.is_free and player.name == "Ann"
    page = client.get(room.get_absolute_url())
    assert page.context["seat"] == 0 and page.context["is_host"] is True


def test_the_player_cookie_lasts_a_year_and_scripts_cannot_read_it(client, settings):
    cookie = play_with_friends(client).cookies[COOKIE]
    assert cookie.value == Player.objects.get().token
    assert cookie["max-age"] == COOKIE_AGE == 365 * 24 * 3600
    assert cookie["httponly"] and cookie["samesite"] == "Lax" and not cookie["secure"]
    settings.SESSION_COOKIE_SECURE = True  # the site behind HTTPS
    other = Client()
    assert other.post(reverse("game:set_name"), {"player_name": "Bea"}).cookies[COOKIE]["secure"]


def test_the_name_follows_the_browser_to_quick_play_the_lobby_and_other_rooms(client):
    play_with_friends(client, nickname="Zoe", seats="1")
    assert 'value="Zoe"' in client.get("/").content.decode()  # the lobby's name field
    client.post(reverse("game:play_computer"), {"rules": "yahtzee", "level": "easy"})
    quick = Room.objects.get(name="Zoe vs the computer")
    me = Player.objects.get()
    assert quick.seats.get(index=0).player == me
    assert Game.objects.get(room=quick).players[0] == "Zoe"
    elsewhere, _ = room_with_players(["Ann"], start=False)
    Seat.objects.create(room=elsewhere, index=1)
    page = client.get(elsewhere.get_absolute_url()).content.decode()
    assert re.search(r'id="join-btn">Join as Zoe</button>', page)
    assert Player.objects.count() == 1  # one record per browser


def test_a_visitor_who_only_looks_makes_no_player_record(client):
    room, _ = room_with_players(["Ann"], start=False)
    for url in ("/", room.get_absolute_url(), reverse("game:lobby_rooms")):
        resp = client.get(url)
        assert resp.status_code == 200 and COOKIE not in resp.cookies
    assert Player.objects.count() == 0


def test_the_header_changes_the_name_from_any_page_and_refuses_bad_ones(client):
    room, _ = room_with_players(["Ann"], start=False)
    back = room.get_absolute_url()
    resp = client.post(reverse("game:set_name"), {"player_name": "  Bea  ", "next": back})
    assert resp.status_code == 302 and resp["Location"] == back
    assert Player.objects.get().name == "Bea"
    page = client.get(back).content.decode()
    assert '<span class="name-current">Bea</span>' in page
    assert "You are Bea on this browser." in page
    for bad in ("", "   ", "x" * 25, "Bot 9", "A\u202eB", "zero\u200bwidth"):
        resp = client.post(reverse("game:set_name"), {"player_name": bad, "next": back},
                           follow=True)
        assert resp.redirect_chain == [(back, 302)]
        assert resp.context["messages"] and Player.objects.get().name == "Bea"
    # Only back to this site: a foreign "next" goes to the lobby.
    for away in ("https://evil.example/", "//evil.example/x"):
        resp = client.post(reverse("game:set_name"), {"player_name": "Bea", "next": away})
        assert resp["Location"] == "/"
    assert client.get(reverse("game:set_name")).status_code == 405


def test_renaming_keeps_the_names_of_seats_already_taken(client):
    play_with_friends(client)
    client.post(reverse("game:set_name"), {"player_name": "Annie"})
    assert Seat.objects.get(index=0).nickname == "Ann"
    assert Player.objects.get().name == "Annie"


def test_a_friend_joins_with_one_button_into_the_first_free_seat(client):
    play_with_friends(Client(), seats="3")
    room = Room.objects.get()
    page = client.get(room.get_absolute_url()).content.decode()
    form = page[page.index('<form method="post" action="/r/'):]
    form = form[:form.index("</form>")]
    # One button; the seat is not asked; the dice seed is folded away.
    assert form.count("<button") == 1 and 'id="join-btn">Join</button>' in form
    assert 'type="hidden" name="seat"' in form
    assert re.search(r'<details class="own-seed">.*name="dice_seed"', form, re.S)
    resp = client.post(reverse("game:join", args=[room.code]), {"nickname": "Bea"})
    assert resp.status_code == 302
    bea = Seat.objects.get(room=room, index=1)
    assert bea.nickname == "Bea" and bea.player == Player.objects.get(name="Bea")
    third = Client()
    third.post(reverse("game:join", args=[room.code]), {"nickname": "Cy"})
    full = Client().post(reverse("game:join", args=[room.code]), {"nickname": "Dee"})
    assert full.status_code == 400 and "Every seat is taken" in full.content.decode()
    assert [s.nickname for s in room.seats.order_by("index")] == ["Ann", "Bea", "Cy"]


def test_only_seated_people_are_shown_the_invite_and_its_qr_code(client):
    play_with_friends(client)
    room = Room.objects.get()
    page = client.get(room.get_absolute_url()).content.decode()
    qr = re.search(r'<figure class="invite-qr" id="invite-qr">\s*(<svg[^>]*>.*?</svg>)', page, re.S)
    assert qr and 'class="qr-code"' in qr.group(1)
    assert "style" not in qr.group(1) and "<script" not in qr.group(1)
    assert f'<code id="invite-url">http://testserver/r/{room.code}/</code>' in page
    watcher = Client().get(room.get_absolute_url()).content.decode()
    assert 'data-seat=""' in watcher  # room.css hides the invite panel from watchers


@pytest.mark.parametrize(("players", "totals", "winners", "line"), [
    (["Ann"], [240], [0], "Ann scored 240"),
    (["Bot 1 (medium)", "Player"], [221, 165], [0], "Bot 1 (medium) beat Player 221 to 165"),
    (["Ann", "Bea"], [150, 190], [1], "Bea beat Ann 190 to 150"),
    (["Ann", "Bea", "Cy"], [200, 200, 120], [0, 1], "Ann and Bea tied on 200; Cy 120"),
    (["Ann", "Bea", "Cy"], [180, 221, 120], [1], "Bea won with 221; Ann 180, Cy 120"),
])
def test_a_finished_games_result_reads_as_a_sentence(players, totals, winners, line):
    assert Game(players=players, totals=totals, winners=winners).result_line == line


def test_a_seat_for_a_person_needs_the_creators_name_and_computers_alone_are_watched(client):
    for fields in ({"nickname": "Bot 2"},
                   {"seats": "1", "seat_0": "easy"}):  # Ann and no seat for her
        resp = play_with_friends(client, **fields)
        assert resp.status_code == 400 and resp.context["form"].errors["nickname"]
    # No name yet: the form asks for it in place (a question, not a refusal).
    resp = play_with_friends(client, nickname="")
    assert resp.status_code == 200
    assert resp.context["form"].errors == {
        "nickname": ["Your name, please: it goes on your seat."]}
    with pytest.raises(services.ServiceError):
        services.open_room("g", nickname="Ann", name="", rules="yahtzee",
                           seats=[services.SeatSpec("easy")])
    assert Room.objects.count() == 0 and Player.objects.count() == 0
    resp = play_with_friends(client, nickname="", seats="2", seat_0="easy", seat_1="medium")
    room = Room.objects.get()
    assert resp["Location"] == room.get_absolute_url()
    assert room.name == "The computers’ table" and room.host_key
    assert not room.seats.exclude(kind="bot").exists()


def test_any_seated_player_may_offer_the_rematch_but_only_the_host_starts_the_first_game():
    room, guests = room_with_players(["Ann", "Bob"], start=False)
    with pytest.raises(services.ServiceError) as refused:
        services.start_game(room.code, guests[1])
    assert refused.value.code == "not_host"
    first = services.start_game(room.code, guests[0])
    game = first
    while game.status == Game.Status.PLAYING:
        player = game.snapshot["current_player"]
        services.play(room.code, as_action(next_move(game.snapshot)), guest_key=guests[player])
        game.refresh_from_db()
    for stranger in ("a-watcher", "", None):
        with pytest.raises(services.ServiceError) as refused:
            services.start_game(room.code, stranger)
        assert refused.value.code == "not_host"
    second = services.start_game(room.code, guests[1])  # Bob, not the host
    assert second.pk != first.pk and second.players == ["Ann", "Bob"]
    room.refresh_from_db()
    assert room.status == "playing" and room.host_key == guests[0]  # Ann is still the host


def test_setting_names_without_the_cookie_is_rate_limited_and_a_refusal_makes_no_player(
        client, settings):
    settings.NAMES_PER_HOUR = 2
    allowed = settings.NAMES_PER_HOUR * 5  # per address: a script sending no cookie
    for i in range(allowed + 3):
        client.cookies.clear()
        resp = client.post(reverse("game:set_name"), {"player_name": f"Ann {i}"},
                           follow=True)
        said = [str(m) for m in resp.context["messages"]]
        assert ("Too many at once" in said[0]) == (i >= allowed), (i, said)
    assert Player.objects.count() == allowed


def test_one_player_renaming_too_often_is_refused_and_keeps_the_name(client, settings):
    settings.NAMES_PER_HOUR = 2
    # The first name makes the player (counted for the address: there is no player yet).
    for name in ("Ann", "Bea", "Cy", "Dee"):
        client.post(reverse("game:set_name"), {"player_name": name})
    assert Player.objects.get().name == "Cy"
