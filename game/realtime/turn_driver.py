"""Drives computer players and away players' turns, through the same services as people.

Any process may ``kick`` a room (after a command, on connect, disconnect and heartbeat); the
kick runs one asyncio task per room in this process, which plays while the player to move is a
bot — or a person away for longer than ``AWAY_GRACE``, or out of the room's turn time (by the
``AUTOPLAY_LEVEL`` bot, optimal by default, marked ``autoplay``).
Every action is conditional on the game's ``seq`` the decision was made from, and commands run
under the game's row lock, so two drivers (two processes, or a race here) never play a turn
twice: the loser gets ``stale`` and looks again. Decisions run in a worker thread, the ORM on
the database threads (``db_threads``). The optimal bot's first decision in a fresh data
directory waits for its strategy table (a minute or more to build, by ``make run``'s background
build or by this process): meanwhile the room gets a ``preparing`` frame every second with the
build's progress, so nobody waits in silence; other rooms and other bots go on.
"""

from __future__ import annotations

import asyncio
import logging
import random
from dataclasses import dataclass
from datetime import timedelta

from asgiref.sync import sync_to_async
from django.conf import settings
from django.utils import timezone

from .. import services
from ..models import GameEvent, Room, Seat
from ..rules import Action, RulesError
from ..rules import Game as RulesGame
from ..selectors import (
    connected_guests,
    current_game,
    others_here,
    someone_here,
    turn_deadline,
)
from .db_threads import aplay, in_db_thread

log = logging.getLogger(__name__)

#: How often a room whose computer player waits for a strategy table hears how far it is.
PREPARING_EVERY = 1.0

_tasks: dict[str, asyncio.Task] = {}
_again: set[str] = set()
_timers: dict[str, asyncio.TimerHandle] = {}


@dataclass(frozen=True)
class Plan:
    """What to do next in a room: play ``seat`` at ``level`` from ``seq``, or wait."""

    seq: int = 0
    seat: int = 0
    level: str = ""
    by: str = GameEvent.By.BOT  # type: ignore[assignment]  # a TextChoices member is a str; untyped Django shows a tuple
    wait: float | None = None


def next_plan(room_code: str) -> Plan | None:
    """Whose move it is and whether this server should make it (sync: ORM)."""
    room = Room.objects.filter(code=room_code).first()
    if room is None or room.status != Room.Status.PLAYING:
        return None
    game_row = current_game(room)
    if game_row is None or game_row.snapshot.get("finished"):
        return None
    player = game_row.snapshot.get("current_player")
    seat = Seat.objects.filter(room=room, index=player).first()
    if seat is None:
        return None
    if seat.is_bot:
        if not someone_here(room):
            return None  # nobody is here: the game pauses, and goes on when someone comes
        return Plan(seq=game_row.seq, seat=seat.index, level=seat.bot_level or "easy")
    # A person: autoplay takes the turn once they have been away for AWAY_GRACE (while someone
    # else is here to wait for them), or once the room's turn time ran out.
    deadline = turn_deadline(room, game_row)
    due = deadline
    if not (seat.guest_key and seat.guest_key in connected_guests(room)):
        if not others_here(room, seat.guest_key):
            return None  # nobody is waiting for them: the game waits too
        away_since = seat.last_seen or game_row.created
        away_due = away_since + timedelta(seconds=float(settings.AWAY_GRACE))
        due = away_due if deadline is None else min(away_due, deadline)
    if due is None:
        return None  # their move, no turn time: nothing to do until they make it
    now = timezone.now()
    if now < due:
        return Plan(wait=(due - now).total_seconds())
    return Plan(seq=game_row.seq, seat=seat.index, level=settings.AUTOPLAY_LEVEL,
                by=GameEvent.By.AUTOPLAY)  # type: ignore[arg-type]  # as above: a str


def decide(game: RulesGame, level: str, seq: int) -> Action:
    """The bot's move (sync; may build a strategy table the first time)."""
    from ..ai import choose_action  # imported late: the table code is heavy

    rng = random.Random(f"{settings.DICE_SEED}:bot:{seq}") if settings.DICE_SEED else None
    return choose_action(game, level, rng)


async def _decide_visibly(room_code: str, rules: str, game: RulesGame, plan: Plan) -> Action:
    """``decide`` in a worker thread; while it waits for a strategy table being built (here or
    in another process), tell the room how far the build is."""
    from ..ai.storage import build_progress  # imported late, as in ``decide``

    decision = asyncio.ensure_future(
        sync_to_async(decide, thread_sensitive=False)(game, plan.level, plan.seq))
    if plan.level != "optimal":
        return await decision  # only the optimal bot reads a table
    name = game.players[plan.seat] if plan.seat < len(game.players) else "The computer"
    if plan.by == "autoplay":
        name = f"The computer playing for {name}"
    told = False
    while True:
        done, _ = await asyncio.wait({decision}, timeout=PREPARING_EVERY)
        if done:
            break
        percent = build_progress(rules)
        if percent is None:
            continue  # thinking, not waiting for a table
        told = True
        await services.asend_frame(room_code, {
            "type": "preparing", "seat": plan.seat, "name": name, "rules": rules,
            "percent": round(percent, 1)})
    if told:
        await services.asend_frame(room_code, {
            "type": "preparing", "seat": plan.seat, "name": name, "rules": rules,
            "percent": 100.0})
    return decision.result()


def kick(room_code: str) -> None:
    """Make sure this process looks at the room's next move soon (call from the event loop)."""
    loop = asyncio.get_running_loop()
    task = _tasks.get(room_code)
    if task is not None and not task.done() and task.get_loop() is loop:
        _again.add(room_code)  # look again when the running pass ends
        return
    _tasks[room_code] = loop.create_task(_drive(room_code), name=f"bots:{room_code}")


def _wake_later(room_code: str, seconds: float) -> None:
    _forget_timer(room_code)
    loop = asyncio.get_running_loop()
    _timers[room_code] = loop.call_later(seconds + 0.05, _wake, room_code)


def _wake(room_code: str) -> None:
    del _timers[room_code]  # fired: a room is kept only while it has a timer pending
    kick(room_code)


def _forget_timer(room_code: str) -> None:
    old = _timers.pop(room_code, None)
    if old is not None:
        old.cancel()


async def _drive(room_code: str) -> None:
    try:
        while True:
            plan = await in_db_thread(next_plan)(room_code)
            if plan is None:
                _forget_timer(room_code)  # nothing to wait for here (a game over, say)
                return
            if plan.wait is not None:
                _wake_later(room_code, plan.wait)
                return
            if settings.BOT_DELAY:
                await asyncio.sleep(float(settings.BOT_DELAY))
            loaded = await in_db_thread(services.load_for_decision)(room_code)
            if loaded is None or loaded[0].seq != plan.seq:
                continue  # someone moved meanwhile: plan again
            action = await _decide_visibly(room_code, loaded[0].rules, loaded[1], plan)
            try:
                await aplay(
                    room_code, action, seat_index=plan.seat, by=plan.by,
                    expected_seq=plan.seq)
            except services.ServiceError as exc:
                if exc.code != "stale":
                    raise
    except (RulesError, services.ServiceError):
        log.exception("bot in room %s made an illegal move; it stops", room_code)
    except asyncio.CancelledError:
        raise
    except Exception:
        log.exception("bot driver for room %s failed", room_code)
    finally:
        if _tasks.get(room_code) is asyncio.current_task():
            del _tasks[room_code]
        if room_code in _again:
            _again.discard(room_code)
            kick(room_code)
