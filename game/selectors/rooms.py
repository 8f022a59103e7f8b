"""Reads of rooms: a room now as a socket sees it, and the lobby's lists."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db.models import (
    Exists,
    OuterRef,
    QuerySet,
    Subquery,
)
from django.utils import timezone

from ..domain.rooms import RoomSnapshot, SeatView, SharedRoomState, options_of
from ..models import Connection, Game, Room, Seat
from .games import (
    autoplayed_turns,
    current_game,
    game_state,
    grace_left,
    recent_events,
    stale_last_event,
    turn_deadline,
)
from .presence import STALE_AFTER, live_guest_keys, presence_of, with_someone_here


def recently_finished(rooms: QuerySet[Room], limit: int) -> list[Room]:
    """The finished ones of ``rooms``, each with its latest game as ``last_game`` (the winner
    and the review link): two queries however many rooms. The latest game is a subquery per
    room listed (not a GROUP BY of every finished room: the newest ``limit`` are read from the
    rooms' (status, updated) index and the rest never)."""
    latest = Game.objects.filter(room=OuterRef("pk")).order_by("-id").values("id")[:1]
    found = list(rooms.filter(status=Room.Status.FINISHED)
                 .annotate(last_game_id=Subquery(latest))[:limit])
    games = Game.objects.in_bulk([r.last_game_id for r in found if r.last_game_id])
    for room in found:
        room.last_game = games.get(room.last_game_id)
    return found


def lobby_rooms(limit: int, finished_since: timedelta) -> dict[str, list[Room]]:
    """The lobby's lists, each room with ``seat_list``: (seat, here) pairs, ``here`` true only
    for a person with a live socket (a computer player is never "here").

    ``waiting``: rooms not started with a free seat; ``playing``: games with someone here, and
    full rooms about to start (``room.full``); ``finished``: recently finished."""
    rooms = Room.objects.filter(daily__isnull=True).prefetch_related("seats")  # dailies: solo
    free_seat = Seat.objects.filter(room=OuterRef("pk"), kind=Seat.Kind.HUMAN, guest_key="")
    waiting = rooms.filter(status=Room.Status.WAITING).annotate(has_free=Exists(free_seat))
    # A game abandoned with a tab still open (a computer player waiting on it) is not played.
    abandoned = Game.objects.filter(room=OuterRef("pk"), status=Game.Status.PLAYING).filter(
        Exists(stale_last_event()))
    playing = list(with_someone_here(rooms.filter(status=Room.Status.PLAYING)
                                     .exclude(Exists(abandoned)))[:limit])
    full = list(with_someone_here(waiting.filter(has_free=False))[:limit])
    lists = {
        "waiting": list(waiting.filter(has_free=True)[:limit]),
        # A game nobody is in pauses (computer players wait): not "playing now".
        "playing": sorted(full + playing, key=lambda r: r.updated, reverse=True)[:limit],
        "finished": recently_finished(
            rooms.filter(updated__gte=timezone.now() - finished_since), limit),
    }
    listed = [room for found in lists.values() for room in found]
    here: set[tuple[int, str]] = set(Connection.objects.filter(
        room_id__in=[r.pk for r in listed], last_seen__gte=timezone.now() - STALE_AFTER)
        .exclude(guest_key="").values_list("room_id", "guest_key"))
    for room in listed:
        room.full = room.status == Room.Status.WAITING and not getattr(room, "has_free", True)
        room.seat_list = [(s, not s.is_bot and bool(s.guest_key)
                           and (room.pk, s.guest_key) in here) for s in room.seats.all()]
    return lists


def room_state(room: Room, guest: str | None) -> RoomSnapshot:
    """The room now, as the socket of ``guest`` sees it."""
    return shared_room_state(room).seen_by(guest)


def shared_room_state(room: Room) -> SharedRoomState:
    """The room now, as a whole; ``room`` is refreshed from the database."""
    room.refresh_from_db()
    seats = list(Seat.objects.filter(room=room).order_by("index"))
    now_here, _ = presence_of([(s.index, s.kind, s.guest_key) for s in seats],
                              live_guest_keys(room))
    connected = dict(now_here.seats)
    game_row = current_game(room)
    autoplay: dict[int, float] = {}
    if game_row is not None and game_row.status == Game.Status.PLAYING \
            and room.status == Room.Status.PLAYING and room.pace == Room.Pace.LIVE:
        autoplay = {s.index: grace_left(s.last_seen, game_row.created)
                    for s in seats if not connected.get(s.index, True)}
    # The host's seat while its person is away: when the role passes (``pass_host_roles``).
    host_seat = next((s for s in seats if s.guest_key and s.guest_key == room.host_key
                      and not s.is_bot), None)
    passes_in = (grace_left(host_seat.last_seen, room.created)
                 if host_seat is not None and not connected.get(host_seat.index, True)
                 else None)
    deadline = turn_deadline(room, game_row) if game_row else None
    snapshot = RoomSnapshot(
        code=room.code, name=room.name, rules=room.rules, status=room.status,
        seats=tuple(SeatView(index=s.index, name=s.display_name, kind=s.kind,
                             level=s.bot_level or None,
                             connected=connected.get(s.index, False),
                             host=bool(s.guest_key) and s.guest_key == room.host_key,
                             seed=s.client_seed if not s.is_free else None,
                             autoplay_in=autoplay.get(s.index),
                             host_passes_in=passes_in if s is host_seat else None)
                    for s in seats),
        watchers=now_here.watchers,
        options=options_of(room),
        practice=room.practice,
        chances_for_players=room.players_see_chances(seats),
        turn_seconds=(room.move_days * 86400.0 if room.pace == Room.Pace.DAYS
                      else room.turn_time * float(settings.TURN_TIME_SCALE)),
        pace=room.pace,
        move_days=room.move_days,
        commitment=room.next_commitment or None,
        turn_ends_in=(max(0.0, (deadline - timezone.now()).total_seconds())
                      if deadline else None),
        you_seat=None,
        you_host=False,
        game=game_state(game_row) if game_row else None,
        recent=recent_events(game_row) if game_row else [],
        seq=game_row.seq if game_row else 0,
        autoplayed=autoplayed_turns(game_row) if game_row else (),
    )
    # The first seat of a guest, as ``next`` over the seats in order chose it.
    seat_of: dict[str, int] = {}
    for s in seats:
        if s.guest_key:
            seat_of.setdefault(s.guest_key, s.index)
    return SharedRoomState(snapshot=snapshot, seat_of=seat_of, host_key=room.host_key)
