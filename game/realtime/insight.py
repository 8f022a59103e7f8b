"""Live insight for the event loop: the standings after each turn (``game.services.insight``)
and, in practice rooms, the coach's advice after each roll (``game.services.coach``). Computed
on the insight thread after the events went out, then sent to the room's group; nothing waits
for them. A game's standings are computed once at a time: turns that end meanwhile are folded
into one more computation, of the game as it then stands."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Coroutine
from typing import Any

from .. import services
from .db_threads import in_insight_thread

log = logging.getLogger(__name__)

#: Events after which where everyone stands has changed.
TURN_ENDS = ("turn_started", "game_finished")
_running: set[asyncio.Task[None]] = set()  # referenced until done (the loop keeps weak ones)
#: Games whose standings are being computed, and those of them whose turn ended again since.
_publishing: set[int] = set()
_again: set[int] = set()


def spawn(job: Coroutine[Any, Any, None]) -> None:
    task = asyncio.get_running_loop().create_task(job)
    _running.add(task)
    task.add_done_callback(_running.discard)


def after_events(room_code: str, result: services.PlayResult) -> None:
    """After a command's events were broadcast: if a turn ended, publish the standings (where
    the rules have them and their table is ready: no query otherwise)."""
    if (result.messages and result.state is not None
            and result.messages[-1]["event"]["kind"] in TURN_ENDS
            and services.standings_available(result.state["rules"])):
        game_id = result.state["id"]
        if game_id in _publishing:
            _again.add(game_id)
            return
        _publishing.add(game_id)
        spawn(_publish_until_current(room_code, game_id, result.state["rules"]))


async def _publish_until_current(room_code: str, game_id: int, rules: str) -> None:
    try:
        while True:
            _again.discard(game_id)
            await _publish(room_code, game_id, rules)
            if game_id not in _again:
                return
    finally:
        _publishing.discard(game_id)


async def _computed(what: Any, *args: Any) -> dict[str, Any] | None:
    game_id = args[0]
    try:
        message: dict[str, Any] | None = await in_insight_thread(what)(*args)
    except Exception:  # noqa: BLE001 - insight is a bonus: a failure must not touch the game
        log.exception("game %s: %s failed", game_id, what.__name__)
        return None
    return message


async def standings_text(game_id: int, rules: str) -> str | None:
    if not services.standings_available(rules):
        return None
    message = await _computed(services.standings_message, game_id)
    return json.dumps(message) if message else None


async def advice(game_id: int) -> tuple[int, str] | None:
    """The coach's advice for the player to move (their index, the frame), or None."""
    message = await _computed(services.advice_message, game_id)
    return (message["player"], json.dumps(message)) if message else None


def after_roll(room_code: str, game_id: int) -> None:
    """In a practice room, after the player to move rolled: the coach's numbers, to them."""
    spawn(_coach(room_code, game_id))


async def _coach(room_code: str, game_id: int) -> None:
    found = await advice(game_id)
    if found:
        await services.asend_advice(room_code, *found)


async def _publish(room_code: str, game_id: int, rules: str) -> None:
    text = await standings_text(game_id, rules)
    if text:
        await services.asend_standings(room_code, text)
