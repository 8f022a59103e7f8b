"""Over-days games: a turn whenever its player comes, within days.

When a turn starts in an over-days game (its ``move_days`` > 0), :func:`turn_started` keeps on
the game row who is to move (``waiting_for``), when their time runs out (``move_deadline``) and
when they are reminded (``remind_at``, at ``REMIND_AT`` of the time), and makes their "your
turn" notice due — in the transaction of the command that started the turn. A computer's turn
is due at once: it is played by whoever is in the room, or else by the scan.

Every server process scans every ``CORRESPONDENCE_SCAN_SECONDS`` (:func:`start_scanning`):

- a move out of time is played by the computer (``AUTOPLAY_LEVEL``), marked ``autoplay``, and
  its player told so; then the computers' turns that follow. Each move is conditional on the
  ``seq`` it was decided from, so two processes never play one twice;
- a reminder due is made once (a notice unique per game, moment, person and kind);
- the notices due are sent (``services.notices``), each claimed by one process.

Nothing here waits on a person; nothing is autoplayed for being away a minute, as in live
rooms. Time is ``domain.clock``'s, which the tests move.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import MutableMapping
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import transaction

from ..domain import clock
from ..domain.rooms import LIVE, MOVE_DAYS, OVER_DAYS, OVER_DAYS_CAP, REMIND_AT
from ..models import Game, GameEvent, Notification, Player, Room, Seat
from ..rules import Game as RulesGame
from . import broadcast, periodic
from .errors import ServiceError, gettext_noop

log = logging.getLogger(__name__)

#: Games a scan looks at, at most, for each of its parts (the next scan takes the rest).
SCAN_BATCH = 200


def check_move_days(pace: str, move_days: int) -> int:
    """The days per move of a room of ``pace`` (0 for a live room), or ServiceError."""
    if pace == LIVE:
        return 0
    if pace != OVER_DAYS:
        raise ServiceError("bad_room", gettext_noop("A room is played live or over days."))
    if move_days not in MOVE_DAYS:
        raise ServiceError("bad_room", gettext_noop("Each move has %(choices)s days."),
                           {"choices": ", ".join(str(d) for d in MOVE_DAYS)})
    return move_days


def check_over_days_cap(player_id: int | None) -> None:
    """A person may sit in ``OVER_DAYS_CAP`` over-days rooms whose games are not over."""
    if player_id is None:
        return
    held = (Seat.objects.filter(player_id=player_id, room__pace=Room.Pace.DAYS)
            .exclude(room__status=Room.Status.FINISHED).count())
    if held >= OVER_DAYS_CAP:
        raise ServiceError("too_many_games", gettext_noop(
            "You are in %(count)d games over days already, the most at once; finish one "
            "first."), {"count": OVER_DAYS_CAP})


def turn_started(game_row: Game, game: RulesGame) -> None:
    """An over-days game's new turn (call in the command's transaction, after its events are
    stored): who is to move, until when, and their notice."""
    if game.is_over:
        Game.objects.filter(pk=game_row.pk).update(
            waiting_for=None, move_deadline=None, remind_at=None)
        return
    index = game.current_player
    seat = (Seat.objects.filter(room_id=game_row.room_id, index=index)
            .values_list("kind", "player_id").first())
    now = clock.now()
    if seat is None or seat[0] == Seat.Kind.BOT or seat[1] is None:
        # A computer moves at once: whoever is in the room, or else the next scan.
        Game.objects.filter(pk=game_row.pk).update(
            waiting_for=None, move_deadline=now, remind_at=None)
        return
    days = timedelta(days=game_row.move_days)
    Game.objects.filter(pk=game_row.pk).update(
        waiting_for_id=seat[1], move_deadline=now + days, remind_at=now + days * REMIND_AT)
    Notification.objects.get_or_create(game_id=game_row.pk, seq=game_row.seq,
                                       player_id=seat[1], kind=Notification.Kind.YOUR_TURN)


def seat_here(room: Room, player: Player, session: MutableMapping[str, Any]) -> Seat | None:
    """In an over-days room, ``player``'s seat is played from the browser that opens the room
    now (its session's guest key): a turn is taken on any device, signed in or as the same
    guest. Its other devices watch until they open the room again."""
    from .rooms import guest_key

    seat = Seat.objects.filter(room=room, player=player).exclude(kind=Seat.Kind.BOT).first()
    if seat is None:
        return None
    guest = guest_key(session)
    if seat.guest_key != guest:
        old = seat.guest_key
        Seat.objects.filter(pk=seat.pk).update(guest_key=guest)
        if room.host_key and room.host_key == old:
            Room.objects.filter(pk=room.pk).update(host_key=guest)
        seat.guest_key = guest
        broadcast.send_room_changed(room.code)
    return seat


# --- the scan ---------------------------------------------------------------------------

@dataclass
class ScanResult:
    moves: int = 0  # moves played for people out of time, and for computers
    reminders: int = 0
    notices: int = 0


def scan(server: str) -> ScanResult:
    """One pass: moves out of time, reminders due, notices to send."""
    from . import notices

    found = ScanResult()
    now = clock.now()
    for game_id in (Game.objects.filter(status=Game.Status.PLAYING, move_deadline__lte=now)
                    .order_by("move_deadline").values_list("id", flat=True)[:SCAN_BATCH]):
        found.moves += play_overdue(game_id)
    for game_id, seq, player_id in (
            Game.objects.filter(status=Game.Status.PLAYING, remind_at__lte=now,
                                waiting_for__isnull=False)
            .values_list("id", "seq", "waiting_for_id")[:SCAN_BATCH]):
        found.reminders += remind(game_id, seq, player_id)
    found.notices = notices.send_due(server)
    return found


def remind(game_id: int, seq: int, player_id: int) -> int:
    """The reminder of the move ``player_id`` has had since ``seq``, made once (1 if made
    here)."""
    with transaction.atomic():
        # Only while the same turn runs: a move since leaves the reminder to the next turn.
        if not Game.objects.filter(pk=game_id, seq=seq, waiting_for_id=player_id).update(
                remind_at=None):
            return 0
        _, made = Notification.objects.get_or_create(
            game_id=game_id, seq=seq, player_id=player_id, kind=Notification.Kind.REMINDER)
    return int(made)


def play_overdue(game_id: int) -> int:
    """Play the turns of game ``game_id`` that are due: its person's, out of time, then the
    computers' that follow; returns the moves played here. Another process playing them too
    loses nothing: each move is conditional on the game's ``seq``."""
    from ..ai import choose_action, table_ready
    from ..rules import get_ruleset
    from .games import load_for_decision, play

    room_code = Room.objects.filter(games__id=game_id).values_list("code", flat=True).first()
    moves = 0
    told: set[int] = set()  # the seats told their turn was played for them (one turn each)
    while room_code is not None:
        loaded = load_for_decision(room_code)
        if loaded is None:
            break
        game_row, game = loaded
        if (game_row.pk != game_id or game_row.status != Game.Status.PLAYING
                or game_row.move_deadline is None or game_row.move_deadline > clock.now()):
            break
        seat = Seat.objects.filter(room_id=game_row.room_id, index=game.current_player).first()
        if seat is None:
            break
        if seat.is_bot:
            level, by = seat.bot_level or "easy", GameEvent.By.BOT
        else:
            level, by = settings.AUTOPLAY_LEVEL, GameEvent.By.AUTOPLAY
        if not table_ready(get_ruleset(game_row.rules)) and level in ("optimal", "to_win"):
            level = "medium"  # never a table's build on the scan: it has other games to play
        try:
            play(room_code, choose_action(game, level), seat_index=seat.index, by=by,
                 expected_seq=game_row.seq)
        except ServiceError as exc:
            if exc.code == "stale":
                continue  # moved meanwhile (a person, or another process): look again
            raise
        moves += 1
        if by == GameEvent.By.AUTOPLAY and seat.player_id is not None and seat.index not in told:
            told.add(seat.index)
            # Known by the turn's start: a server that played another move of the same turn
            # makes the same notice, not a second one.
            Notification.objects.get_or_create(
                game_id=game_id, seq=_turn_start(game_id, game_row.seq),
                player_id=seat.player_id, kind=Notification.Kind.TIMED_OUT)
    return moves


def _turn_start(game_id: int, seq: int) -> int:
    """The seq of the ``turn_started`` of the turn running at ``seq``."""
    found = (GameEvent.objects.filter(game_id=game_id, kind="turn_started", seq__lte=seq)
             .order_by("-seq").values_list("seq", flat=True).first())
    return found if found is not None else seq


def start_scanning(every: float) -> threading.Thread:
    """In a server process: :func:`scan` now, then every ``every`` seconds, on a thread of its
    own (with its own database connection)."""
    from .presence import THIS_SERVER

    return periodic.every(every, lambda: scan(THIS_SERVER), name="correspondence-scan")
