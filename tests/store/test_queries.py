"""The raw SQL of every command's first look (``queries.locked_game``) says what the
ORM says, on SQLite and on PostgreSQL: the room's latest game, the guest's seat, and whether
the seat already sent the command id in that game; and so do where a game stands and its
events since a seq (``queries.game_progress``, ``event_rows``), and what a socket's arrival
reads (seats, live sockets, the recent events)."""

from __future__ import annotations

import itertools
import os
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from game.models import Connection, Game, GameEvent, Room, Seat
from game.store.queries import (
    LockedGame,
    event_rows,
    game_progress,
    live_guests,
    live_sockets_of,
    locked_game,
    recent_event_rows,
    seat_rows,
)

ROOT = Path(__file__).resolve().parents[2]

ROOMS = ["first", "second", "empty", "nowhere"]
GUESTS = [None, "", "ann", "bob", "cy"]
SEATS = [None, 0, 1, 2, 7]
COMMANDS = ["", "c1", "c2", "c3"]


def orm_locked_game(room_code: str, guest_key: str | None, seat_index: int | None,
                    command_id: str) -> LockedGame | None:
    """What :func:`locked_game` answers, through the ORM (without the lock)."""
    game = Game.objects.filter(room__code=room_code).order_by("-id").first()
    if game is None:
        return None
    seat = (Seat.objects.filter(room_id=game.room_id, guest_key=guest_key).first()
            if guest_key else None)
    guest_seat = seat.index if seat else None
    by = seat_index if seat_index is not None else guest_seat
    repeated = bool(command_id) and by is not None and GameEvent.objects.filter(
        game=game, seat=by, command_id=command_id).exists()
    return LockedGame(game=game, guest_seat=guest_seat, repeated=repeated)


def make_rooms() -> None:
    """Two games in room ``first`` (the later one counts), Ann seated in two rooms, a bot, a
    free seat, command ids in both games and events the server made (no seat)."""
    first = Room.objects.create(code="first", name="First", host_key="ann")
    for index, guest in enumerate(["ann", "bob", ""]):
        Seat.objects.create(room=first, index=index, guest_key=guest,
                            kind=Seat.Kind.HUMAN if guest else Seat.Kind.BOT)
    old = Game.objects.create(room=first, rules="yahtzee", players=["Ann", "Bob", "Bot"])
    current = Game.objects.create(room=first, rules="yahtzee", players=["Ann", "Bob", "Bot"],
                                  seq=5, snapshot={"current_player": 1})
    for game, events in ((old, [(None, ""), (0, "c3"), (1, "c1")]),
                         (current, [(None, ""), (0, "c1"), (1, "c2"), (2, "c3"), (0, "")])):
        for seq, (seat, cid) in enumerate(events, start=1):
            GameEvent.objects.create(game=game, seq=seq, kind="rolled", seat=seat,
                                     command_id=cid)
    second = Room.objects.create(code="second", name="Second", host_key="cy")
    Seat.objects.create(room=second, index=0, guest_key="cy")
    Seat.objects.create(room=second, index=1, guest_key="ann")
    game = Game.objects.create(room=second, rules="yatzy", players=["Cy", "Ann"], seq=1)
    GameEvent.objects.create(game=game, seq=1, kind="rolled", seat=1, command_id="c2")
    Room.objects.create(code="empty", name="No game yet")


def as_tuple(found: LockedGame | None) -> tuple | None:
    if found is None:
        return None
    return found.game.pk, found.game.seq, found.game.players, found.guest_seat, found.repeated


@pytest.mark.django_db
def test_locked_game_agrees_with_the_orm():
    expected_vendor = os.environ.get("EXPECT_DB_VENDOR")
    assert expected_vendor in (None, connection.vendor)  # the database the caller asked for
    make_rooms()
    answers = []
    for room, guest, seat, cid in itertools.product(ROOMS, GUESTS, SEATS, COMMANDS):
        with transaction.atomic():
            raw = locked_game(room, guest, seat, cid)
        assert as_tuple(raw) == as_tuple(orm_locked_game(room, guest, seat, cid)), (
            room, guest, seat, cid)
        assert raw is None or not hasattr(raw.game, "guest_seat")  # a plain Game
        answers.append(as_tuple(raw))
    # The cases above cover every outcome, not only "no game" and "not repeated".
    assert {a is None for a in answers} == {True, False}
    assert {a[3] for a in answers if a} == {None, 0, 1}
    assert {a[4] for a in answers if a} == {True, False}


@pytest.mark.django_db
def test_event_rows_agree_with_the_orm():
    expected_vendor = os.environ.get("EXPECT_DB_VENDOR")
    assert expected_vendor in (None, connection.vendor)
    make_rooms()
    game = Game.objects.get(room__code="first", seq=5)
    payloads = [{"player": 1, "dice": [6, 6, 1, 2, 6], "held": [0, 1], "roll": 2},
                {"player": 0, "box": "full_house", "column": 0, "points": 25, "joker": False},
                {"totals": [312, 98], "winners": [0], "server_seed": "ab" * 32}]
    for offset, payload in enumerate(payloads, start=6):  # after the game's five events
        GameEvent.objects.create(game=game, seq=offset, kind=f"kind{offset}", payload=payload)
    other = Game.objects.get(room__code="second")
    for after, upto in itertools.product(range(-1, 10), range(0, 10)):
        expected = [{"kind": kind, **payload} for kind, payload in GameEvent.objects.filter(
            game=game, seq__gt=after, seq__lte=upto).order_by("seq").values_list(
                "kind", "payload")]
        assert event_rows(game.pk, after, upto) == expected, (after, upto)
    assert [r["dice"] for r in event_rows(game.pk, 5, 6)] == [[6, 6, 1, 2, 6]]
    assert event_rows(game.pk, 7, 8)[0]["winners"] == [0]
    assert len(event_rows(other.pk, 0, 9)) == 1  # another game's events never mix in
    for each in Game.objects.all():
        assert game_progress(each.pk) == (each.seq, each.status)
    assert game_progress(max(Game.objects.values_list("pk", flat=True)) + 1) is None


@pytest.mark.django_db
def test_what_a_socket_reads_agrees_with_the_orm():
    expected_vendor = os.environ.get("EXPECT_DB_VENDOR")
    assert expected_vendor in (None, connection.vendor)
    make_rooms()
    rooms = list(Room.objects.order_by("pk"))
    now = timezone.now()
    sockets = [("first", "ann", "10.0.0.1", 0), ("first", "ann", "10.0.0.2", 5),
               ("first", "", "10.0.0.1", 1), ("first", "bob", "10.0.0.1", 120),
               ("second", "cy", "10.0.0.3", 2), ("second", "", "10.0.0.1", 3)]
    for i, (code, guest, address, age) in enumerate(sockets):
        Connection.objects.create(room=Room.objects.get(code=code), channel_name=f"c{i}",
                                  guest_key=guest, address=address,
                                  last_seen=now - timedelta(seconds=age))
    ids = [r.pk for r in rooms] + [max(r.pk for r in rooms) + 1]  # and a room that is not
    assert seat_rows(ids) == {pk: [(s.index, s.kind, s.guest_key) for s in
                                   Seat.objects.filter(room_id=pk).order_by("index")]
                              for pk in ids}
    assert seat_rows([]) == {}
    for since in (now - timedelta(seconds=age) for age in (0, 2, 10, 600)):
        found = live_guests(ids, since)
        for pk in ids:
            assert sorted(found[pk]) == sorted(Connection.objects.filter(
                room_id=pk, last_seen__gte=since).values_list("guest_key", flat=True)), pk
        for guest, address in itertools.product(["", "ann", "bob", "zed"],
                                                ["", "10.0.0.1", "10.0.0.9"]):
            live = Connection.objects.filter(last_seen__gte=since)
            assert live_sockets_of(guest, address, since) == (
                live.filter(guest_key=guest).count() if guest else 0,
                live.filter(address=address).count() if address else 0), (guest, address)
    assert sorted(live_guests(ids, now - timedelta(seconds=10))[rooms[0].pk]) == ["", "ann", "ann"]
    game = Game.objects.get(room__code="first", seq=5)
    GameEvent.objects.filter(game=game, seq=2).update(payload={"dice": [1, 2, 3, 4, 5]})
    for upto, limit in itertools.product(range(0, 7), range(1, 7)):
        expected = [(seq, {"kind": kind, **payload}, by) for seq, kind, payload, by in reversed(
            GameEvent.objects.filter(game=game, seq__lte=upto).order_by("-seq")
            .values_list("seq", "kind", "payload", "by")[:limit])]
        assert recent_event_rows(game.pk, upto, limit) == expected, (upto, limit)
    assert recent_event_rows(game.pk, 5, 2)[0][1] == {"kind": "rolled"}
    assert recent_event_rows(game.pk, 2, 1) == [(2, {"kind": "rolled", "dice": [1, 2, 3, 4, 5]},
                                                 "system")]


def test_the_raw_queries_agree_with_the_orm_on_postgresql(postgres_url, tmp_path):
    """The same tests in a pytest of their own, on a fresh PostgreSQL test database."""
    database = postgres_url.rsplit("/", 1)[0] + f"/yahtzee_queries_{os.getpid()}"
    env = {**os.environ, "DATABASE_URL": database, "DATA_DIR": str(tmp_path),
           "EXPECT_DB_VENDOR": "postgresql"}
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
         f"{Path(__file__).relative_to(ROOT)}::test_locked_game_agrees_with_the_orm",
         f"{Path(__file__).relative_to(ROOT)}::test_event_rows_agree_with_the_orm",
         f"{Path(__file__).relative_to(ROOT)}::test_what_a_socket_reads_agrees_with_the_orm"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=240)
    assert done.returncode == 0 and "3 passed" in done.stdout, done.stdout[-4000:]


@pytest.mark.django_db
@pytest.mark.skipif(connection.vendor != "sqlite", reason="reads SQLite's query plan")
def test_the_duplicate_check_reads_the_command_index_not_every_event():
    """A command's id is looked up in the partial unique index on (game, seat, command id);
    a plan that reads the game's events one by one costs more with every move of a game."""
    make_rooms()
    with CaptureQueriesContext(connection) as queries, transaction.atomic():
        assert locked_game("first", "bob", None, "c2").repeated
    sql = next(q["sql"] for q in queries.captured_queries if "repeated" in q["sql"])
    with connection.cursor() as cursor:
        cursor.execute("EXPLAIN QUERY PLAN " + sql)
        plan = " | ".join(str(row[-1]) for row in cursor.fetchall())
    assert "INDEX event_unique_command" in plan, plan


@pytest.mark.django_db
@pytest.mark.skipif(connection.vendor != "sqlite", reason="reads SQLite's query plan")
def test_the_socket_caps_count_on_their_indexes_not_every_live_socket():
    """A socket's arrival counts its session's and its address's live sockets, each on its
    own (key, last_seen) index: a count over every live socket grows with the whole site
    (a restart brings every socket back at once)."""
    make_rooms()
    with CaptureQueriesContext(connection) as queries:
        assert live_sockets_of("ann", "10.0.0.1", timezone.now()) == (0, 0)
    with connection.cursor() as cursor:
        cursor.execute("EXPLAIN QUERY PLAN " + queries.captured_queries[-1]["sql"])
        plan = " | ".join(str(row[-1]) for row in cursor.fetchall())
    assert "INDEX connection_guest_seen" in plan and "INDEX connection_address_seen" in plan, plan


@pytest.mark.django_db(transaction=True)
def test_a_command_reads_its_game_in_one_query_and_writes_in_two():
    """A roll costs its first look (``locked_game``: every column the command reads), the
    events' insert and the game's update, and nothing more: a column left out of the first
    look would cost a query of the ORM's own on every command (the daily's, once: 40 % of a
    command's CPU)."""
    from game import services
    from game.rules import Roll

    room = services.create_room(name="Room", rules="yahtzee", host_key="ann",
                                seats=[services.SeatSpec(), services.SeatSpec("easy")])
    services.take_seat(room.code, "ann", "Ann", 0)
    services.start_game(room.code, "ann")
    for i in range(2):  # the first command folds the rules game; the second finds it kept
        with CaptureQueriesContext(connection) as queries:
            result = services.apply_command(room.code, Roll(()), guest_key="ann",
                                            command_id=f"r{i}")
        assert result.events and result.events[0]["kind"] == "rolled"
        statements = [q["sql"].split()[0].upper() for q in queries.captured_queries]
        assert [s for s in statements if s in ("SELECT", "INSERT", "UPDATE", "DELETE")] == [
            "SELECT", "INSERT", "UPDATE"], queries.captured_queries
