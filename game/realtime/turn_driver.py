"""Drives computer players and away players' turns, through the same services as people.

Any process may ``kick`` a room (after a command, on connect, disconnect and heartbeat); the
kick runs one asyncio task per room in this process, which plays what
``selectors.next_move.next_plan`` decides: the bot's move, or for a person away for longer
than ``AWAY_GRACE`` or out of the room's turn time, the ``AUTOPLAY_LEVEL`` bot's (optimal by
default, marked ``autoplay``).
Every action is conditional on the game's ``seq`` the decision was made from, and commands run
under the game's row lock, so two drivers (two processes, or a race here) never play a turn
twice: the loser gets ``stale`` and looks again. Decisions run in a worker thread, the ORM on
the database threads (``db_threads``). The first decision of an optimal or to-win bot in a
fresh data directory waits for its strategy table (a minute or more to build, by ``make run``'s
background build or by this process): meanwhile the room gets a ``preparing`` frame every
second with the build's progress, so nobody waits in silence; other rooms and other bots go
on. The to-win bot never waits for the score table: without it, it plays from the standings'
estimates.
"""

from __future__ import annotations

import asyncio
import logging

from asgiref.sync import sync_to_async
from django.conf import settings

from .. import protocol, services
from ..rules import Action, RulesError
from ..rules import Game as RulesGame
from ..selectors.next_move import Plan, next_plan
from .db_threads import in_db_thread
from .moves import aplay

log = logging.getLogger(__name__)

#: How often a room whose computer player waits for a strategy table hears how far it is.
PREPARING_EVERY = 1.0

_tasks: dict[str, asyncio.Task] = {}
_again: set[str] = set()
_timers: dict[str, asyncio.TimerHandle] = {}
#: The turns being played at the host's request (kept referenced until they end).
_away_tasks: set[asyncio.Task] = set()


def decide(game: RulesGame, level: str) -> Action:
    """The bot's move (sync; may build a strategy table the first time)."""
    from ..ai import choose_action  # imported late: the table code is heavy

    return choose_action(game, level)


async def _decide_visibly(room_code: str, rules: str, game: RulesGame, plan: Plan) -> Action:
    """``decide`` in a worker thread; while it waits for a strategy table being built (here or
    in another process), tell the room how far the build is."""
    from ..ai import TABLE_LEVELS  # imported late, as in ``decide``
    from ..ai.storage import build_progress

    decision = asyncio.ensure_future(
        sync_to_async(decide, thread_sensitive=False)(game, plan.level))
    if plan.level not in TABLE_LEVELS:
        return await decision  # no table to wait for
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
        await services.asend_frame(
            room_code, protocol.preparing(plan.seat, name, rules, percent))
    if told:
        await services.asend_frame(room_code, protocol.preparing(plan.seat, name, rules, 100.0))
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


async def _play(room_code: str, plan: Plan) -> None:
    """One move of ``plan``, if nobody moved since it was made (else nothing: plan again)."""
    loaded = await in_db_thread(services.load_for_decision)(room_code)
    if loaded is None or loaded[0].seq != plan.seq:
        return
    action = await _decide_visibly(room_code, loaded[0].rules, loaded[1], plan)
    try:
        await aplay(room_code, action, seat_index=plan.seat, by=plan.by, expected_seq=plan.seq)
    except services.ServiceError as exc:
        if exc.code != "stale":
            raise


async def play_for_away(room_code: str, guest: str | None) -> None:
    """The host's ``play_for_away``: checked now (``services.play_for_away``'s refusals
    raise here, for the socket's ``error``), then the computer plays the away player's whole
    turn at once, in a task of its own. Every move is conditional on its seq, as the driver's."""
    plan = await in_db_thread(services.play_for_away)(room_code, guest)
    task = asyncio.get_running_loop().create_task(
        _play_turn(room_code, guest, plan), name=f"away:{room_code}")
    _away_tasks.add(task)
    task.add_done_callback(_away_tasks.discard)


async def _play_turn(room_code: str, guest: str | None, plan: Plan) -> None:
    try:
        while True:
            await _play(room_code, plan)
            try:
                after = await in_db_thread(services.play_for_away)(room_code, guest)
            except services.ServiceError:
                return  # the game ended, the player came back, or the host is another
            if after.seat != plan.seat or after.seq == plan.seq:
                return  # the turn passed (or nothing moved: the driver takes it from here)
            plan = after
            if settings.BOT_DELAY:  # the next move after the usual pause, so people follow
                await asyncio.sleep(float(settings.BOT_DELAY))
    except asyncio.CancelledError:
        raise
    except Exception:
        log.exception("playing for an away player in room %s failed", room_code)
    finally:
        kick(room_code)


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
            await _play(room_code, plan)
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
