"""People away: the host has the computer play an away player's turn now, instead of waiting
out ``AWAY_GRACE`` (``selectors.grace_ends``); a host away past it hands the role on."""

from __future__ import annotations

from collections.abc import Iterable

from django.utils import timezone

from ..models import Room, Seat
from ..selectors import STALE_AFTER, connected_guests, current_game, grace_left
from ..selectors.next_move import Plan, autoplay_plan
from ..store.queries import live_guests
from .errors import ServiceError, gettext_noop, no_room


def play_for_away(room_code: str, guest: str | None) -> Plan:
    """The turn driver's plan to play the current turn now, for its person who is away; asked
    by ``guest``. Refused (nothing changes): ``not_host``, ``no_game`` (no game running),
    ``not_away`` (the player to move is a computer, or a person who is here)."""
    room = Room.objects.filter(code=room_code).first()
    if room is None:
        raise no_room(room_code)
    if not guest or guest != room.host_key:
        raise ServiceError("not_host", gettext_noop(
            "Only the host can have the computer play for someone."))
    game_row = current_game(room)
    if (room.status != Room.Status.PLAYING or game_row is None
            or game_row.snapshot.get("finished", True)):
        raise ServiceError("no_game", gettext_noop("No game is running."))
    seat = Seat.objects.filter(room=room, index=game_row.snapshot.get("current_player")).first()
    if seat is None or seat.is_bot or (seat.guest_key and seat.guest_key in connected_guests(room)):
        raise ServiceError("not_away", gettext_noop(
            "The player to move is here: their turn is theirs to play."))
    return autoplay_plan(game_row, seat)


def pass_host_roles(rooms: Iterable[Room]) -> list[str]:
    """In each of ``rooms`` whose host is a seated person away past the grace, the host role
    passes to the first seated person who is here (none here: it stays). Returns the codes of
    the rooms whose host changed, for the caller to send them a fresh ``state``. Two queries,
    and one more per room whose host is away. A host without a seat keeps the role: nothing
    says since when they are away."""
    ids = [room.pk for room in rooms]
    here = live_guests(ids, timezone.now() - STALE_AFTER)
    changed: list[str] = []
    for room in Room.objects.filter(pk__in=ids).exclude(host_key=""):
        present = set(here[room.pk]) - {""}
        if room.host_key in present:
            continue
        seats = list(Seat.objects.filter(room=room).order_by("index"))
        host = next((s for s in seats if s.guest_key == room.host_key), None)
        if host is None or grace_left(host.last_seen, room.created) > 0:
            continue
        heir = next((s for s in seats if not s.is_bot and s.guest_key in present), None)
        # Conditional on the host it read: two processes beating at once pass it once.
        if heir is not None and Room.objects.filter(pk=room.pk, host_key=room.host_key).update(
                host_key=heir.guest_key):
            changed.append(room.code)
    return changed
