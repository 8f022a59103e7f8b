"""A move (a roll or a score) from the event loop: the consumer's and the turn driver's one way
to play."""

from __future__ import annotations

from typing import Any, Protocol

from .. import services
from ..rules import Action
from .db_threads import in_db_thread
from .insight_publisher import after_events


class Sender(Protocol):
    """The socket a command came from: its result reaches it from its own server."""

    async def deliver(self, message: dict[str, Any]) -> bool:
        """Send the command's group message straight to the socket, before the group gets
        it; False if it must not (events before it are still on their way to the socket)."""

    async def resync(self) -> None:
        """The result reached the socket neither way (the layer is away): the whole state."""


async def aplay(room_code: str, action: Action, *, sender: Sender | None = None,
                **command: Any) -> services.PlayResult:
    """``services.play`` for the event loop: the transaction and the JSON encoding on a
    database thread, the broadcast on the loop, so no thread waits for Redis; then the
    standings, if a turn ended. The ``sender`` gets the result from this process whatever
    the channel layer does with the group's copy."""
    def apply_and_encode() -> tuple[services.PlayResult, dict[str, Any] | None]:
        result = services.apply_command(room_code, action, **command)
        return result, services.events_message(result)

    result, message = await in_db_thread(apply_and_encode)()
    delivered = sender is not None and message is not None and await sender.deliver(message)
    sent = await services.asend_events(room_code, message)
    if sender is not None and message is not None and not delivered and not sent:
        await sender.resync()
    after_events(room_code, result)
    return result
