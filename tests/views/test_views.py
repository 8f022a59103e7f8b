"""Lobby, room page, joining, the public game page, 404s, CSRF and the admin pages."""

from __future__ import annotations

import json
import re
from datetime import timedelta
from html import unescape

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from game import protocol, selectors, services
from game.models import Connection, Game, Room, Seat
from game.rules import Roll
from tests.support.rooms import as_action, next_move, play_to_end, room_with_players

pytestmark = pytest.mark.django_db


def create(client: Client, **fields) -> object:
    data = {"name": "Friday", "rules": "yahtzee", "seats": "2", "nickname": "Ann",
            **{f"seat_{i}": "human" for i in range(6)}}
    data.update(fields)
    return client.post(reverse("game:lobby"), data)


def test_lobby_lists_rooms_by_status(client):
    waiting, _ = room_with_players(["Ann"], bots=[], start=False)
    Seat.objects.create(room=waiting, index=1)  # a free seat: waiting for players
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


def lobby_section(html: str, title_id: str) -> str:
    """The part of the lobby's lists under the heading ``title_id``."""
    start = html.index(f'id="{title_id}"')
    end = html.find("</section>", start)
    return html[start:end]


def test_full_rooms_are_not_waiting_and_computers_are_never_here(client):
    open_room, _ = room_with_players(["Ann"], start=False)
    Seat.objects.create(room=open_room, index=1)
    full, _ = room_with_players(["Bob"], bots=["optimal"], start=False)
    playing, guests = room_with_players(["Cy"], bots=["easy"])
    for room, guest in ((full, "host-Bob"), (playing, guests[0])):
        Connection.objects.create(room=room, channel_name=f"c-{room.code}", guest_key=guest,
                                  last_seen=timezone.now())
    html = client.get(reverse("game:lobby_rooms")).content.decode()
    waiting = lobby_section(html, "waiting-title")
    now = lobby_section(html, "playing-title")
    assert open_room.get_absolute_url() in waiting and "<em>free seat</em>" in waiting
    assert full.get_absolute_url() not in waiting  # no free seat: not "waiting for players"
    assert full.get_absolute_url() in now and "full · starting soon" in now
    assert playing.get_absolute_url() in now
    # People with a live socket are "here"; computer players are computers, never "here".
    assert now.count('<span class="tag tag-here">here</span>') == 2
    assert 'Bot 1 (optimal) <span class="tag tag-computer">computer</span>' in now
    assert 'Bot 1 (easy) <span class="tag tag-computer">computer</span>' in now
    assert "Ann <span" not in waiting  # Ann has no socket open


def test_the_lobby_lists_are_a_small_fragment_with_an_etag(client):
    first = client.get(reverse("game:lobby_rooms"))
    assert first.status_code == 200 and first["ETag"]
    assert "<html" not in first.content.decode() and "waiting-title" in first.content.decode()
    again = client.get(reverse("game:lobby_rooms"), HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304 and again.content == b""
    room_with_players(["Ann"], start=False)
    Seat.objects.create(room=Room.objects.get(), index=1)
    changed = client.get(reverse("game:lobby_rooms"), HTTP_IF_NONE_MATCH=first["ETag"])
    assert changed.status_code == 200 and "Test room" in changed.content.decode()
    assert "no-cache" in changed["Cache-Control"]


def test_one_click_plays_the_computer_without_a_name(client):
    resp = client.post(reverse("game:play_computer"), {"rules": "yahtzee", "level": "medium"})
    room = Room.objects.get()
    assert resp.status_code == 302 and resp["Location"] == room.get_absolute_url()
    assert room.status == "playing" and room.name == "Player vs the computer"
    seats = list(room.seats.order_by("index"))
    assert [(s.kind, s.display_name, s.bot_level) for s in seats] == [
        ("human", "Player", ""), ("bot", "Bot 1 (medium)", "medium")]
    assert seats[0].guest_key == client.session[services.SESSION_GUEST]
    game = Game.objects.get(room=room)
    assert game.players == ["Player", "Bot 1 (medium)"] and game.snapshot["current_player"] == 0
    page = client.get(room.get_absolute_url()).content.decode()
    assert 'data-seat="0"' in page  # the visitor plays from the first click


def test_one_click_uses_the_nickname_given_before_and_refuses_bad_choices(client):
    create(client, nickname="Zoe")  # a room of her own: her player record keeps her name
    client.post(reverse("game:play_computer"), {"rules": "yatzy", "level": "optimal"})
    room = Room.objects.get(name="Zoe vs the computer")
    assert room.rules == "yatzy" and room.seats.get(index=1).bot_level == "optimal"
    before = Room.objects.count()
    for bad in ({"rules": "chess", "level": "easy"}, {"rules": "yahtzee", "level": "human"},
                {"rules": "yahtzee"}):
        resp = client.post(reverse("game:play_computer"), bad, follow=True)
        assert resp.redirect_chain == [(reverse("game:lobby"), 302)]
        assert "Choose the rules and the computer" in resp.content.decode()
    assert Room.objects.count() == before


def test_join_by_code_takes_a_code_or_a_link(client):
    room, _ = room_with_players(["Ann"], start=False)
    for typed in (room.code, f"  {room.code.upper()} ", f"http://127.0.0.1:8000/r/{room.code}/"):
        resp = client.get(reverse("game:join_by_code"), {"code": typed})
        assert resp.status_code == 302 and resp["Location"] == room.get_absolute_url(), typed
    for typed, said in (("abc", "A room code is 8 letters"),
                        ("zzzzzzzz", "No room has the code zzzzzzzz."),
                        ("", "This field is required")):
        resp = client.get(reverse("game:join_by_code"), {"code": typed}, follow=True)
        assert resp.redirect_chain == [(reverse("game:lobby"), 302)]
        assert said in resp.content.decode()


def test_lobby_links_recently_finished_games(client):
    room, guests = room_with_players(["Ann"], rules="yatzy")
    game = play_to_end(room, guests)
    html = client.get("/").content.decode()
    assert game.get_absolute_url() in html and room.get_absolute_url() in html
    assert f'<span class="room-result">Ann scored {game.totals[0]}</span>' in html
    page = client.get(game.get_absolute_url()).content.decode()
    # Alone at the table: the game's page tells when it finished, not who won.
    assert "Won by" not in page and '"kind": "game_finished"' in page
    assert re.search(r"Finished \d+ \w+ \d{4}, \d\d:\d\d UTC\.\s", page)


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


def test_the_lobby_offers_the_computer_that_plays_to_win(client):
    page = client.get("/").content.decode()
    assert '<option value="to_win">Computer — plays to win</option>' in page  # a seat
    assert '<option value="to_win">Plays to win</option>' in page  # the one-click game
    assert "<em>Plays to win</em> goes for the win, not the most points" in page
    resp = create(client, seat_1="to_win")
    room = Room.objects.get()
    assert resp.status_code == 302
    assert list(room.seats.values_list("kind", "bot_level", "nickname").order_by("index")) == [
        ("human", "", "Ann"), ("bot", "to_win", "Bot 1 (to win)")]
    client.post(reverse("game:play_computer"), {"rules": "yatzy", "level": "to_win"})
    quick = Room.objects.exclude(pk=room.pk).get()
    assert quick.status == "playing" and quick.seats.get(index=1).bot_level == "to_win"


def test_an_unknown_computer_level_is_refused_by_its_seat_and_creates_nothing(client):
    resp = create(client, seat_1="grandmaster")
    assert resp.status_code == 400 and Room.objects.count() == 0 and Seat.objects.count() == 0
    assert resp.context["form"].errors == {
        "seat_1": ["Choose a person or one of the computer levels from the list."]}
    page = resp.content.decode()
    assert ('<div class="field-errors" role="alert">'
            '<ul class="errorlist" id="friends_seat_1_error">'
            '<li>Choose a person or one of the computer levels from the list.</li>') in page


@pytest.mark.parametrize("fields", [{"nickname": ""}, {"nickname": "   "}])
def test_play_with_friends_without_a_name_asks_for_it_in_place_and_makes_nothing(client, fields):
    resp = create(client, **fields)
    assert resp.status_code == 200 and Room.objects.count() == 0
    page = resp.content.decode()
    assert 'id="friends-name-error" role="alert">' in page
    assert "Your name, please: it goes on your seat." in page
    # With another mistake too, it is a refusal as before.
    resp = create(client, **fields, rules="chess")
    assert resp.status_code == 400 and Room.objects.count() == 0


@pytest.mark.parametrize("fields", [
    {"name": "x" * 61}, {"rules": "chess"}, {"seats": "0"},
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


def test_a_room_page_carries_its_state_as_the_socket_sends_it_with_the_reader_here(client):
    room, _ = room_with_players(["Ann"], bots=["easy"], start=False)
    Seat.objects.create(room=room, index=2)
    client.post(reverse("game:join", args=[room.code]), {"nickname": "Bea", "seat": "2"})
    services.start_game(room.code, "host-Ann")
    page = client.get(room.get_absolute_url()).content.decode()
    drawn = json.loads(unescape(re.search(
        r'<script id="room-state" type="application/json">(.*?)</script>', page, re.S).group(1)))
    guest = client.session[services.SESSION_GUEST]
    sent = protocol.state(selectors.room_state(room, guest))
    assert drawn["you"] == sent["you"] == {"seat": 2, "host": False}
    assert drawn["game"] == sent["game"] and drawn["seq"] == sent["seq"] > 0
    # Bea's own socket is on its way: her seat is here; Ann's (no socket) is away as sent.
    assert [s["connected"] for s in sent["room"]["seats"]] == [False, True, False]
    assert [s["connected"] for s in drawn["room"]["seats"]] == [False, True, True]
    assert drawn["room"]["seats"][2]["autoplay_in"] is None
    assert sent["room"]["seats"][2]["autoplay_in"] is not None
    timeless = [{k: v for k, v in seat.items() if k not in ("autoplay_in", "host_passes_in")}
                for seat in sent["room"]["seats"][:2]]
    assert [{k: seat[k] for k in timeless[0]} for seat in drawn["room"]["seats"][:2]] == timeless
    assert drawn["room"]["seats"][0]["autoplay_in"] > 0  # Ann's countdown, read a moment apart


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
    # A running game's page does not ask for its analysis; its analysis part says it comes later.
    assert "data-poll" not in html
    part = client.get(reverse("game:game_analysis", args=[game.pk])).content.decode()
    assert "comes when the game is over" in part and "data-poll" not in part
    assert client.get(reverse("game:game_analysis", args=[10**6])).status_code == 404


@pytest.mark.django_db
def test_admin_pages_render(admin_client):
    room, guests = room_with_players(["Ann", "Bob"])
    game = Game.objects.get(room=room)
    services.play(room.code, Roll(), guest_key=guests[0])
    pages = [
        reverse("admin:game_game_changelist"),
        reverse("admin:game_game_changelist") + "?q=Bob",
        reverse("admin:game_game_changelist") + "?rules__exact=yahtzee&activity=playing",
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


def test_admin_event_log_is_paged_says_who_acted_and_shows_standings(admin_client,
                                                                       monkeypatch):
    from game.admin.games import GameAdmin

    monkeypatch.setattr(GameAdmin, "EVENTS_PER_PAGE", 10)
    room, guests = room_with_players(["Ann", "Bob"], bots=["easy"])
    game = Game.objects.get(room=room)
    # Ann plays, Bob is away (the computer plays for him), the bot plays: two rounds.
    while game.snapshot["round"] < 3:
        player = game.snapshot["current_player"]
        action = as_action(next_move(game.snapshot))
        if player == 0:
            services.play(room.code, action, guest_key=guests[0])
        else:
            services.play(room.code, action, seat_index=player,
                          by="autoplay" if player == 1 else "bot")
        game.refresh_from_db()
    url = reverse("admin:game_game_change", args=[game.pk])
    first = admin_client.get(url).content.decode()
    pages = -(-game.seq // 10)
    assert pages >= 3 and f"Events 1–10 of {game.seq}." in first
    assert first.count('<tr class="form-row event-row') == 10  # one page, not the whole log
    assert f'<a href="?events={pages}">' in first
    assert "Ann (person)" in first and "the rules" in first  # the start, each new turn
    last = admin_client.get(url, {"events": pages}).content.decode()
    assert f"Events {(pages - 1) * 10 + 1}–{game.seq} of {game.seq}." in last
    everyone = "".join(admin_client.get(url, {"events": n}).content.decode()
                       for n in range(1, pages + 1))
    assert "the computer for Bob, who was away" in everyone
    assert "Bot 1 (easy) (computer)" in everyone
    assert admin_client.get(url, {"events": "x"}).status_code == 200  # a bad page: the first
    assert admin_client.get(url, {"events": "999"}).status_code == 200  # past the end: the last
    # The totals as a table: place, player, total so far.
    assert '<table class="standings">' in first and "total (so far)" in first
    for name in ("Ann", "Bob", "Bot 1 (easy)"):
        assert f"<td>{name}</td>" in first


def test_admin_keeps_a_live_rooms_rules_status_and_seats_read_only(admin_client):
    waiting, _ = room_with_players(["Ann"], start=False)
    playing, _ = room_with_players(["Bob"], bots=["easy"])
    editable = admin_client.get(reverse("admin:game_room_change", args=[waiting.pk]))
    html = editable.content.decode()
    assert 'name="rules"' in html and 'name="seats-0-kind"' in html
    assert 'name="status"' not in html  # the status follows the games, always
    live = admin_client.get(reverse("admin:game_room_change", args=[playing.pk])).content.decode()
    for field in ('name="rules"', 'name="status"', 'name="seats_count"', 'name="seats-0-kind"',
                  'name="seats-1-bot_level"'):
        assert field not in live, field
    assert "Bot 1 (easy)" in live and "Playing" in live
    # A forged POST changes nothing either.
    admin_client.post(reverse("admin:game_room_change", args=[playing.pk]),
                      {"name": "Renamed", "rules": "yatzy", "status": "waiting"})
    playing.refresh_from_db()
    assert (playing.name, playing.rules, playing.status) == ("Test room", "yahtzee", "playing")
