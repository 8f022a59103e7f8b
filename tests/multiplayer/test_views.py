"""Lobby, room page, joining, the public game page, 404s, CSRF and the admin pages."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from game import services
from game.models import Connection, Game, Room, Seat
from game.rules import Roll

from .helpers import as_action, next_move, room_with_players

pytestmark = pytest.mark.django_db


def create(client: Client, **fields) -> object:
    data = {"name": "Friday", "rules": "yahtzee", "seats": "2", "nickname": "",
            **{f"seat_{i}": "human" for i in range(6)}}
    data.update(fields)
    return client.post(reverse("game:lobby"), data)


def test_lobby_lists_rooms_by_status(client):
    waiting, _ = room_with_players(["Ann"], start=False)
    playing, _ = room_with_players(["Bob"])
    left, _ = room_with_players(["Cy"])  # a game everyone left: paused, not "playing now"
    Connection.objects.create(room=playing, channel_name="c1", last_seen=timezone.now())
    Connection.objects.create(room=left, channel_name="c2",
                              last_seen=timezone.now() - timedelta(minutes=5))
    Room.objects.filter(pk=waiting.pk).update(name="Waiting <b>room</b>")
    page = client.get("/")
    assert page.status_code == 200
    html = page.content.decode()
    assert "Waiting &lt;b&gt;room&lt;/b&gt;" in html and "<b>room</b>" not in html
    assert playing.get_absolute_url() in html
    assert left.get_absolute_url() not in html
    assert 'name="csrfmiddlewaretoken"' in html


def test_lobby_links_recently_finished_games(client):
    room, guests = room_with_players(["Ann"], rules="yatzy")
    game = Game.objects.get(room=room)
    while game.status == "playing":
        services.play(room.code, as_action(next_move(game.snapshot)), guest_key=guests[0])
        game.refresh_from_db()
    html = client.get("/").content.decode()
    assert game.get_absolute_url() in html and room.get_absolute_url() in html
    assert "won by <strong>Ann</strong>" in html
    page = client.get(game.get_absolute_url()).content.decode()
    assert "Won by <strong>Ann</strong>" in page and '"kind": "game_finished"' in page


def test_the_lobby_links_each_finished_rooms_latest_game_in_a_fixed_number_of_queries(
        client, django_assert_max_num_queries):
    def finish_rooms(n: int) -> list[Game]:
        latest = []
        for i in range(n):
            room = Room.objects.create(name=f"Done {i}", status=Room.Status.FINISHED)
            Game.objects.create(room=room, rules="yahtzee", status="finished")
            latest.append(Game.objects.create(room=room, rules="yahtzee", status="finished"))
        return latest

    latest = finish_rooms(1)
    with django_assert_max_num_queries(20) as one_room:
        client.get("/")
    latest += finish_rooms(6)
    with django_assert_max_num_queries(len(one_room)) as seven_rooms:
        html = client.get("/").content.decode()
    assert len(seven_rooms) == len(one_room)
    assert all(f'href="{game.get_absolute_url()}">review' in html for game in latest)


def test_creating_a_room_with_bots_and_a_nickname_seats_the_host(client):
    resp = create(client, nickname="  Ann  ", seats="3", seat_0="optimal", seat_2="easy")
    room = Room.objects.get()
    assert resp.status_code == 302 and resp["Location"] == f"/r/{room.code}/"
    seats = list(room.seats.values_list("index", "kind", "bot_level", "nickname"))
    assert seats == [(0, "bot", "optimal", "Bot 1 (optimal)"), (1, "human", "", "Ann"),
                     (2, "bot", "easy", "Bot 2 (easy)")]
    page = client.get(resp["Location"])
    assert page.status_code == 200
    assert page.context["seat"] == 1 and page.context["is_host"] is True
    assert page.context["nickname"] == "Ann" and page.context["room"] == room
    assert len(room.code) == 8


@pytest.mark.parametrize("fields", [
    {"name": ""}, {"name": "   "}, {"name": "x" * 61}, {"rules": "chess"}, {"seats": "0"},
    {"seats": "7"}, {"seat_0": "grandmaster"}, {"nickname": "n" * 25},
    {"seats": "1", "seat_0": "easy", "nickname": "Ann"}, {"name": "zero\u200bwidth"},
    {"nickname": "A\u202eB"},
])
def test_bad_create_forms_change_nothing(client, fields):
    resp = create(client, **fields)
    assert resp.status_code == 400
    assert Room.objects.count() == 0
    assert resp.context["form"].errors


def test_joining_a_seat_and_coming_back_to_it(client):
    room, _ = room_with_players(["Ann"], start=False)
    Seat.objects.create(room=room, index=1)
    url = reverse("game:join", args=[room.code])
    page = client.get(room.get_absolute_url())
    assert page.context["seat"] is None and page.context["is_host"] is False
    resp = client.post(url, {"nickname": "<script>x</script>", "seat": "1"})
    assert resp.status_code == 302
    page = client.get(room.get_absolute_url())
    assert page.context["seat"] == 1
    assert "<script>x</script>" not in page.content.decode()
    # Another visitor cannot take that seat; a bad nickname is refused.
    other = Client()
    resp = other.post(url, {"nickname": "Eve", "seat": "1"})
    assert resp.status_code == 400
    for bad in ({"nickname": "", "seat": "1"}, {"nickname": "y" * 25, "seat": "1"},
                {"nickname": "Eve", "seat": "9"}, {"nickname": "Eve", "seat": "x"}):
        assert other.post(url, bad).status_code == 400
    assert Seat.objects.get(room=room, index=1).nickname == "<script>x</script>"
    assert client.get(url).status_code == 405


def test_unknown_codes_are_404_pages_and_an_unknown_game_leads_to_the_lobby(client):
    for url in ("/r/nosuchroom/", "/r/nosuchroom/join", "/nope/"):
        resp = client.get(url) if "join" not in url else client.post(url, {})
        assert resp.status_code == 404
        assert "Back to the lobby" in resp.content.decode()
    # A review link to no game: never an error page, the lobby with a word on why.
    resp = client.get("/games/999/", follow=True)
    assert resp.redirect_chain == [(reverse("game:lobby"), 302)]
    assert "There is no game 999" in resp.content.decode()


def test_forms_need_csrf():
    csrf_client = Client(enforce_csrf_checks=True)
    assert create(csrf_client).status_code == 403
    room, _ = room_with_players(["Ann"], start=False)
    resp = csrf_client.post(reverse("game:join", args=[room.code]), {"nickname": "X", "seat": 0})
    assert resp.status_code == 403


def test_the_game_page_carries_the_replay_of_a_running_game(client):
    room, guests = room_with_players(["Ann", "Bob"], rules="triple")
    game = Game.objects.get(room=room)
    for _ in range(6):
        game.refresh_from_db()
        services.play(room.code, as_action(next_move(game.snapshot)),
                      guest_key=guests[game.snapshot["current_player"]])
    page = client.get(game.get_absolute_url())
    assert page.status_code == 200
    html = page.content.decode()
    assert "In progress" in html and 'id="replay-data"' in html and 'id="ruleset-data"' in html
    replay = page.context["replay"]
    assert [f["seq"] for f in replay["frames"]] == list(range(1, game.events.count() + 1))
    assert not replay["finished"] and page.context["ruleset_data"]["multipliers"] == [1, 2, 3]


@pytest.mark.django_db
def test_admin_pages_render(admin_client):
    room, guests = room_with_players(["Ann", "Bob"])
    game = Game.objects.get(room=room)
    services.play(room.code, Roll(), guest_key=guests[0])
    pages = [
        reverse("admin:game_game_changelist"),
        reverse("admin:game_game_changelist") + "?q=Bob",
        reverse("admin:game_game_changelist") + "?rules__exact=yahtzee&status__exact=playing",
        reverse("admin:game_game_change", args=[game.pk]),
        reverse("admin:game_room_changelist"),
        reverse("admin:game_room_change", args=[room.pk]),
        reverse("admin:game_seat_changelist"),
    ]
    for url in pages:
        resp = admin_client.get(url)
        assert resp.status_code == 200, url
    change = admin_client.get(reverse("admin:game_game_change", args=[game.pk])).content.decode()
    assert "Ann rolled" in change and game.get_absolute_url() in change
    found = admin_client.get(pages[1]).content.decode()
    assert f"/admin/game/game/{game.pk}/change/" in found
    none = admin_client.get(reverse("admin:game_game_changelist") + "?q=Nobody")
    assert f"/admin/game/game/{game.pk}/change/" not in none.content.decode()
