"""What may be deleted: rooms and games nobody played, players nobody will be again, expired
sessions, presence rows of dead sockets.

- A waiting room without a game nobody touched for a day (an over-days room, whose players
  may take days to come: a month).
- A room whose games no person ever made a move in (a one-click game against the computer, a
  daily attempt, a room started and left), a day after its last event, with its games, their
  events and its daily attempt: the game was never played, and a daily's day is over by then
  (a day-old attempt can take no move), so no attempt that counts goes. Never a room with a
  finished game (staff's early end included), with a person's move in any of its games, with
  a socket still open on it, or over days (a game over days waits days for a move; its move
  deadlines end it).
- A player made by a name without a cookie (``POST /name`` makes one each time): a day old,
  with no seat, result, account, daily attempt or device subscription, not disabled by staff.

Never a game anyone played: finished games and their event logs are the site's history.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.contrib.sessions.models import Session
from django.db import transaction
from django.db.models import Exists, OuterRef, QuerySet
from django.utils import timezone

from ..models import Connection, Game, GameEvent, Player, Room

#: A waiting room nobody touched for this long is abandoned; a game no person moved in, this
#: long after its last event, was never played; a player without anything, this old, is gone.
IDLE_ROOM_AFTER = timedelta(days=1)
#: A waiting room over days: its players come when they can.
IDLE_OVER_DAYS_ROOM_AFTER = timedelta(days=30)
#: Presence rows are refreshed every 20 s; one this old belongs to a server long gone.
DEAD_CONNECTION_AFTER = timedelta(hours=1)


@dataclass(frozen=True)
class Removed:
    rooms: int
    sessions: int
    connections: int
    unplayed: int = 0
    players: int = 0


def _idle_waiting_rooms(at: datetime) -> QuerySet[Room]:
    waiting = Room.objects.filter(status=Room.Status.WAITING, games__isnull=True)
    return (waiting.exclude(pace=Room.Pace.DAYS).filter(updated__lt=at - IDLE_ROOM_AFTER)
            | waiting.filter(pace=Room.Pace.DAYS, updated__lt=at - IDLE_OVER_DAYS_ROOM_AFTER))


def _unplayed_rooms(at: datetime) -> QuerySet[Room]:
    """Rooms with games that no person moved in, none finished, idle for a day."""
    cutoff = at - IDLE_ROOM_AFTER
    games = Game.objects.filter(room=OuterRef("pk"))
    return (Room.objects.exclude(pace=Room.Pace.DAYS).exclude(status=Room.Status.FINISHED)
            .filter(Exists(games), created__lt=cutoff, updated__lt=cutoff)
            .exclude(Exists(games.filter(status=Game.Status.FINISHED)))
            .exclude(Exists(GameEvent.objects.filter(game__room=OuterRef("pk"),
                                                     by=GameEvent.By.HUMAN)))
            .exclude(Exists(GameEvent.objects.filter(game__room=OuterRef("pk"),
                                                     created__gte=cutoff)))
            .exclude(Exists(Connection.objects.filter(
                room=OuterRef("pk"), last_seen__gte=at - DEAD_CONNECTION_AFTER))))


def _forgotten_players(at: datetime) -> QuerySet[Player]:
    return Player.objects.filter(
        created__lt=at - IDLE_ROOM_AFTER, user__isnull=True, disabled=False, seats__isnull=True,
        results__isnull=True, daily_attempts__isnull=True, push_subscriptions__isnull=True)


def clean_up() -> Removed:
    """Delete what nobody will use again; returns how many of each went."""
    at = timezone.now()
    with transaction.atomic():
        idle = list(_idle_waiting_rooms(at).values_list("pk", flat=True))
        # The rooms' seats and presence rows go with them (CASCADE); they have no games.
        Room.objects.filter(pk__in=idle).delete()
        # Their games, events, seats and daily attempts go with them (CASCADE).
        unplayed = list(_unplayed_rooms(at).values_list("pk", flat=True))
        Room.objects.filter(pk__in=unplayed).delete()
        # After the rooms: a player whose only seat was in one of them goes too.
        players = list(_forgotten_players(at).values_list("pk", flat=True).distinct())
        Player.objects.filter(pk__in=players).delete()
        sessions, _ = Session.objects.filter(expire_date__lt=at).delete()
        connections, _ = Connection.objects.filter(
            last_seen__lt=at - DEAD_CONNECTION_AFTER).delete()
    return Removed(rooms=len(idle), sessions=sessions, connections=connections,
                   unplayed=len(unplayed), players=len(players))
