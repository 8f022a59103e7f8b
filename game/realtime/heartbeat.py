"""One presence heartbeat per server process, for all of its sockets.

Every socket's ``Connection`` row must be refreshed within ``selectors.STALE_AFTER``. A timer per
socket cost a transaction per socket every beat (35 a second at 700 sockets); one beat per
process refreshes all of them in one transaction. Then, for all rooms with a socket here at
once, it passes on presence changes nobody announced (a server that died) and kicks the turn
driver where a bot sits or a seated player is away, so their turns move on; a host away past
the grace hands the role to a player who is here (``services.pass_host_roles``).

It also watches the channel layer: every ``LAYER_PROBE_SECONDS`` a message goes through it to
this process and back. While that fails (Redis away) sends are dropped at once
(``services.broadcast``); when it works again after messages were lost, every socket of this
process gets the room's fresh ``state`` (``room.changed``), so the rooms catch up without a
client having to notice a gap.
"""

from __future__ import annotations

import asyncio
import logging
import uuid

from channels.layers import get_channel_layer
from django.conf import settings

from .. import protocol, selectors, services
from ..models import Room
from ..protocol.client import who_is_here
from . import turn_driver
from .db_threads import in_db_thread

log = logging.getLogger(__name__)

#: This process's open sockets: channel name -> (room, guest key).
_sockets: dict[str, tuple[Room, str]] = {}
#: Who was here by the last presence message of each room this process sent or received.
_last_presence: dict[str, tuple[object, ...]] = {}
_task: asyncio.Task | None = None
#: This process's liveness beat (``services.server_beat``), while it holds sockets.
_server_task: asyncio.Task | None = None
#: The channel layer's watch, while this process holds sockets.
_layer_task: asyncio.Task | None = None
#: Seconds between two round trips through the channel layer.
LAYER_PROBE_SECONDS = 1.0
#: Seconds a round trip may take before its message counts as lost: a message sent while
#: the layer's subscriptions come back after an outage is, and the next trip (on a channel
#: of its own) then shows them back. Taken for lost, a late one costs a ``state`` per socket,
#: never a message.
PROBE_WAIT = 3.0
#: This process's own channel the round trips go through (made again after one failed).
_probe_channel: str | None = None
#: Whether messages to this process's sockets may have been lost since they last caught up.
_behind = False


def register(channel_name: str, room: Room, guest: str) -> None:
    """Keep this socket's presence fresh from now on (call from the event loop)."""
    global _task, _server_task, _layer_task
    _sockets[channel_name] = (room, guest)
    loop = asyncio.get_running_loop()
    if _task is None or _task.done() or _task.get_loop() is not loop:
        _task = loop.create_task(_beat_forever(), name="presence-heartbeat")
    if _server_task is None or _server_task.done() or _server_task.get_loop() is not loop:
        _server_task = loop.create_task(_server_beat_forever(), name="server-beat")
    if _layer_task is None or _layer_task.done() or _layer_task.get_loop() is not loop:
        _layer_task = loop.create_task(_watch_layer_forever(), name="layer-watch")


def unregister(channel_name: str) -> None:
    global _task, _server_task, _layer_task
    _sockets.pop(channel_name, None)
    if not _sockets and _task is not None:
        _task.cancel()  # the next socket starts a new one
        _task = None
    if not _sockets and _server_task is not None:
        _server_task.cancel()
        _server_task = None
    if not _sockets and _layer_task is not None:
        _layer_task.cancel()
        _layer_task = None


def saw_presence(room_code: str, message: protocol.Frame) -> None:
    _last_presence[room_code] = who_is_here(message)


async def _beat_forever() -> None:
    while True:
        await asyncio.sleep(services.HEARTBEAT_SECONDS)
        try:
            await beat()
        except Exception:  # noqa: BLE001 - a failed beat must not stop the next ones
            log.warning("presence heartbeat failed", exc_info=True)


async def _server_beat_forever() -> None:
    """Say this process is alive, now and every ``SERVER_BEAT`` seconds. When a crashed
    server's sockets were swept (or this one's, taken for dead), a presence beat at once: rooms
    hear who is gone, and their bots and away players' turns move on here."""
    while True:
        try:
            taken_for_dead, lost = await in_db_thread(services.server_beat)()
            rooms_here = {room.pk for room, _ in _sockets.values()}
            if taken_for_dead or lost & rooms_here:
                await beat()
        except Exception:  # noqa: BLE001 - a failed beat must not stop the next ones
            log.warning("server beat failed", exc_info=True)
        await asyncio.sleep(settings.SERVER_BEAT)


async def _watch_layer_forever() -> None:
    global _probe_channel, _behind
    # A new loop (a test's; a process whose sockets all closed): what an earlier watch knew
    # of its own loop's layer does not hold here.
    _probe_channel, _behind = None, False
    while True:
        try:
            await watch_layer()
        except Exception:  # noqa: BLE001 - a failed look must not stop the next ones
            log.warning("channel layer watch failed", exc_info=True)
        await asyncio.sleep(LAYER_PROBE_SECONDS)


async def watch_layer() -> None:
    """One round trip through the layer; when it works after messages were lost, every socket
    of this process gets the room's fresh state."""
    global _behind
    trip = await _round_trip()
    if trip == "error":
        _behind = True  # whatever was sent to this process's sockets meanwhile is lost
        services.layer_failed("a round trip through it")
        return
    if trip == "silent":  # sends work, nothing comes back: messages are being lost
        _behind = True
        return
    services.layer_answered()
    if services.take_dropped():  # a send of this process was lost: its own sockets too
        _behind = True
    if _behind:
        _behind = not await catch_up()


async def _round_trip() -> str:
    """A message through the layer to this process's own channel and back: "ok", "error"
    (the layer refused: Redis away) or "silent" (nothing back within ``PROBE_WAIT``)."""
    global _probe_channel
    layer = get_channel_layer()
    if layer is None:
        return "ok"
    token = uuid.uuid4().hex
    try:
        if _probe_channel is None:
            _probe_channel = await asyncio.wait_for(
                layer.new_channel("layer-probe."), services.LAYER_TIMEOUT)
        await asyncio.wait_for(layer.send(_probe_channel, {"type": "probe", "token": token}),
                               services.LAYER_TIMEOUT)
    except Exception:  # noqa: BLE001 - Redis away
        return "error"
    try:
        async with asyncio.timeout(PROBE_WAIT):
            while (await layer.receive(_probe_channel)).get("token") != token:
                pass  # an earlier round trip's message, come late
    except Exception:  # noqa: BLE001 - a receive cut short forgets its channel (channels_redis)
        _probe_channel = None
        return "silent"
    return "ok"


async def catch_up() -> bool:
    """Every socket of this process gets its room's state (``room.changed``: read once per
    room for all of them), as after a change it did not hear of; False if the layer failed
    again meanwhile."""
    layer = get_channel_layer()
    log.warning("the channel layer carries messages again: %d sockets catch up", len(_sockets))
    for name in list(_sockets):
        if not await services.within_timeout(
                "a socket catching up", layer.send(name, {"type": "room.changed"})):
            return False
    return True


async def beat() -> None:
    """Refresh every socket of this process; then per room, announce presence changes and
    kick the turn driver where a bot or an away player may have a turn to play."""
    sockets = dict(_sockets)
    if not sockets:
        return
    missing = await in_db_thread(services.refresh_sockets)(sockets)
    for name in missing & _sockets.keys():  # still open: its row was swept, register again
        room, guest = _sockets[name]
        await in_db_thread(services.socket_restored)(room, name, guest)
    rooms = {room.pk: room for room, _ in sockets.values()}
    found = await in_db_thread(selectors.presences)(rooms.values())
    for code, (presence, driver_needed) in found.items():
        here = who_is_here(protocol.presence(presence))
        if here != _last_presence.get(code):
            _last_presence[code] = here
            await services.asend_presence(code, presence)
        if driver_needed:
            turn_driver.kick(code)
    for code in await in_db_thread(services.pass_host_roles)(rooms.values()):
        await services.asend_room_changed(code)
    for code in _last_presence.keys() - found.keys():
        del _last_presence[code]
