"""Sending to a room's channel-layer group, only ever after the database has committed.

The layer is not trusted to be lossless (clients resync on a ``seq`` gap), so a failed send is
logged and swallowed: what is stored stays stored, and the command still succeeded.
"""

from __future__ import annotations

import logging
import uuid
from typing import TYPE_CHECKING, Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from .. import protocol

if TYPE_CHECKING:
    from ..selectors import Presence
    from ..selectors.advice import Advice
    from ..selectors.standings import GameStandings
    from .games import PlayResult

log = logging.getLogger(__name__)


def group_name(room_code: str) -> str:
    return f"room.{room_code}"


async def agroup_send(room_code: str, message: dict[str, Any]) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        await layer.group_send(group_name(room_code), message)
    except Exception:  # noqa: BLE001 - the DB is the truth; clients resync on a gap
        log.warning("group_send to room %s failed", room_code, exc_info=True)


def group_send(room_code: str, message: dict[str, Any]) -> None:
    """From synchronous code (services run in a worker thread, or in a view)."""
    async_to_sync(agroup_send)(room_code, message)


def events_message(result: PlayResult) -> dict[str, Any] | None:
    """The group message of one command's ``events`` frame (None for a repeat), JSON encoded
    once by the sender rather than by each of the room's sockets, with where the turn stands
    after it (what each socket checks a ``hold`` against)."""
    frame = protocol.events(result)
    if frame is None:
        return None
    return {"type": "game.events", "texts": [protocol.encode(frame)],
            "turn": protocol.turn_of(result.state)}


def send_events(room_code: str, result: PlayResult) -> None:
    """One command's ``events`` frame, from synchronous code."""
    message = events_message(result)
    if message is not None:
        group_send(room_code, message)


async def asend_events(room_code: str, message: dict[str, Any] | None) -> None:
    """One command's group message (``events_message``, built off the event loop)."""
    if message is not None:
        await agroup_send(room_code, message)


def send_room_changed(room_code: str) -> None:
    """Seats or the game changed as a whole: every connection sends a fresh ``state``, read
    once per server process for all (game/realtime/room_refresh.py). The id tells a process
    which changes a read of the room covers."""
    group_send(room_code, {"type": "room.changed", "change": uuid.uuid4().hex})


async def asend_room_changed(room_code: str) -> None:
    """``send_room_changed`` from the event loop."""
    await agroup_send(room_code, {"type": "room.changed"})


async def asend_presence(room_code: str, found: Presence) -> None:
    """Who is connected changed: every connection passes the ``presence`` frame on."""
    await agroup_send(room_code, {"type": "room.presence", "message": protocol.presence(found)})


async def asend_standings(room_code: str, found: GameStandings) -> None:
    """Where everyone stands (a ``standings`` frame, encoded once); each socket decides
    whether its person may see it."""
    await agroup_send(room_code, {"type": "room.standings",
                                  "text": protocol.encode(protocol.standings(found))})


async def asend_advice(room_code: str, found: Advice) -> None:
    """The coach's ``advice`` (practice rooms only), for the sockets of its player alone."""
    await agroup_send(room_code, {"type": "room.advice", "player": found.player,
                                  "text": protocol.encode(protocol.advice(found))})


async def asend_frame(room_code: str, frame: dict[str, Any]) -> None:
    """One frame every socket of the room passes on as it is (a notice, never stored:
    ``holding``, ``preparing``), encoded once."""
    await agroup_send(room_code, {"type": "room.frame", "text": protocol.encode(frame)})
