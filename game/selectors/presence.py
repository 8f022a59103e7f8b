"""Who is connected to a room, kept in the database so every server process agrees."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from datetime import timedelta

from django.conf import settings
from django.db.models import (
    QuerySet,
)
from django.utils import timezone

from ..domain.rooms import Presence
from ..models import Connection, Room, Seat
from ..store.queries import live_guests, seat_rows
from .games import autoplay_in, host_passes_in

#: A ``Connection`` row not refreshed for this long counts as gone (Daphne skips
#: ``disconnect()`` when it is killed or restarted).
STALE_AFTER = timedelta(seconds=settings.PRESENCE_STALE_AFTER)
BOT: str = Seat.Kind.BOT  # type: ignore[assignment]  # a TextChoices member is a str; untyped Django shows a tuple


def live_guest_keys(room: Room) -> list[str]:
    """The guest key of each live socket to the room ("" for an anonymous watcher)."""
    return live_guests([room.pk], timezone.now() - STALE_AFTER)[room.pk]


def connected_guests(room: Room) -> set[str]:
    return set(live_guest_keys(room)) - {""}


def someone_here(room: Room) -> bool:
    """Whether anyone (a player or a watcher) has a live socket to the room."""
    return bool(live_guest_keys(room))


def with_someone_here(rooms: QuerySet[Room]) -> QuerySet[Room]:
    """Those of ``rooms`` with at least one live socket, in the same query. Read from the live
    sockets (a few, by their ``last_seen`` index) to the rooms, not from the rooms to their
    sockets: games over days keep tens of thousands of rooms playing with nobody in them."""
    return rooms.filter(pk__in=Connection.objects.filter(
        last_seen__gte=timezone.now() - STALE_AFTER).values("room_id"))


def others_here(room: Room, guest: str) -> bool:
    """Whether anyone but ``guest`` (a player or a watcher) has a live socket to the room."""
    return any(other != guest for other in live_guest_keys(room))


def presence(room: Room) -> Presence:
    """Each seat connected or not, and how many watch."""
    return presences([room])[room.code][0]


def presences(rooms: Iterable[Room]) -> dict[str, tuple[Presence, bool]]:
    """Per room code: its presence, and whether the turn driver may have work there (a bot
    seat, or a seated person away). Two queries, however many rooms, and three more when
    someone is away (``autoplay_in``, ``host_passes_in``)."""
    by_id = {room.pk: room for room in rooms}
    ids = list(by_id)
    seats = seat_rows(ids)
    here = live_guests(ids, timezone.now() - STALE_AFTER)
    found = {pk: presence_of(seats[pk], here[pk]) for pk in ids}
    away = {pk: gone for pk, (now_here, _) in found.items()
            if (gone := [i for i, c in now_here.seats if not c])}
    # Over days, nobody is played for when away: no countdown to show.
    times = autoplay_in({pk: gone for pk, gone in away.items()
                         if by_id[pk].pace == Room.Pace.LIVE})
    hosts = host_passes_in(away)
    return {by_id[pk].code: (replace(
                now_here, autoplay_in=tuple(sorted(times.get(pk, {}).items())),
                host_passes_in=(hosts[pk],) if pk in hosts else ()), driver)
            for pk, (now_here, driver) in found.items()}


def presence_of(seats: list[tuple[int, str, str]], here: list[str]) -> tuple[Presence, bool]:
    """The presence of a room whose seats are ``seats`` ((index, kind, guest key) in order)
    and whose live sockets are those of the guest keys ``here`` ("" for anonymous watchers),
    and whether the turn driver may have work there."""
    present = set(here) - {""}
    seated = {guest for _, _, guest in seats if guest}
    bots = [kind == BOT for _, kind, _ in seats]
    connected = [bot or guest in present for bot, (_, _, guest) in zip(bots, seats, strict=True)]
    found = Presence(
        seats=tuple((index, c) for (index, _, _), c in zip(seats, connected, strict=True)),
        watchers=sum(1 for guest in here if guest not in seated))
    driver = any(bot or (guest and not c)
                 for bot, (_, _, guest), c in zip(bots, seats, connected, strict=True))
    return found, driver
