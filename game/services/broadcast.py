"""Sending to a room's channel-layer group, only ever after the database has committed.

The layer is not trusted to be lossless (clients resync on a ``seq`` gap), so a failed send is
logged and swallowed: what is stored stays stored, and the command still succeeded. Nothing
waits on the layer for long: a Redis that is down refuses at once, one that stopped answering
times out (10 s, settings; ``LAYER_TIMEOUT`` whatever happens), and once a send failed only
one send per ``LAYER_RETRY`` seconds tries the layer, the others are dropped at once. The
timeouts are long on purpose: a send that fails is a message lost, and on a loaded machine a
healthy Redis's reply took over 2 s (docs/benchmarks.md). A command's sender never waits on
them: its result reaches it from its own server first (``game.realtime.moves``).
``game.realtime.heartbeat`` watches the layer and, when it answers again, has every socket of
its process catch up.
"""

from __future__ import annotations

import asyncio
import logging
import time
import uuid
import weakref
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from .. import protocol

if TYPE_CHECKING:
    from ..domain.advice import Advice
    from ..domain.games import GameStandings, PlayResult
    from ..domain.rooms import Presence

log = logging.getLogger(__name__)


#: Seconds one operation on the channel layer may take before it counts as failed (a send,
#: a socket joining or leaving its room's group): a net beside the connections' own timeouts.
LAYER_TIMEOUT = 10.0
#: While the layer is away, one send in this many seconds tries it; the rest are dropped.
LAYER_RETRY = 1.0

@dataclass
class _Health:
    """What one event loop (a server process has one) knows of its channel layer."""

    #: When the layer last failed, while it has not answered since (None: it answers).
    away_since: float | None = None
    #: When a send last tried the layer while it was away.
    tried_at: float = 0.0
    #: Whether a send was lost since ``take_dropped`` last looked (the rooms must catch up).
    dropped: bool = False


#: Per event loop, as the layer's own connections (a test runs one loop after another).
_health: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Health] = (
    weakref.WeakKeyDictionary())


def _here() -> _Health:
    return _health.setdefault(asyncio.get_running_loop(), _Health())


def group_name(room_code: str) -> str:
    return f"room.{room_code}"


def layer_away() -> bool:
    """Whether this process's last use of the channel layer failed (Redis away)."""
    return _here().away_since is not None


def take_dropped() -> bool:
    """Whether a send was lost since the last call (the layer away, or failing)."""
    health = _here()
    dropped, health.dropped = health.dropped, False
    return dropped


def layer_failed(what: str) -> None:
    """The layer failed ``what``: from now on sends are tried once per ``LAYER_RETRY``."""
    health = _here()
    if health.away_since is None:
        health.away_since = time.monotonic()
        log.warning("the channel layer is away (%s): sends are dropped until it answers", what,
                    exc_info=True)


def layer_answered() -> None:
    """The layer did what was asked: sends go to it again."""
    health = _here()
    if health.away_since is not None:
        log.warning("the channel layer answers again after %.1f s",
                    time.monotonic() - health.away_since)
        health.away_since = None


async def within_timeout(what: str, operation: Any) -> bool:
    """Await ``operation`` (a coroutine on the layer) for at most ``LAYER_TIMEOUT`` seconds:
    False, and the layer counted away, if it failed or took longer."""
    try:
        # A timeout scope, not ``wait_for``: no task of its own for every send.
        async with asyncio.timeout(LAYER_TIMEOUT):
            await operation
    except Exception:  # noqa: BLE001 - the DB is the truth; clients resync on a gap
        layer_failed(what)
        return False
    return True


async def agroup_send(room_code: str, message: dict[str, Any]) -> bool:
    """Send ``message`` to the room's group; False if it did not go (the layer is away)."""
    layer = get_channel_layer()
    if layer is None:
        return True
    health = _here()
    if health.away_since is not None and time.monotonic() - health.tried_at < LAYER_RETRY:
        health.dropped = True
        return False
    health.tried_at = time.monotonic()
    sent = await within_timeout(
        f"a send to room {room_code}", layer.group_send(group_name(room_code), message))
    if sent:
        layer_answered()
    else:
        health.dropped = True
    return sent


async def agroup_add(room_code: str, channel_name: str) -> bool:
    """Put a socket's channel in its room's group; False if the layer is away."""
    layer = get_channel_layer()
    return layer is None or await within_timeout(
        "a socket joining its room", layer.group_add(group_name(room_code), channel_name))


async def agroup_discard(room_code: str, channel_name: str) -> bool:
    """Take a socket's channel out of its room's group; False if the layer is away."""
    layer = get_channel_layer()
    return layer is None or await within_timeout(
        "a socket leaving its room", layer.group_discard(group_name(room_code), channel_name))


def group_send(room_code: str, message: dict[str, Any]) -> bool:
    """From synchronous code (services run in a worker thread, or in a view)."""
    return async_to_sync(agroup_send)(room_code, message)


def events_message(result: PlayResult) -> dict[str, Any] | None:
    """The group message of one command's ``events`` frame (None for a repeat), JSON encoded
    once by the sender rather than by each of the room's sockets, with where the turn stands
    after it (what each socket checks a ``hold`` against). The event loop may add the turn's
    ``standings`` frame to it (``game.realtime.insight_publisher``)."""
    frame = protocol.events(result)
    if frame is None:
        return None
    return {"type": "game.events", "texts": [protocol.encode(frame)],
            "turn": protocol.turn_of(result.state), "first": result.first_seq}


def send_events(room_code: str, result: PlayResult) -> None:
    """One command's ``events`` frame, from synchronous code."""
    message = events_message(result)
    if message is not None:
        group_send(room_code, message)


async def asend_events(room_code: str, message: dict[str, Any] | None) -> bool:
    """One command's group message (``events_message``, built off the event loop); False if
    it did not go."""
    return message is None or await agroup_send(room_code, message)


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
    frame = protocol.presence(found)
    # Encoded once here, not once per socket; each socket reads who is here from the frame.
    await agroup_send(room_code, {"type": "room.presence", "message": frame,
                                  "text": protocol.encode(frame)})


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
