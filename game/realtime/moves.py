"""A move (a roll or a score) from the event loop: the consumer's and the turn driver's one way
to play."""

from __future__ import annotations

import asyncio
import contextlib
import weakref
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


#: Per sender, its last command's broadcast (the next one waits for it).
_broadcasts: weakref.WeakKeyDictionary[Sender, asyncio.Task[None]] = weakref.WeakKeyDictionary()
_running: set[asyncio.Task[None]] = set()  # the loop keeps only weak references to tasks


async def _broadcast(room_code: str, message: dict[str, Any], sender: Sender,
                     delivered: bool, previous: asyncio.Task[None] | None,
                     sent: asyncio.Future[None]) -> None:
    try:
        if previous is not None:
            with contextlib.suppress(Exception):
                await previous
        gone = await services.asend_events(room_code, message)
    finally:
        _done(sent)
    if not gone and not delivered:
        await sender.resync()


def _done(sent: asyncio.Future[None]) -> None:
    if not sent.done():
        sent.set_result(None)


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
    if message is None:
        return result
    # The mover's own frame first: the standings never hold it up.
    delivered = sender is not None and await sender.deliver(message)
    sent = asyncio.get_running_loop().create_future()  # standings published later follow it
    standings = after_events(room_code, result, sent)
    if standings is not None:  # known at once: one group message carries both
        message["standings"] = standings
    if sender is None:
        try:
            await services.asend_events(room_code, message)
        finally:
            _done(sent)
    else:
        # The group's copy off the socket's path: a Redis that stopped answering holds up
        # the broadcast (up to its timeout), never the sender's next command. Chained, so a
        # socket's commands reach the group in their order.
        previous = _broadcasts.get(sender)
        task = asyncio.create_task(_broadcast(room_code, message, sender, delivered, previous,
                                              sent))
        _broadcasts[sender] = task
        _running.add(task)
        task.add_done_callback(_running.discard)
    return result
