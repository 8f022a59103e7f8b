"""One presence heartbeat per server process, for all of its sockets.

Every socket's ``Connection`` row must be refreshed within ``selectors.STALE_AFTER``. A timer per
socket cost a transaction per socket every beat (35 a second at 700 sockets); one beat per
process refreshes all of them in one transaction. Then, for all rooms with a socket here at
once, it passes on presence changes nobody announced (a server that died) and kicks the turn
driver where a bot sits or a seated player is away, so their turns move on; a host away past
the grace hands the role to a player who is here (``services.pass_host_roles``).
"""

from __future__ import annotations

import asyncio
import logging

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


def register(channel_name: str, room: Room, guest: str) -> None:
    """Keep this socket's presence fresh from now on (call from the event loop)."""
    global _task, _server_task
    _sockets[channel_name] = (room, guest)
    loop = asyncio.get_running_loop()
    if _task is None or _task.done() or _task.get_loop() is not loop:
        _task = loop.create_task(_beat_forever(), name="presence-heartbeat")
    if _server_task is None or _server_task.done() or _server_task.get_loop() is not loop:
        _server_task = loop.create_task(_server_beat_forever(), name="server-beat")


def unregister(channel_name: str) -> None:
    global _task, _server_task
    _sockets.pop(channel_name, None)
    if not _sockets and _task is not None:
        _task.cancel()  # the next socket starts a new one
        _task = None
    if not _sockets and _server_task is not None:
        _server_task.cancel()
        _server_task = None


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
