"""The queries written in SQL: a command's first look at its game, and, for the live standings
after every turn, where a game stands and its events since a seq (what a kept rules game
missed).

Raw SQL because these are hot paths: the first query through the ORM's subquery expressions
took half of a loaded server's CPU to compile, and the ORM's compilation of the second was half
of a standings update's reading (docs/benchmarks.md). ``tests/multiplayer/test_queries.py``
checks them against the ORM on SQLite and PostgreSQL.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from typing import Any

from django.db import connection

from ..models import Game, GameEvent, Room, Seat


@dataclass(frozen=True)
class LockedGame:
    """A room's latest game, its row locked, with what a command checks first."""

    game: Game
    #: The seat of the guest who sent the command in this room, or None (a watcher).
    guest_seat: int | None
    #: Whether this seat already sent this command id in this game.
    repeated: bool


#: The game row's columns a command reads; the others (dates, totals) stay deferred: the ORM
#: loads one if something asks for it.
_COLUMNS = ("id", "room_id", "rules", "status", "players", "seq", "snapshot", "server_seed",
            "commitment", "client_seeds")
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
                      guest_seat=row[-2], repeated=bool(row[-1]))  # 0/1 on SQLite


@cache
def _locked_game_sql(vendor: str) -> str:
    """The query's text, built once per database (quoting and locking differ)."""
    game, room, seat, event = (m._meta.db_table for m in (Game, Room, Seat, GameEvent))
    lock = " FOR UPDATE OF g" if connection.features.has_select_for_update_of else ""
    columns = ", ".join(f"g.{connection.ops.quote_name(c)}" for c in _COLUMNS)
    # The duplicate check repeats the partial unique index's condition (command_id <> ''):
    # without it SQLite cannot use that index and reads every event of the game, a cost that
    # grows with each move (37 us against 10 us at 62 events, docs/benchmarks.md).
    return f"""
        SELECT {columns}, s.idx AS guest_seat,
               (%s <> '' AND EXISTS (SELECT 1 FROM {event} e WHERE e.game_id = g.id
                    AND e.seat = COALESCE(%s, s.idx) AND e.command_id = %s
                    AND NOT (e.command_id = ''))) AS repeated
        FROM {game} g
        JOIN {room} r ON r.id = g.room_id
        LEFT JOIN (SELECT room_id, "index" AS idx FROM {seat}
                   WHERE guest_key = %s AND guest_key <> '') s ON s.room_id = g.room_id
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
