"""Reads: what a room, its game and its presence look like now, as domain objects (the
``game.protocol`` package shapes them into frames). Beside this module: a game's live
standings (``standings``) and a practice room's advice (``advice``).

Nothing here writes; the services (``game.services``) do, and may call these.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db.models import (
    BooleanField,
    Case,
    Exists,
    OuterRef,
    QuerySet,
    Subquery,
    Value,
    When,
)
from django.utils import timezone

from ..domain.rooms import Presence, RoomSnapshot, SeatView, SharedRoomState, options_of
from ..models import Connection, Game, GameEvent, GameResult, Player, Room, Seat
from ..store.queries import live_guests, recent_event_rows, seat_rows

#: How many of the current game's last events a ``state`` carries (the page's event log).
RECENT_EVENTS = 50
#: A ``Connection`` row not refreshed for this long counts as gone (Daphne skips
#: ``disconnect()`` when it is killed or restarted).
STALE_AFTER = timedelta(seconds=settings.PRESENCE_STALE_AFTER)
#: A game without a move for this long is abandoned: nobody is coming back to it.
ABANDONED_AFTER = timedelta(days=1)
BOT: str = Seat.Kind.BOT  # type: ignore[assignment]  # a TextChoices member is a str; untyped Django shows a tuple


def current_game(room: Room) -> Game | None:
    return Game.objects.filter(room=room).order_by("-id").first()


def seat_of_viewer(game: Game, player: Player | None) -> int | None:
    """Which seat of ``game`` the browser's ``player`` played (the first, if several), or
    None: from the game's recorded results once reviewed, else from the room's seats (a game
    just over: its seats are still the game's)."""
    if player is None:
        return None
    seat = (GameResult.objects.filter(game=game, player=player).order_by("seat")
            .values_list("seat", flat=True).first())
    if seat is None and game.room.games.order_by("-id").values_list("id", flat=True).first() \
            == game.pk:
        seat = (Seat.objects.filter(room=game.room_id, player=player,
                                    index__lt=len(game.players))
                .order_by("index").values_list("index", flat=True).first())
    return seat


def stale_last_event() -> QuerySet[GameEvent]:
    """The outer game's last event if it is older than ``ABANDONED_AFTER`` (a subquery of a
    query on games): one look-up in the events' (game, seq) index."""
    return GameEvent.objects.filter(game=OuterRef("pk"), seq=OuterRef("seq"),
                                    created__lt=timezone.now() - ABANDONED_AFTER)


def with_abandoned(games: QuerySet[Game]) -> QuerySet[Game]:
    """``games``, each with ``abandoned``: still playing, and no move for ``ABANDONED_AFTER``.
    The events are looked up for games being played only (a CASE, not an AND the database may
    evaluate both sides of): a page deep into a long list of finished games reads none."""
    return games.annotate(abandoned=Case(
        When(status=Game.Status.PLAYING, then=Exists(stale_last_event())),
        default=Value(False), output_field=BooleanField()))


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


def game_state(game_row: Game, state: dict[str, Any] | None = None) -> dict[str, Any]:
    """A game's state: ``Game.to_dict()`` plus the game's id and seq (what a ``state``'s
    ``game`` is)."""
    return {**(state if state is not None else game_row.snapshot),
            "id": game_row.pk, "seq": game_row.seq}


def recent_events(game_row: Game, limit: int = RECENT_EVENTS) -> list[dict[str, Any]]:
    """The last ``limit`` stored events of a game up to ``game_row.seq``, in ``seq`` order, each
    shaped like an ``event`` message without its ``type`` and ``game``. One query (raw SQL) on
    the (game, seq) index; capped at the row's seq so it agrees with the rest of the ``state``
    even when a command stores events while this is read."""
    return [{"seq": seq, "event": event, "by": by}
            for seq, event, by in recent_event_rows(game_row.pk, game_row.seq, limit)]


def turn_deadline(room: Room, game_row: Game) -> datetime | None:
    """When the current turn's time runs out (the room's turn time after the turn's
    ``turn_started`` was stored), or None: no turn time, or no turn. Derived from stored rows
    only, so a restarted server keeps the same deadline."""
    if not room.turn_time or game_row.snapshot.get("finished", True):
        return None
    started = (GameEvent.objects.filter(game=game_row, kind="turn_started", seq__lte=game_row.seq)
               .order_by("-seq").values_list("created", flat=True).first())
    if started is None:
        return None
    return started + timedelta(seconds=room.turn_time * float(settings.TURN_TIME_SCALE))


def grace_ends(last_seen: datetime | None, since: datetime) -> datetime:
    """When a seated person away counts as gone: ``AWAY_GRACE`` after their last open socket
    (or after ``since``, the game's or the room's start, if they never had one). Then the
    computer plays their turns, and a host's role passes on. The turn driver, the countdown
    every page shows and the host's passing read this one rule."""
    return (last_seen or since) + timedelta(seconds=float(settings.AWAY_GRACE))


def _seconds_until(moment: datetime, now: datetime) -> float:
    return max(0.0, (moment - now).total_seconds())


def autoplay_in(away: dict[int, list[int]]) -> dict[int, dict[int, float]]:
    """Per room id of ``away`` (room id → the indexes of its seats whose person is away):
    seconds until the computer plays for each of them (``grace_ends``), for the rooms with
    a game running. Two queries, and none when nobody is away."""
    if not away:
        return {}
    started = dict(Game.objects.filter(room_id__in=list(away), status=Game.Status.PLAYING,
                                       room__status=Room.Status.PLAYING)
                   .order_by("id").values_list("room_id", "created"))
    if not started:
        return {}
    now = timezone.now()
    found: dict[int, dict[int, float]] = {pk: {} for pk in started}
    for room_id, index, last_seen in (Seat.objects.filter(room_id__in=list(started))
                                      .values_list("room_id", "index", "last_seen")):
        if index in away[room_id]:
            found[room_id][index] = _seconds_until(
                grace_ends(last_seen, started[room_id]), now)
    return found


def room_state(room: Room, guest: str | None) -> RoomSnapshot:
    """The room now, as the socket of ``guest`` sees it."""
    return shared_room_state(room).seen_by(guest)


def shared_room_state(room: Room) -> SharedRoomState:
    """The room now, as a whole; ``room`` is refreshed from the database."""
    room.refresh_from_db()
    seats = list(Seat.objects.filter(room=room).order_by("index"))
    now_here, _ = presence_of([(s.index, s.kind, s.guest_key) for s in seats], _here(room))
    connected = dict(now_here.seats)
    game_row = current_game(room)
    autoplay: dict[int, float] = {}
    if game_row is not None and game_row.status == Game.Status.PLAYING \
            and room.status == Room.Status.PLAYING:
        now = timezone.now()
        autoplay = {s.index: _seconds_until(grace_ends(s.last_seen, game_row.created), now)
                    for s in seats if not connected.get(s.index, True)}
    deadline = turn_deadline(room, game_row) if game_row else None
    snapshot = RoomSnapshot(
        code=room.code, name=room.name, rules=room.rules, status=room.status,
        seats=tuple(SeatView(index=s.index, name=s.display_name, kind=s.kind,
                             level=s.bot_level or None,
                             connected=connected.get(s.index, False),
                             host=bool(s.guest_key) and s.guest_key == room.host_key,
                             seed=s.client_seed if not s.is_free else None,
                             autoplay_in=autoplay.get(s.index))
                    for s in seats),
        watchers=now_here.watchers,
        options=options_of(room),
        practice=room.practice,
        chances_for_players=room.players_see_chances(seats),
        turn_seconds=room.turn_time * float(settings.TURN_TIME_SCALE),
        commitment=room.next_commitment or None,
        turn_ends_in=(max(0.0, (deadline - timezone.now()).total_seconds())
                      if deadline else None),
        you_seat=None,
        you_host=False,
        game=game_state(game_row) if game_row else None,
        recent=recent_events(game_row) if game_row else [],
        seq=game_row.seq if game_row else 0,
    )
    # The first seat of a guest, as ``next`` over the seats in order chose it.
    seat_of: dict[str, int] = {}
    for s in seats:
        if s.guest_key:
            seat_of.setdefault(s.guest_key, s.index)
    return SharedRoomState(snapshot=snapshot, seat_of=seat_of, host_key=room.host_key)


# --- presence: who is connected, kept in the database so every server process agrees ------

def _here(room: Room) -> list[str]:
    """The guest key of each live socket to the room ("" for an anonymous watcher)."""
    return live_guests([room.pk], timezone.now() - STALE_AFTER)[room.pk]


def connected_guests(room: Room) -> set[str]:
    return set(_here(room)) - {""}


def someone_here(room: Room) -> bool:
    """Whether anyone (a player or a watcher) has a live socket to the room."""
    return bool(_here(room))


def with_someone_here(rooms: QuerySet[Room]) -> QuerySet[Room]:
    """Those of ``rooms`` with at least one live socket, in the same query."""
    return rooms.filter(Exists(Connection.objects.filter(
        room=OuterRef("pk"), last_seen__gte=timezone.now() - STALE_AFTER)))


def others_here(room: Room, guest: str) -> bool:
    """Whether anyone but ``guest`` (a player or a watcher) has a live socket to the room."""
    return any(other != guest for other in _here(room))


def presence(room: Room) -> Presence:
    """Each seat connected or not, and how many watch."""
    return presences([room])[room.code][0]


def presences(rooms: Iterable[Room]) -> dict[str, tuple[Presence, bool]]:
    """Per room code: its presence, and whether the turn driver may have work there (a bot
    seat, or a seated person away). Two queries, however many rooms, and two more when
    someone is away (``autoplay_in``)."""
    by_id = {room.pk: room for room in rooms}
    ids = list(by_id)
    seats = seat_rows(ids)
    here = live_guests(ids, timezone.now() - STALE_AFTER)
    found = {pk: presence_of(seats[pk], here[pk]) for pk in ids}
    times = autoplay_in({pk: away for pk, (now_here, _) in found.items()
                         if (away := [i for i, c in now_here.seats if not c])})
    return {by_id[pk].code: (replace(now_here, autoplay_in=tuple(sorted(
                times.get(pk, {}).items()))), driver)
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
