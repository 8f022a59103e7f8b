"""The full ``state`` message of a room, as one connection sees it."""

from __future__ import annotations

from typing import Any

from ..models import Game, GameEvent, Room, Seat
from .games import current_game, game_state
from .presence import presence

#: How many of the current game's last events a ``state`` carries (the page's event log).
RECENT_EVENTS = 50


def recent_events(game_row: Game, limit: int = RECENT_EVENTS) -> list[dict[str, Any]]:
    """The last ``limit`` stored events of a game up to ``game_row.seq``, in ``seq`` order, each
    shaped like an ``event`` message without its ``type`` and ``game``. One query on the
    (game, seq) index; capped at the row's seq so it agrees with the rest of the ``state``
    even when a command stores events while this is read."""
    rows = list(GameEvent.objects.filter(game=game_row, seq__lte=game_row.seq).order_by("-seq")
                .values_list("seq", "kind", "payload", "by")[:limit])
    return [{"seq": seq, "event": {"kind": kind, **payload}, "by": by}
            for seq, kind, payload, by in reversed(rows)]


def room_state(room: Room, guest: str | None) -> dict[str, Any]:
    room.refresh_from_db()
    seats = list(Seat.objects.filter(room=room).order_by("index"))
    now_here = presence(room)
    connected = {p["seat"]: p["connected"] for p in now_here["seats"]}
    game_row = current_game(room)
    mine = next((s for s in seats if guest and s.guest_key == guest), None)
    is_host = bool(guest) and guest == room.host_key
    return {
        "type": "state",
        "seq": game_row.seq if game_row else 0,
        "room": {
            "code": room.code,
            "name": room.name,
            "rules": room.rules,
            "status": room.status,
            "seats": [
                {"seat": s.index, "name": s.display_name, "kind": s.kind,
                 "level": s.bot_level or None,
                 "connected": connected.get(s.index, False),
                 "host": bool(s.guest_key) and s.guest_key == room.host_key}
                for s in seats
            ],
            "watchers": now_here["watchers"],
        },
        "you": {"seat": mine.index if mine else None, "host": is_host},
        "game": game_state(game_row) if game_row else None,
        "recent": recent_events(game_row) if game_row else [],
    }
