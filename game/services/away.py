"""People away during a game: the host has the computer play an away player's turn now,
instead of waiting out ``AWAY_GRACE`` (``selectors.autoplay_due``)."""

from __future__ import annotations

from ..models import Room, Seat
from ..selectors import connected_guests, current_game
from ..selectors.next_move import Plan, autoplay_plan
from .errors import ServiceError, no_room


def play_for_away(room_code: str, guest: str | None) -> Plan:
    """The turn driver's plan to play the current turn now, for its person who is away; asked
    by ``guest``. Refused (nothing changes): ``not_host``, ``no_game`` (no game running),
    ``not_away`` (the player to move is a computer, or a person who is here)."""
    room = Room.objects.filter(code=room_code).first()
    if room is None:
        raise no_room(room_code)
    if not guest or guest != room.host_key:
        raise ServiceError("not_host", "Only the host can have the computer play for someone.")
    game_row = current_game(room)
    if (room.status != Room.Status.PLAYING or game_row is None
            or game_row.snapshot.get("finished", True)):
        raise ServiceError("no_game", "No game is running.")
    seat = Seat.objects.filter(room=room, index=game_row.snapshot.get("current_player")).first()
    if seat is None or seat.is_bot or (seat.guest_key and seat.guest_key in connected_guests(room)):
        raise ServiceError("not_away", "The player to move is here: their turn is theirs to "
                                       "play.")
    return autoplay_plan(game_row, seat)
