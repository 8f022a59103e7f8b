"""What may be deleted: rooms nobody used, expired sessions, presence rows of dead sockets.

Never a game: a room that ever had a game keeps it and its event log (the room is kept with it,
since its games hang off it); finished games are the site's history.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from django.contrib.sessions.models import Session
from django.db import transaction
from django.utils import timezone

from ..models import Connection, Room

#: A waiting room nobody touched for this long is abandoned.
IDLE_ROOM_AFTER = timedelta(days=1)
#: Presence rows are refreshed every 20 s; one this old belongs to a server long gone.
DEAD_CONNECTION_AFTER = timedelta(hours=1)


@dataclass(frozen=True)
class Removed:
    rooms: int
    sessions: int
    connections: int


def clean_up() -> Removed:
    """Delete what nobody will use again; returns how many of each went."""
    at = timezone.now()
    with transaction.atomic():
        idle = Room.objects.filter(status=Room.Status.WAITING, games__isnull=True,
                                   updated__lt=at - IDLE_ROOM_AFTER)
        rooms = idle.count()
        # The rooms' seats and presence rows go with them (CASCADE); they have no games.
        Room.objects.filter(pk__in=list(idle.values_list("pk", flat=True))).delete()
        sessions, _ = Session.objects.filter(expire_date__lt=at).delete()
        connections, _ = Connection.objects.filter(
            last_seen__lt=at - DEAD_CONNECTION_AFTER).delete()
    return Removed(rooms=rooms, sessions=sessions, connections=connections)
