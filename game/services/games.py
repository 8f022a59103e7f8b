"""Apply one command to one game: lock, validate with the rules engine, store, then broadcast.

The game row is locked for the whole transaction (``select_for_update``; on SQLite every write
transaction is ``BEGIN IMMEDIATE``, and a process's commands also queue on a lock of their
own), so two commands for the same game never interleave: the second sees the first one's
events. Events are stored before anything is sent.
"""

from __future__ import annotations

import contextlib
import copy
import threading
from functools import cache, partial
from typing import Any

from django.conf import settings
from django.db import connection, transaction
from django.utils import timezone

from ..domain.clock import utc_today
from ..domain.games import PlayResult
from ..models import COMMAND_ID_MAX, DailyAttempt, Game, GameEvent, Room
from ..rules import Action, Event, RulesError
from ..rules import Game as RulesGame
from ..rules.patches import state_patch
from ..selectors import current_game, game_state
from ..store import rules_cache
from ..store.queries import locked_game
from . import broadcast, correspondence, review
from .dice import dice_for, draw_server_seed
from .errors import ServiceError, gettext_noop, no_room


def _copy(game: RulesGame) -> RulesGame:
    """A private deep copy (its dice source left out: SystemRandom cannot be copied)."""
    rng = game.rng
    game.rng = None  # type: ignore[assignment]
    try:
        return copy.deepcopy(game)
    finally:
        game.rng = rng


def store_events(
    game_row: Game,
    game: RulesGame,
    events: list[Event],
    *,
    by: str,
    seat: int | None,
    command_id: str = "",
) -> PlayResult:
    """Append ``events`` (already folded into ``game``) and update the game row; returns
    them and what they changed in the state together (``rules.patches``: what clients
    holding the previous state apply), for the caller to broadcast."""
    final = game.to_dict()
    first_seq = game_row.seq + 1
    as_dicts = [ev.to_dict() for ev in events]
    _insert_events(game_row.pk, first_seq, as_dicts, by=by, seat=seat, command_id=command_id)
    result = PlayResult(
        events=as_dicts, first_seq=first_seq, game_id=game_row.pk, by=by, seat=seat,
        changes=state_patch(game_row.snapshot, final),  # the state clients hold: the last
    )
    game_row.seq = first_seq + len(events) - 1
    game_row.snapshot = final
    result.state = game_state(game_row)
    if game_row.move_days and (game.is_over or any(e.kind == "turn_started" for e in events)):
        correspondence.turn_started(game_row, game)  # an over-days game: who is to move, until when
    if not game.is_over:
        _update_game(game_row)
        return result
    game_row.status = Game.Status.FINISHED
    game_row.finished = timezone.now()
    game_row.totals = [c.total for c in game.scorecards]
    game_row.winners = list(game.winners)
    game_row.unfinished = game.unfinished
    game_row.save(update_fields=["seq", "snapshot", "status", "finished", "totals", "winners",
                                 "unfinished"])
    if game_row.daily_id:  # an attempt at a daily challenge: no rematch, its score recorded
        Room.objects.filter(pk=game_row.room_id).update(
            status=Room.Status.FINISHED, updated=timezone.now())
        _daily_attempt_finished(game_row)
    else:
        # The rematch's seed is drawn now, before anyone may change their own seed for it.
        Room.objects.filter(pk=game_row.room_id).update(
            status=Room.Status.FINISHED, updated=timezone.now(),
            next_server_seed=draw_server_seed(
                game_row.room_id, Game.objects.filter(room_id=game_row.room_id).count()))
    # In the review worker process, once this is stored; a game ended early has no review.
    # Robust: what fails after the commit is logged, never the committed command's error.
    if settings.REVIEW_ON_FINISH and not game.unfinished:
        transaction.on_commit(partial(review.analyse_in_background, game_row.pk), robust=True)
    return result


def _daily_attempt_finished(game_row: Game) -> None:
    """A daily game ended: its attempt's final score. Whether it is on the accounts' board
    was settled before its first roll (``DailyAttempt.account``): an account made or signed
    in to during the game does not raise a guest's attempt onto it."""
    attempt = DailyAttempt.objects.filter(game_id=game_row.pk).first()
    if attempt is None:
        return
    attempt.final = game_row.totals[0] if game_row.totals else 0
    attempt.finished = game_row.finished
    attempt.save(update_fields=["final", "finished"])


# Every command writes one INSERT and one UPDATE, in SQL written once: through the ORM
# (bulk_create, save) their compilation was a third of a command's CPU (docs/benchmarks.md).
# The values are still prepared by the model's fields, so both databases store them alike.
_EVENT = GameEvent._meta
_GAME = Game._meta


def _insert_events(game_id: int, first_seq: int, events: list[dict[str, Any]], *, by: str,
                   seat: int | None, command_id: str) -> None:
    payload_field = _EVENT.get_field("payload")
    created = connection.ops.adapt_datetimefield_value(timezone.now())
    params: list[Any] = []
    for i, ev in enumerate(events):
        payload = {k: v for k, v in ev.items() if k != "kind"}
        params += [game_id, first_seq + i, ev["kind"],
                   payload_field.get_db_prep_save(payload, connection), created, by, seat,
                   command_id if i == 0 else ""]
    with connection.cursor() as cursor:
        cursor.execute(insert_events_sql(connection.vendor, len(events)), params)


def _update_game(game_row: Game) -> None:
    snapshot = _GAME.get_field("snapshot").get_db_prep_save(game_row.snapshot, connection)
    with connection.cursor() as cursor:
        cursor.execute(f"UPDATE {_GAME.db_table} SET seq = %s, snapshot = %s WHERE id = %s",
                       [game_row.seq, snapshot, game_row.pk])


@cache
def insert_events_sql(vendor: str, rows: int) -> str:
    """The INSERT of ``rows`` events, built once per database and count."""
    columns = ("game_id", "seq", "kind", "payload", "created", "by", "seat", "command_id")
    row = "(" + ", ".join(["%s"] * len(columns)) + ")"
    quoted = ", ".join(connection.ops.quote_name(c) for c in columns)
    return f"INSERT INTO {_EVENT.db_table} ({quoted}) VALUES " + ", ".join([row] * rows)


#: SQLite takes one writer at a time, and a writer that finds the lock taken sleeps on SQLite's
#: busy-handler schedule (1, 2, 5, 10 ... 100 ms), oversleeping a holder that needed ~1 ms: at 200
#: rooms ~3 commands a second waited 33-178 ms that way, once 533 (docs/benchmarks.md). This
#: process's commands queue on a lock of their own instead, which hands over at once. On
#: PostgreSQL a command locks its game's row alone, and commands of other games run beside it.
_SQLITE_COMMANDS = threading.Lock()


def _one_writer_at_a_time() -> contextlib.AbstractContextManager[Any]:
    return _SQLITE_COMMANDS if connection.vendor == "sqlite" else contextlib.nullcontext()


def play(room_code: str, action: Action, **command: Any) -> PlayResult:
    """Apply a roll or a score (see :func:`apply_command`), then broadcast its events."""
    result = apply_command(room_code, action, **command)
    broadcast.send_events(room_code, result)
    return result


def apply_command(
    room_code: str,
    action: Action,
    *,
    guest_key: str | None = None,
    seat_index: int | None = None,
    by: str = GameEvent.By.HUMAN,  # type: ignore[assignment]  # a TextChoices member is a str; untyped Django shows a tuple
    command_id: str = "",
    expected_seq: int | None = None,
) -> PlayResult:
    """Apply a roll or a score for the seat of ``guest_key`` (a person) or ``seat_index`` (a bot
    or autoplay) and store its events; the caller broadcasts them. ``expected_seq`` makes the
    command conditional on nothing having happened since the caller looked (bots): otherwise
    ``stale``. A repeated ``command_id`` of the same seat in the same game is not applied
    again."""
    if len(command_id) > COMMAND_ID_MAX:
        raise ServiceError("bad_message",
                           gettext_noop("A command id has at most %(max)d characters."),
                           {"max": COMMAND_ID_MAX})
    with _one_writer_at_a_time(), transaction.atomic():
        locked = locked_game(room_code, guest_key, seat_index, command_id)
        if locked is None:
            if not Room.objects.filter(code=room_code).exists():
                raise no_room(room_code)
            raise ServiceError("no_game", gettext_noop("The game has not started yet."))
        game_row = locked.game
        if seat_index is None:
            if locked.guest_seat is None:
                raise ServiceError("watcher", gettext_noop(
                    "You are watching this room; take a seat to play."))
            seat_index = locked.guest_seat
            if locked.disabled:
                raise ServiceError("disabled", gettext_noop(
                    "This player has been disabled by the site’s staff; it can no longer play."))
        if seat_index >= len(game_row.players):
            raise ServiceError("watcher", gettext_noop(
                "Your seat is not in this game; wait for the next one."))
        if locked.repeated:
            return PlayResult(duplicate=True, seat=seat_index)
        if expected_seq is not None and game_row.seq != expected_seq:
            raise ServiceError("stale", gettext_noop("The game moved on before this command."))

        game = rules_cache.take(game_row)
        if game.daily and game.daily < utc_today().isoformat():
            rules_cache.keep(game_row.pk, game_row.seq, game)
            # its seed is public from midnight (UTC): a move now could be chosen knowing it
            raise ServiceError("day_over", gettext_noop(
                "This daily challenge’s day is over (UTC): its dice are revealed, so its game "
                "takes no more moves."))
        game.rng = dice_for(game_row, game.rng)
        try:
            events = game.play(action, player=seat_index)
        except RulesError:
            rules_cache.keep(game_row.pk, game_row.seq, game)  # the rules left it unchanged
            raise
        result = store_events(game_row, game, events, by=by, seat=seat_index,
                              command_id=command_id)
        transaction.on_commit(lambda: rules_cache.keep(game_row.pk, game_row.seq, game),
                              robust=True)
    return result


def end_game(game_id: int) -> PlayResult:
    """Staff: end a running game now, unfinished (players gone for good). Its server seed is
    revealed like at a normal end, and the admin lists it among the games ended early."""
    with transaction.atomic():
        game_row = Game.objects.select_for_update().filter(pk=game_id).first()
        if game_row is None:
            raise ServiceError("no_game", gettext_noop("There is no game %(game)s."),
                               {"game": game_id})
        if game_row.status != Game.Status.PLAYING:
            raise ServiceError("game_over", gettext_noop("This game is already over."))
        game = rules_cache.take(game_row)
        game.rng = dice_for(game_row)
        events = game.end()
        result = store_events(game_row, game, events, by="system", seat=None)
        code = game_row.room.code
        transaction.on_commit(lambda: rules_cache.keep(game_row.pk, game_row.seq, game))
    broadcast.send_events(code, result)
    return result


def load_for_decision(room_code: str) -> tuple[Game, RulesGame] | None:
    """The latest game of a room and a private copy of its rules game, for bots. A service
    although it stores nothing: it takes the cached rules game and puts it back."""
    room = Room.objects.filter(code=room_code).first()
    game_row = current_game(room) if room else None
    if game_row is None:
        return None
    game = rules_cache.take(game_row)
    private = _copy(game)
    rules_cache.keep(game_row.pk, game_row.seq, game)
    return game_row, private
