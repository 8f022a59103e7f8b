"""Apply one command to one game: lock, validate with the rules engine, store, then broadcast.

The game row is locked for the whole transaction (``select_for_update``; on SQLite every write
transaction is ``BEGIN IMMEDIATE``), so two commands for the same game never interleave: the
second sees the first one's events. Events are stored before anything is sent.
"""

from __future__ import annotations

import copy
import json
import random
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.db import connection, transaction
from django.utils import timezone

from ..db import in_db_thread
from ..models import Game, GameEvent, Room, Seat
from ..rules import Action, Event, RandomSource, RulesError, Score, event_from_dict
from ..rules import Game as RulesGame
from . import broadcast
from .errors import ServiceError, no_room

MAX_COMMAND_ID = 64


@dataclass
class PlayResult:
    """What a command did: the ``event`` messages broadcast, or nothing if it was a repeat."""

    messages: list[dict[str, Any]] = field(default_factory=list)
    duplicate: bool = False
    seat: int | None = None

    @property
    def texts(self) -> list[str]:
        """The messages as the JSON text frames every socket of the room is sent."""
        return [json.dumps(m) for m in self.messages]


# --- the rules game of a stored game ------------------------------------------------------
# Events are append-only, so a rules Game rebuilt at seq N is valid forever: cache the latest
# per game and take it out while a command uses it (a failed transaction never leaves a
# half-applied game in the cache).
_CACHE_SIZE = 256
_cache: OrderedDict[int, tuple[int, RulesGame]] = OrderedDict()
_cache_lock = threading.Lock()


def _cache_take(game_id: int, seq: int) -> RulesGame | None:
    with _cache_lock:
        entry = _cache.pop(game_id, None)
    return entry[1] if entry and entry[0] == seq else None


def _cache_put(game_id: int, seq: int, game: RulesGame) -> None:
    with _cache_lock:
        _cache[game_id] = (seq, game)
        _cache.move_to_end(game_id)
        while len(_cache) > _CACHE_SIZE:
            _cache.popitem(last=False)


def rebuild(game_row: Game) -> RulesGame:
    """The rules game folded from the stored events (the source of truth)."""
    events = [event_from_dict(e.to_rules_dict()) for e in game_row.events.order_by("seq")]
    return RulesGame.from_events(events)


def load_rules_game(game_row: Game) -> RulesGame:
    """The rules game at ``game_row.seq``; a private copy the caller may mutate."""
    cached = _cache_take(game_row.pk, game_row.seq)
    game = cached if cached is not None else rebuild(game_row)
    return game


def dice_rng(game_id: int, seq: int) -> RandomSource:
    """Live dice come from the OS; with DICE_SEED set, from (seed, game, seq) — reproducible."""
    seed = getattr(settings, "DICE_SEED", "")
    if seed:
        return random.Random(f"{seed}:{game_id}:{seq}")
    return random.SystemRandom()


def game_state(game_row: Game, state: dict[str, Any] | None = None) -> dict[str, Any]:
    """``Game.to_dict()`` plus the game's id and seq, as the protocol sends it."""
    return {**(state if state is not None else game_row.snapshot),
            "id": game_row.pk, "seq": game_row.seq}


def _copy(game: RulesGame, *, with_events: bool = True) -> RulesGame:
    """A private deep copy; without events it is cheap (for intermediate snapshots)."""
    events, rng = game.events, game.rng
    game.rng = None  # type: ignore[assignment]  # SystemRandom cannot be copied
    if not with_events:
        game.events = []
    try:
        return copy.deepcopy(game)
    finally:
        game.events, game.rng = events, rng


def store_events(
    game_row: Game,
    game: RulesGame,
    events: list[Event],
    *,
    by: str,
    seat: int | None,
    command_id: str = "",
    before: RulesGame | None = None,
) -> list[dict[str, Any]]:
    """Append ``events`` (already folded into ``game``) and update the game row; returns the
    ``event`` messages to broadcast, each with the state right after its event."""
    final = game.to_dict()
    if before is not None and len(events) > 1:
        states = []
        for ev in events:
            before.apply(ev)
            states.append(before.to_dict())
    else:
        states = [final] * len(events)

    first_seq = game_row.seq + 1
    GameEvent.objects.bulk_create([
        GameEvent(
            game=game_row, seq=first_seq + i, kind=ev.kind,
            payload={k: v for k, v in ev.to_dict().items() if k != "kind"},
            by=by, seat=seat, command_id=command_id if i == 0 else "",
        )
        for i, ev in enumerate(events)
    ])
    game_row.seq = first_seq + len(events) - 1
    game_row.snapshot = final
    fields = ["seq", "snapshot"]
    if game.is_over:
        game_row.status = Game.Status.FINISHED
        game_row.finished = timezone.now()
        game_row.totals = [c.total for c in game.scorecards]
        game_row.winners = list(game.winners)
        fields += ["status", "finished", "totals", "winners"]
        Room.objects.filter(pk=game_row.room_id).update(
            status=Room.Status.FINISHED, updated=timezone.now())
    game_row.save(update_fields=fields)
    return [
        {"type": "event", "seq": first_seq + i, "event": ev.to_dict(), "by": by,
         "game": {**states[i], "id": game_row.pk, "seq": first_seq + i}}
        for i, ev in enumerate(events)
    ]


def _locked_game(room_code: str, guest_key: str | None, seat_index: int | None,
                 command_id: str) -> Game | None:
    """The room's latest game, locked, in one query with what a command checks first:
    ``guest_seat`` (the seat of ``guest_key``, or None) and ``repeated`` (whether this seat
    already sent ``command_id`` in this game).

    Raw SQL because this is every command's hot path: the same query through the ORM's
    subquery expressions took half of a loaded server's CPU to compile (docs/benchmarks.md).
    """
    game, room, seat, event = (m._meta.db_table for m in (Game, Room, Seat, GameEvent))
    lock = " FOR UPDATE OF g" if connection.features.has_select_for_update_of else ""
    sql = f"""
        SELECT g.*, s.idx AS guest_seat,
               (%s <> '' AND EXISTS (SELECT 1 FROM {event} e WHERE e.game_id = g.id
                    AND e.seat = COALESCE(%s, s.idx) AND e.command_id = %s)) AS repeated
        FROM {game} g
        JOIN {room} r ON r.id = g.room_id
        LEFT JOIN (SELECT room_id, "index" AS idx FROM {seat}
                   WHERE guest_key = %s AND guest_key <> '') s ON s.room_id = g.room_id
        WHERE r.code = %s
        ORDER BY g.id DESC LIMIT 1{lock}"""
    params = [command_id, seat_index, command_id, guest_key or "", room_code]
    return next(iter(Game.objects.raw(sql, params)), None)


def play(room_code: str, action: Action, **command: Any) -> PlayResult:
    """Apply a roll or a score (see :func:`apply_command`), then broadcast its events."""
    result = apply_command(room_code, action, **command)
    broadcast.send_events(room_code, result.texts)
    return result


async def aplay(room_code: str, action: Action, **command: Any) -> PlayResult:
    """:func:`play` for the event loop: the transaction and the JSON encoding on a database
    thread, the broadcast on the loop, so no thread waits for Redis."""
    def apply_and_encode() -> tuple[PlayResult, list[str]]:
        result = apply_command(room_code, action, **command)
        return result, result.texts

    result, texts = await in_db_thread(apply_and_encode)()
    await broadcast.asend_events(room_code, texts)
    return result


def apply_command(
    room_code: str,
    action: Action,
    *,
    guest_key: str | None = None,
    seat_index: int | None = None,
    by: str = GameEvent.By.HUMAN,
    command_id: str = "",
    expected_seq: int | None = None,
) -> PlayResult:
    """Apply a roll or a score for the seat of ``guest_key`` (a person) or ``seat_index`` (a bot
    or autoplay) and store its events; the caller broadcasts them. ``expected_seq`` makes the
    command conditional on nothing having happened since the caller looked (bots): otherwise
    ``stale``. A repeated ``command_id`` of the same seat in the same game is not applied
    again."""
    if len(command_id) > MAX_COMMAND_ID:
        raise ServiceError("bad_message", f"A command id has at most {MAX_COMMAND_ID} characters.")
    with transaction.atomic():
        game_row = _locked_game(room_code, guest_key, seat_index, command_id)
        if game_row is None:
            if not Room.objects.filter(code=room_code).exists():
                raise no_room(room_code)
            raise ServiceError("no_game", "The game has not started yet.")
        if seat_index is None:
            if game_row.guest_seat is None:
                raise ServiceError("watcher", "You are watching this room; take a seat to play.")
            seat_index = game_row.guest_seat
        if seat_index >= len(game_row.players):
            raise ServiceError("watcher", "Your seat is not in this game; wait for the next one.")
        if game_row.repeated:  # 0/1 on SQLite
            return PlayResult(duplicate=True, seat=seat_index)
        if expected_seq is not None and game_row.seq != expected_seq:
            raise ServiceError("stale", "The game moved on before this command.")

        game = load_rules_game(game_row)
        before = _copy(game, with_events=False) if isinstance(action, Score) else None
        game.rng = dice_rng(game_row.pk, game_row.seq)
        try:
            events = game.play(action, player=seat_index)
        except RulesError:
            _cache_put(game_row.pk, game_row.seq, game)  # the rules left it unchanged
            raise
        messages = store_events(game_row, game, events, by=by, seat=seat_index,
                                command_id=command_id, before=before)
        transaction.on_commit(lambda: _cache_put(game_row.pk, game_row.seq, game))
    return PlayResult(messages=messages, seat=seat_index)


def current_game(room: Room) -> Game | None:
    return Game.objects.filter(room=room).order_by("-id").first()


def load_for_decision(room_code: str) -> tuple[Game, RulesGame] | None:
    """The latest game of a room and a private copy of its rules game, for bots."""
    room = Room.objects.filter(code=room_code).first()
    game_row = current_game(room) if room else None
    if game_row is None:
        return None
    game = load_rules_game(game_row)
    private = _copy(game)
    _cache_put(game_row.pk, game_row.seq, game)
    return game_row, private
