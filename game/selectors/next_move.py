"""Whose move it is in a room and whether this server should make it: the turn driver's
decision (``game.realtime.turn_driver`` runs it, and plays what it says).

A computer player moves while someone is in the room; a person's turn is played by autoplay
once they have been away for ``AWAY_GRACE`` (while someone else is here to wait for them), or
once the room's turn time ran out; never in a daily challenge (its player's game alone), and
never here in a game over days (its moves out of time are the scan's: services.correspondence).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings
from django.utils import timezone

from ..models import Game, GameEvent, Room, Seat
from . import (
    connected_guests,
    current_game,
    grace_left,
    others_here,
    someone_here,
    turn_deadline,
)
from .games import seconds_until


@dataclass(frozen=True)
class Plan:
    """What to do next in a room: play ``seat`` at ``level`` from ``seq``, or wait."""

    seq: int = 0
    seat: int = 0
    level: str = ""
    by: str = GameEvent.By.BOT  # type: ignore[assignment]  # a TextChoices member is a str; untyped Django shows a tuple
    wait: float | None = None


def next_plan(room_code: str) -> Plan | None:
    """Whose move it is and whether this server should make it (sync: ORM)."""
    room = Room.objects.filter(code=room_code).first()
    if room is None or room.status != Room.Status.PLAYING or room.daily_id:
        return None  # a daily challenge is played by its player alone, never by the computer
    game_row = current_game(room)
    if game_row is None or game_row.snapshot.get("finished"):
        return None
    player = game_row.snapshot.get("current_player")
    seat = Seat.objects.filter(room=room, index=player).first()
    if seat is None:
        return None
    if seat.is_bot:
        if not someone_here(room):
            return None  # nobody is here: the game pauses, and goes on when someone comes
        return Plan(seq=game_row.seq, seat=seat.index, level=seat.bot_level or "easy")
    if room.pace == Room.Pace.DAYS:
        return None  # a person has days for their move: nobody plays it for them here
    deadline = turn_deadline(room, game_row)
    # Seconds until the computer plays for them: the turn time's, or the away grace's (on the
    # site's clock) if that ends first.
    due_in = None if deadline is None else seconds_until(deadline, timezone.now())
    if not (seat.guest_key and seat.guest_key in connected_guests(room)):
        if not others_here(room, seat.guest_key):
            return None  # nobody is waiting for them: the game waits too
        away_in = grace_left(seat.last_seen, game_row.created)
        due_in = away_in if due_in is None else min(away_in, due_in)
    if due_in is None:
        return None  # their move, no turn time: nothing to do until they make it
    if due_in > 0:
        return Plan(wait=due_in)
    return autoplay_plan(game_row, seat)


def autoplay_plan(game_row: Game, seat: Seat) -> Plan:
    """The computer plays the turn of ``seat``'s person now (away, or out of time)."""
    return Plan(seq=game_row.seq, seat=seat.index, level=settings.AUTOPLAY_LEVEL,
                by=GameEvent.By.AUTOPLAY)  # type: ignore[arg-type]  # as above: a str
