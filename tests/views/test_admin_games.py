"""The admin's game pages: scorecards with one total and the upper section's sums, an event
log saying which dice were held, games nobody moved in for a day shown (and filtered) as
abandoned and kept off the lobby's "playing" list, and finished games that cannot be deleted."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from game import selectors, services
from game.models import Connection, Game, GameEvent, Room
from game.rules import Roll
from tests.support.rooms import finished_game, room_with_players

pytestmark = pytest.mark.django_db


def scorecard_rows(admin_client, game: Game) -> list[str]:
    """The row titles of the game page's scorecards table."""
    page = admin_client.get(reverse("admin:game_game_change", args=[game.pk])).content.decode()
    table = re.search(r'<table class="scorecards">.*?</table>', page, re.S)
    assert table is not None
    return re.findall(r"<tr class=\"[^\"]*\"><th>([^<]*)</th>", table.group(0))


@pytest.mark.parametrize("rules, sums", [
    ("yahtzee", ["Upper section", "Upper bonus", "Yahtzee bonus", "Total"]),
    ("yatzy", ["Upper section", "Upper bonus", "Total"]),
    ("triple", ["Upper section", "Upper bonus", "Yahtzee bonus", "Column total", "Total"]),
])
def test_the_scorecards_show_the_upper_sums_and_one_total(admin_client, rules, sums):
    game = finished_game(["Ann", "Bob"], rules=rules)
    rows = scorecard_rows(admin_client, game)
    assert rows[-len(sums):] == sums
    assert rows.count("Total") == 1


def test_the_event_log_says_which_dice_were_held(admin_client):
    room, guests = room_with_players(["Ann", "Bob"])
    services.play(room.code, Roll(), guest_key=guests[0])
    first = Game.objects.get(room=room).snapshot["dice"]
    services.play(room.code, Roll((0, 2)), guest_key=guests[0])
    game = Game.objects.get(room=room)
    second = game.snapshot["dice"]
    assert (second[0], second[2]) == (first[0], first[2])
    page = admin_client.get(reverse("admin:game_game_change", args=[game.pk])).content.decode()
    dice = " ".join(map(str, second))
    assert f"Ann rolled {dice}, held {second[0]} {second[2]}<" in page
    assert "keeping" not in page


def abandon(game: Game) -> None:
    """Age every event of ``game`` past ``ABANDONED_AFTER``."""
    GameEvent.objects.filter(game=game).update(
        created=timezone.now() - selectors.ABANDONED_AFTER - timedelta(minutes=1))


def listed_games(admin_client, query: str) -> set[int]:
    page = admin_client.get(reverse("admin:game_game_changelist") + query)
    assert page.status_code == 200
    return {int(pk) for pk in re.findall(r"/admin/game/game/(\d+)/change/", page.content.decode())}


def test_a_game_without_a_move_for_a_day_is_abandoned(admin_client):
    quiet, _ = room_with_players(["Ann"], bots=["easy"])
    lively, _ = room_with_players(["Bob"], bots=["easy"])
    old, new = Game.objects.get(room=quiet), Game.objects.get(room=lively)
    done = finished_game(["Cy"])
    abandon(old)
    abandon(done)  # a finished game stays finished, however old
    assert listed_games(admin_client, "?activity=abandoned") == {old.pk}
    assert listed_games(admin_client, "?activity=playing") == {new.pk}
    assert listed_games(admin_client, "?activity=finished") == {done.pk}
    page = admin_client.get(reverse("admin:game_game_change", args=[old.pk])).content.decode()
    assert "Abandoned" in page
    changelist = admin_client.get(reverse("admin:game_game_changelist")).content.decode()
    assert changelist.count(">Abandoned<") >= 2  # the filter's choice and the game's row


def test_the_lobby_does_not_list_an_abandoned_game_as_playing():
    quiet, _ = room_with_players(["Ann"], bots=["easy"])
    lively, _ = room_with_players(["Bob"], bots=["easy"])
    for i, room in enumerate((quiet, lively)):  # a tab left open on each
        Connection.objects.create(room=room, channel_name=f"ch{i}", guest_key=f"g{i}",
                                  last_seen=timezone.now())
    abandon(Game.objects.get(room=quiet))
    playing = selectors.lobby_rooms(20, timedelta(days=2))["playing"]
    assert [r.pk for r in playing] == [lively.pk]


def test_finished_games_their_rooms_and_event_logs_cannot_be_deleted(admin_client):
    game = finished_game(["Ann", "Bob"])
    events = GameEvent.objects.filter(game=game).count()
    for url in (reverse("admin:game_game_delete", args=[game.pk]),
                reverse("admin:game_room_delete", args=[game.room_id])):
        assert admin_client.post(url, {"post": "yes"}).status_code == 403, url
    for name in ("game", "room"):
        changelist = reverse(f"admin:game_{name}_changelist")
        assert 'value="delete_selected"' not in admin_client.get(changelist).content.decode()
        pk = game.pk if name == "game" else game.room_id
        admin_client.post(changelist, {"action": "delete_selected", "_selected_action": [pk],
                                       "post": "yes"})
    page = admin_client.get(reverse("admin:game_game_change", args=[game.pk])).content.decode()
    assert 'name="events-0-DELETE"' not in page
    assert Game.objects.filter(pk=game.pk).exists() and Room.objects.filter(
        pk=game.room_id).exists()
    assert GameEvent.objects.filter(game=game).count() == events


@pytest.mark.skipif(connection.vendor != "sqlite", reason="reads SQLite's query plan")
def test_the_lobbys_abandoned_check_reads_the_events_game_seq_index():
    """The last event is found by (game, seq) in the unique index (SQLite names it itself):
    a plan that scans a game's events grows with every move of every game in the lobby."""
    room_with_players(["Ann"], bots=["easy"])
    with CaptureQueriesContext(connection) as queries:
        selectors.lobby_rooms(20, timedelta(days=2))
    sql = next(q["sql"] for q in queries.captured_queries if "game_gameevent" in q["sql"])
    with connection.cursor() as cursor:
        cursor.execute("EXPLAIN QUERY PLAN " + sql)
        plan = " | ".join(str(row[-1]) for row in cursor.fetchall())
    assert "USING INDEX sqlite_autoindex_game_gameevent_1 (game_id=? AND seq=?)" in plan, plan


def test_the_admins_pages_of_a_long_list_hold_the_rows_an_offset_would():
    from game.admin.common import IdsFirstPaginator

    for n in range(7):
        Room.objects.create(name=f"Table {n}")
    rooms = Room.objects.order_by("-id")
    every = list(rooms)
    pages = IdsFirstPaginator(rooms, 3)
    assert [list(pages.page(n).object_list) for n in (1, 2, 3)] == [
        every[0:3], every[3:6], every[6:7]]
    assert list(IdsFirstPaginator(rooms, 3, orphans=1).page(2).object_list) == every[3:7]


def changelist_ids(admin_client, q: str) -> set[int]:
    response = admin_client.get(reverse("admin:game_game_changelist"), {"q": q})
    assert response.status_code == 200
    return {g.pk for g in response.context["cl"].result_list}


def test_the_game_search_finds_a_players_name_or_a_rooms_code(admin_client):
    ann_bob = finished_game(["Ann", "Bob"])
    cy_bob = finished_game(["Cy", "Bobby"])
    assert changelist_ids(admin_client, "bob") == {ann_bob.pk, cy_bob.pk}
    assert changelist_ids(admin_client, "ann bob") == {ann_bob.pk}
    assert changelist_ids(admin_client, f" {cy_bob.room.code.upper()} ") == {cy_bob.pk}
    assert changelist_ids(admin_client, "nobody") == set()


# EXPLAIN of the admin's own search query on a migrated PostgreSQL database, sequential scans
# switched off so that the plan shows whether an index can serve it at all.
PLAN_SCRIPT = """
from django.contrib import admin
from django.db import connection
from django.test import RequestFactory
from game.models import Game
request = RequestFactory().get("/admin/game/game/", {"q": "Ann"})
found, _ = admin.site._registry[Game].get_search_results(request, Game.objects.all(), "Ann")
sql, params = found.query.sql_with_params()
with connection.cursor() as cursor:
    cursor.execute("SET enable_seqscan = off")
    cursor.execute("EXPLAIN " + sql, params)
    print("\\n".join(row[0] for row in cursor.fetchall()))
"""


def test_the_name_search_reads_a_trigram_index_on_postgresql(postgres_url, tmp_path):
    import os
    import subprocess
    import sys
    from pathlib import Path

    import psycopg

    name = f"yahtzee_search_{os.getpid()}"
    with psycopg.connect(postgres_url, autocommit=True) as db:
        db.execute(f"DROP DATABASE IF EXISTS {name}")
        db.execute(f"CREATE DATABASE {name}")
    try:
        env = {**os.environ, "DATABASE_URL": postgres_url.rsplit("/", 1)[0] + f"/{name}",
               "DATA_DIR": str(tmp_path)}
        root = Path(__file__).resolve().parents[2]
        for command in (["migrate", "-v0"], ["shell", "-c", PLAN_SCRIPT]):
            done = subprocess.run([sys.executable, "manage.py", *command], cwd=root, env=env,
                                  capture_output=True, text=True, timeout=300)
            assert done.returncode == 0, done.stderr[-3000:]
        assert "game_game_names_trgm" in done.stdout, done.stdout
    finally:
        with psycopg.connect(postgres_url, autocommit=True) as db:
            db.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
