"""Reads of a game: the room's current one, its state and recent events, when its turn ends
and when a person away counts as gone (one rule for the turn driver, the countdowns and the
host role), which games are abandoned."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db.models import (
    BooleanField,
    Case,
    Exists,
    F,
    OuterRef,
    QuerySet,
    Value,
    When,
)
from django.utils import timezone

from ..domain import clock
from ..models import Game, GameEvent, GameResult, Player, Room, Seat
from ..store.queries import recent_event_rows

#: How many of the current game's last events a ``state`` carries (the page's event log).
RECENT_EVENTS = 50
#: A game without a move for this long is abandoned: nobody is coming back to it.
ABANDONED_AFTER = timedelta(days=1)


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
    if game_row.move_days:  # over days: kept on the row as the turn started
        return None if game_row.snapshot.get("finished", True) else game_row.move_deadline
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
    every page shows and the host's passing read this one rule, on the site's clock
    (``domain.clock``: a seat's ``last_seen`` is stamped by it, and a test moves it)."""
    return (last_seen or since) + timedelta(seconds=float(settings.AWAY_GRACE))


def grace_left(last_seen: datetime | None, since: datetime) -> float:
    """Seconds until ``grace_ends``; 0 once it has passed."""
    return seconds_until(grace_ends(last_seen, since), clock.now())


def seconds_until(moment: datetime, now: datetime) -> float:
    return max(0.0, (moment - now).total_seconds())


def host_passes_in(away: dict[int, list[int]]) -> dict[int, tuple[int, float]]:
    """Per room id of ``away`` (room id → the indexes of its seats whose person is away) whose
    host is one of those people: the host's seat and the seconds until the role passes
    (``grace_ends``, from the room's creation if they never came; 0 once it may pass). One
    query, none when nobody is away."""
    if not away:
        return {}
    found: dict[int, tuple[int, float]] = {}
    for room_id, index, last_seen, created in (
            Seat.objects.filter(room_id__in=list(away), kind=Seat.Kind.HUMAN,
                                guest_key=F("room__host_key"))
            .exclude(guest_key="").order_by("-index")
            .values_list("room_id", "index", "last_seen", "room__created")):
        if index in away[room_id]:  # the first seat of the host's, as ``seat_of`` reads it
            found[room_id] = (index, grace_left(last_seen, created))
        else:
            found.pop(room_id, None)
    return found


def autoplayed_turns(game_row: Game) -> tuple[int, ...]:
    """Per player of the game: the turns the computer played for them (a person away, or
    out of time), one box scored each. One query on the game's events."""
    counts = [0] * len(game_row.players)
    for seat in (GameEvent.objects.filter(game=game_row, kind="scored",
                                          by=GameEvent.By.AUTOPLAY)
                 .values_list("seat", flat=True)):
        if seat is not None and 0 <= seat < len(counts):
            counts[seat] += 1
    return tuple(counts)


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
    found: dict[int, dict[int, float]] = {pk: {} for pk in started}
    for room_id, index, last_seen in (Seat.objects.filter(room_id__in=list(started))
                                      .values_list("room_id", "index", "last_seen")):
        if index in away[room_id]:
            found[room_id][index] = grace_left(last_seen, started[room_id])
    return found
