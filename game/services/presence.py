"""Who is connected to a room, kept in the database so every server process agrees.

Each open socket is a ``Connection`` row refreshed by a heartbeat; a row not refreshed within
``STALE_AFTER`` counts as gone (Daphne skips ``disconnect()`` when it is killed or restarted).
"""

from __future__ import annotations

import operator
from collections.abc import Iterable, Mapping
from datetime import timedelta
from functools import reduce
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from ..models import Connection, Room, Seat

HEARTBEAT_SECONDS = 20.0
STALE_AFTER = timedelta(seconds=60)
FORGET_AFTER = timedelta(hours=1)


def _fresh(room: Room):
    return Connection.objects.filter(room=room, last_seen__gte=timezone.now() - STALE_AFTER)


def connected_guests(room: Room) -> set[str]:
    return set(_fresh(room).exclude(guest_key="").values_list("guest_key", flat=True))


def others_here(room: Room, guest: str) -> bool:
    """Whether anyone but ``guest`` (a player or a watcher) has a live socket to the room."""
    return _fresh(room).exclude(guest_key=guest).exists() if guest else _fresh(room).exists()


def presence(room: Room) -> dict[str, Any]:
    """The ``presence`` message: each seat connected or not, and how many watch."""
    return presences([room])[room.code][0]


def presences(rooms: Iterable[Room]) -> dict[str, tuple[dict[str, Any], bool]]:
    """Per room code: the ``presence`` message, and whether the bot driver may have work
    there (a bot seat, or a seated person away). Two queries, however many rooms."""
    by_id = {room.pk: room for room in rooms}
    seats: dict[int, list[Seat]] = {pk: [] for pk in by_id}
    for seat in Seat.objects.filter(room_id__in=list(by_id)).order_by("index"):
        seats[seat.room_id].append(seat)
    here: dict[int, list[str]] = {pk: [] for pk in by_id}
    for room_id, guest in (Connection.objects.filter(
            room_id__in=list(by_id), last_seen__gte=timezone.now() - STALE_AFTER)
            .values_list("room_id", "guest_key")):
        here[room_id].append(guest)
    found = {}
    for pk, room in by_id.items():
        present = set(here[pk]) - {""}
        seated = {s.guest_key for s in seats[pk] if s.guest_key}
        connected = [s.is_bot or s.guest_key in present for s in seats[pk]]
        message = {
            "type": "presence",
            "seats": [{"seat": s.index, "connected": c}
                      for s, c in zip(seats[pk], connected, strict=True)],
            "watchers": sum(1 for guest in here[pk] if guest not in seated),
        }
        driver = any(s.is_bot or (s.guest_key and not c)
                     for s, c in zip(seats[pk], connected, strict=True))
        found[room.code] = (message, driver)
    return found


def _touch_seat(room: Room, guest: str) -> None:
    if guest:
        Seat.objects.filter(room=room, guest_key=guest).update(last_seen=timezone.now())


def join(room: Room, channel_name: str, guest: str) -> dict[str, Any]:
    now = timezone.now()
    with transaction.atomic():
        Connection.objects.filter(room=room, last_seen__lt=now - FORGET_AFTER).delete()
        Connection.objects.update_or_create(
            channel_name=channel_name,
            defaults={"room": room, "guest_key": guest, "last_seen": now})
        _touch_seat(room, guest)
    return presence(room)


#: Sockets per statement of a refresh: SQLite nests a chain of ORs one level deep per term
#: and refuses more than 1000 levels.
REFRESH_CHUNK = 500


def refresh(sockets: Mapping[str, tuple[Room, str]]) -> set[str]:
    """Mark every socket of one server process seen now, in one transaction: ``sockets`` maps
    each channel name to its room and guest key. Returns the channel names that have no row
    (swept, or closed meanwhile): the caller decides which to register again."""
    now = timezone.now()
    names = list(sockets)
    pairs = list({(room.pk, guest) for room, guest in sockets.values() if guest})
    known: set[str] = set()
    with transaction.atomic():
        for i in range(0, len(names), REFRESH_CHUNK):
            chunk = names[i:i + REFRESH_CHUNK]
            known.update(Connection.objects.filter(channel_name__in=chunk)
                         .values_list("channel_name", flat=True))
            Connection.objects.filter(channel_name__in=chunk).update(last_seen=now)
        for i in range(0, len(pairs), REFRESH_CHUNK):
            Seat.objects.filter(reduce(operator.or_, (
                Q(room_id=pk, guest_key=guest) for pk, guest in pairs[i:i + REFRESH_CHUNK])
            )).update(last_seen=now)
    return set(names) - known


def leave(room: Room, channel_name: str, guest: str) -> dict[str, Any]:
    with transaction.atomic():
        Connection.objects.filter(channel_name=channel_name).delete()
        _touch_seat(room, guest)
    return presence(room)
