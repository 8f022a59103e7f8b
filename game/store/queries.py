"""The queries written in SQL: a command's first look at its game; for the live standings
after every turn, where a game stands and its events since a seq (what a kept rules game
missed); and, for each socket that comes or goes, who is connected and the recent events.

Raw SQL because these are hot paths, and the ORM's compilation was most of their cost: half
of a loaded server's CPU for the first query, half of a standings update's reading, most of a
socket's arrival (docs/benchmarks.md). ``tests/selectors/test_queries.py``
checks them against the ORM on SQLite and PostgreSQL.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from functools import cache
from typing import Any

from django.db import connection

from ..models import Connection, Game, GameEvent, Player, Room, Seat


@dataclass(frozen=True)
class LockedGame:
    """A room's latest game, its row locked, with what a command checks first."""

    game: Game
    #: The seat of the guest who sent the command in this room, or None (a watcher).
    guest_seat: int | None
    #: Whether this seat already sent this command id in this game.
    repeated: bool
    #: The guest's seat belongs to a player the staff disabled.
    disabled: bool = False


#: The game row's columns a command reads, in the model's order (``Model.from_db`` takes them
#: so); the others (dates, totals) stay deferred: the ORM loads one if something asks for it,
#: with a query of its own (tests/selectors/test_queries.py counts a command's queries).
_COLUMNS = ("id", "room_id", "rules", "status", "players", "seq", "snapshot", "server_seed",
            "commitment", "client_seeds", "daily_id", "move_days")
_JSON = {"players", "snapshot", "client_seeds"}


def locked_game(room_code: str, guest_key: str | None, seat_index: int | None,
                command_id: str) -> LockedGame | None:
    """The latest game of room ``room_code``, locked until the transaction ends (call inside
    one), in one query. The command is by ``seat_index``, or else by the seat of
    ``guest_key``; ``repeated`` is False for an empty ``command_id``."""
    params = [command_id, seat_index, command_id, guest_key or "", room_code]
    # A plain cursor, not Game.objects.raw(): its per-row machinery was a tenth of a loaded
    # server's CPU. JSON columns come back as text on both databases (Django's own loaders).
    with connection.cursor() as cursor:
        cursor.execute(_locked_game_sql(connection.vendor), params)
        row = cursor.fetchone()
    if row is None:
        return None
    values = [json.loads(v) if name in _JSON and isinstance(v, str) else v
              for name, v in zip(_COLUMNS, row, strict=False)]
    return LockedGame(game=Game.from_db(connection.alias, list(_COLUMNS), values),
                      guest_seat=row[-3], disabled=bool(row[-2]),  # 0/1 on SQLite
                      repeated=bool(row[-1]))


@cache
def _locked_game_sql(vendor: str) -> str:
    """The query's text, built once per database (quoting and locking differ)."""
    game, room, seat, event, player = (m._meta.db_table
                                       for m in (Game, Room, Seat, GameEvent, Player))
    lock = " FOR UPDATE OF g" if connection.features.has_select_for_update_of else ""
    columns = ", ".join(f"g.{connection.ops.quote_name(c)}" for c in _COLUMNS)
    # The duplicate check repeats the partial unique index's condition (command_id <> ''):
    # without it SQLite cannot use that index and reads every event of the game, a cost that
    # grows with each move (37 us against 10 us at 62 events, docs/benchmarks.md).
    return f"""
        SELECT {columns}, s.idx AS guest_seat, s.disabled,
               (%s <> '' AND EXISTS (SELECT 1 FROM {event} e WHERE e.game_id = g.id
                    AND e.seat = COALESCE(%s, s.idx) AND e.command_id = %s
                    AND NOT (e.command_id = ''))) AS repeated
        FROM {game} g
        JOIN {room} r ON r.id = g.room_id
        LEFT JOIN (SELECT st.room_id, st."index" AS idx, p.disabled FROM {seat} st
                   LEFT JOIN {player} p ON p.id = st.player_id
                   WHERE st.guest_key = %s AND st.guest_key <> '') s ON s.room_id = g.room_id
        WHERE r.code = %s
        ORDER BY g.id DESC LIMIT 1{lock}"""


def game_progress(game_id: int) -> tuple[int, str] | None:
    """A game's ``seq`` and ``status`` now, or None if there is no such game."""
    with connection.cursor() as cursor:
        cursor.execute(_game_progress_sql(connection.vendor), [game_id])
        row = cursor.fetchone()
    return None if row is None else (row[0], row[1])


@cache
def _game_progress_sql(vendor: str) -> str:
    return f"SELECT seq, status FROM {Game._meta.db_table} WHERE id = %s"


def event_rows(game_id: int, after: int, upto: int) -> list[dict[str, Any]]:
    """The stored events of a game with ``after`` < seq <= ``upto``, in order, each as
    ``game.rules.event_from_dict`` reads it."""
    with connection.cursor() as cursor:
        cursor.execute(_event_rows_sql(connection.vendor), [game_id, after, upto])
        rows = cursor.fetchall()
    return [{"kind": kind, **(json.loads(payload) if isinstance(payload, str) else payload)}
            for kind, payload in rows]


@cache
def _event_rows_sql(vendor: str) -> str:
    return (f"SELECT kind, payload FROM {GameEvent._meta.db_table} "
            "WHERE game_id = %s AND seq > %s AND seq <= %s ORDER BY seq")


# --- who is connected, and what a joining socket is shown ---------------------------------
# Through the ORM, compiling these was most of what a socket's arrival cost: a room's presence
# took 0.55 ms, and it is read when any socket comes or goes and for every room at each
# heartbeat (docs/benchmarks.md).

def seat_rows(room_ids: list[int]) -> dict[int, list[tuple[int, str, str]]]:
    """Per room: each seat's (index, kind, guest key), in seat order."""
    found: dict[int, list[tuple[int, str, str]]] = {pk: [] for pk in room_ids}
    if room_ids:
        marks = ", ".join(["%s"] * len(room_ids))
        with connection.cursor() as cursor:
            cursor.execute(f'SELECT room_id, "index", kind, guest_key FROM {Seat._meta.db_table} '
                           f'WHERE room_id IN ({marks}) ORDER BY room_id, "index"', room_ids)
            for room_id, index, kind, guest in cursor.fetchall():
                found[room_id].append((index, kind, guest))
    return found


def live_guests(room_ids: list[int], since: datetime) -> dict[int, list[str]]:
    """Per room: the guest key of each socket seen since ``since`` ("" for an anonymous
    watcher; a guest with two tabs open counts twice)."""
    found: dict[int, list[str]] = {pk: [] for pk in room_ids}
    if room_ids:
        marks = ", ".join(["%s"] * len(room_ids))
        with connection.cursor() as cursor:
            cursor.execute(f"SELECT room_id, guest_key FROM {Connection._meta.db_table} "
                           f"WHERE room_id IN ({marks}) AND last_seen >= %s",
                           [*room_ids, connection.ops.adapt_datetimefield_value(since)])
            for room_id, guest in cursor.fetchall():
                found[room_id].append(guest)
    return found


def live_sockets_of(guest: str, address: str, since: datetime) -> tuple[int, int]:
    """How many sockets seen since ``since`` belong to session ``guest``, and how many come
    from ``address`` (0 for an empty key): one statement, each count on its own index."""
    table = Connection._meta.db_table
    stamp = connection.ops.adapt_datetimefield_value(since)
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT (SELECT COUNT(*) FROM {table} WHERE guest_key = %s AND last_seen >= %s), "
            f"(SELECT COUNT(*) FROM {table} WHERE address = %s AND last_seen >= %s)",
            [guest, stamp, address, stamp])
        by_guest, by_address = cursor.fetchone()
    return (by_guest if guest else 0), (by_address if address else 0)


def recent_event_rows(game_id: int, upto: int, limit: int) -> list[tuple[int, dict[str, Any], str]]:
    """The last ``limit`` stored events of a game with seq <= ``upto``, in seq order, each as
    (seq, the event as ``game.rules.event_from_dict`` reads it, who made it)."""
    with connection.cursor() as cursor:
        cursor.execute(_recent_sql(connection.vendor), [game_id, upto, limit])
        rows = cursor.fetchall()
    return [(seq, {"kind": kind, **(json.loads(payload) if isinstance(payload, str)
                                    else payload)}, by)
            for seq, kind, payload, by in reversed(rows)]


@cache
def _recent_sql(vendor: str) -> str:
    return (f"SELECT seq, kind, payload, {connection.ops.quote_name('by')} "
            f"FROM {GameEvent._meta.db_table} WHERE game_id = %s AND seq <= %s "
            "ORDER BY seq DESC LIMIT %s")
