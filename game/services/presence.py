"""Who is connected to a room, kept in the database so every server process agrees.

Each open socket is a ``Connection`` row refreshed by a heartbeat; a row not refreshed within
``STALE_AFTER`` counts as gone (Daphne skips ``disconnect()`` when it is killed or restarted).
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import timedelta
from typing import Any

from django.db import transaction
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
    seats = list(Seat.objects.filter(room=room).order_by("index"))
    here = connected_guests(room)
    seated = {s.guest_key for s in seats if s.guest_key}
    watchers = (_fresh(room).exclude(guest_key__in=seated).count())
    return {
        "type": "presence",
        "seats": [{"seat": s.index, "connected": s.is_bot or s.guest_key in here}
                  for s in seats],
        "watchers": watchers,
    }


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


def refresh(sockets: Mapping[str, tuple[Room, str]]) -> set[str]:
    """Mark every socket of one server process seen now, in one transaction: ``sockets`` maps
    each channel name to its room and guest key. Returns the channel names that have no row
    (swept, or closed meanwhile): the caller decides which to register again."""
    now = timezone.now()
    with transaction.atomic():
        known = set(Connection.objects.filter(channel_name__in=list(sockets))
                    .values_list("channel_name", flat=True))
        Connection.objects.filter(channel_name__in=list(known)).update(last_seen=now)
        guests_by_room: dict[int, set[str]] = {}
        for room, guest in sockets.values():
            if guest:
                guests_by_room.setdefault(room.pk, set()).add(guest)
        for room_id, guests in guests_by_room.items():
            Seat.objects.filter(room_id=room_id, guest_key__in=guests).update(last_seen=now)
    return set(sockets) - known


def leave(room: Room, channel_name: str, guest: str) -> dict[str, Any]:
    with transaction.atomic():
        Connection.objects.filter(channel_name=channel_name).delete()
        _touch_seat(room, guest)
    return presence(room)
