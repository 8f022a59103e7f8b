"""A move (a roll or a score) from the event loop: the consumer's and the turn driver's one way
to play."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from .. import services
from ..rules import Action
from .db_threads import in_db_thread
from .insight_publisher import after_events


async def aplay(room_code: str, action: Action, *,
                deliver: Callable[[dict[str, Any]], Awaitable[None]] | None = None,
                **command: Any) -> services.PlayResult:
    """``services.play`` for the event loop: the transaction and the JSON encoding on a
    database thread, the broadcast on the loop, so no thread waits for Redis; then the
    standings, if a turn ended. ``deliver`` (the sender's socket) gets the command's group
    message first, from this process: its result never depends on the channel layer."""
    def apply_and_encode() -> tuple[services.PlayResult, dict[str, Any] | None]:
        result = services.apply_command(room_code, action, **command)
        return result, services.events_message(result)

    result, message = await in_db_thread(apply_and_encode)()
    if deliver is not None and message is not None:
        await deliver(message)
    await services.asend_events(room_code, message)
    after_events(room_code, result)
    return result
