"""Live standings for the event loop: computed on a database thread after a turn's events went
out, then sent to the room's group (``game.services.insight``). Nothing waits for them."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Coroutine
from typing import Any

from .. import services
from .db_threads import in_db_thread

log = logging.getLogger(__name__)

#: Events after which where everyone stands has changed.
TURN_ENDS = ("turn_started", "game_finished")
_running: set[asyncio.Task[None]] = set()  # referenced until done (the loop keeps weak ones)


def spawn(job: Coroutine[Any, Any, None]) -> None:
    task = asyncio.get_running_loop().create_task(job)
    _running.add(task)
    task.add_done_callback(_running.discard)


def after_events(room_code: str, messages: list[dict[str, Any]]) -> None:
    """After a command's events were broadcast: if a turn ended, publish the standings."""
    if messages and messages[-1]["event"]["kind"] in TURN_ENDS:
        spawn(_publish(room_code, messages[-1]["game"]["id"]))


async def standings_text(game_id: int) -> str | None:
    try:
        message = await in_db_thread(services.standings_message)(game_id)
    except Exception:  # noqa: BLE001 - insight is a bonus: a failure must not touch the game
        log.exception("game %s: the standings could not be computed", game_id)
        return None
    return json.dumps(message) if message else None


async def _publish(room_code: str, game_id: int) -> None:
    text = await standings_text(game_id)
    if text:
        await services.asend_standings(room_code, text)
