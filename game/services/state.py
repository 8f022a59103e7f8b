"""The full ``state`` message of a room, as one connection sees it."""

from __future__ import annotations

from typing import Any

from ..models import Room, Seat
from .games import current_game, game_state
from .presence import connected_guests, presence


def room_state(room: Room, guest: str | None) -> dict[str, Any]:
    room.refresh_from_db()
    seats = list(Seat.objects.filter(room=room).order_by("index"))
    here = connected_guests(room)
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
                 "connected": s.is_bot or (bool(s.guest_key) and s.guest_key in here),
                 "host": bool(s.guest_key) and s.guest_key == room.host_key}
                for s in seats
            ],
            "watchers": presence(room)["watchers"],
        },
        "you": {"seat": mine.index if mine else None, "host": is_host},
        "game": game_state(game_row) if game_row else None,
    }
