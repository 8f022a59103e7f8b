"""One read of a changed room per window, shared by all of this process's sockets to it.

A room change (seats, options, a seed, a new game) reaches every socket of the room as
``room.changed``, and each answers with a full ``state``. Read once per socket, a client
changing its seed in a loop made every watcher of the room rebuild the room from the
database (docs/benchmarks.md). Here the sockets of one room in one process wait for one
shared read, started ``WS_ROOM_REFRESH_WINDOW`` seconds after the first change it answers
(trailing edge: a change first seen once a read started waits for the next one, so the last
change always reaches every socket; reads of a room start at least a window apart). The
``state`` of a read is built and encoded once per ``you`` (a seat, the host role): every
watcher sees the same frame, so a room's hundred watchers cost one encoding, not one per
socket or per person. A change a read already covers costs a socket nothing more: each change
carries an id, and every socket of the process gets the same ones.
"""

from __future__ import annotations

import asyncio
import itertools
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings

from .. import protocol, selectors
from ..domain.rooms import SharedRoomState
from ..models import Room
from .db_threads import in_db_thread

#: How many changes (of all rooms) this process remembers the read of. A change forgotten
#: before one of its sockets got to it costs a read more, nothing worse.
REMEMBERED = 2048

_numbers = itertools.count(1)


@dataclass
class Refreshed:
    """One read of a room, and its ``state`` frame for each guest it was shown to."""

    shared: SharedRoomState
    #: Later reads of this process have higher numbers (a socket never goes back).
    number: int = field(default_factory=lambda: next(_numbers))
    #: Per ``you`` (seat, host), the frame and its text: every watcher of the room, whoever
    #: they are, shares one, each seated person has theirs.
    _frames: dict[tuple[int | None, bool], tuple[dict[str, Any], str]] = field(
        default_factory=dict)

    def state_for(self, guest: str) -> tuple[dict[str, Any], str]:
        """The ``state`` frame of ``guest`` ("" for an anonymous watcher), and its JSON text:
        built once for all the sockets that see the room alike (the same ``you``), so a
        hundred watchers cost one frame, not one per socket or per person."""
        you = self.shared.you(guest)
        found = self._frames.get(you)
        if found is None:
            frame = protocol.state(self.shared.seen_by(guest))
            found = self._frames[you] = (frame, protocol.encode(frame))
        return found


@dataclass
class _Pending:
    future: asyncio.Future[Refreshed]
    changes: set[str] = field(default_factory=set)


#: Per room code, the read not started yet, and the changes it is to cover.
_pending: dict[str, _Pending] = {}
#: Per change id, the read that covered it (first seen here before that read started).
_covered: OrderedDict[str, Refreshed] = OrderedDict()
_reads: set[asyncio.Task[None]] = set()


async def refreshed(code: str, change: str | None) -> Refreshed:
    """A read of the room that started after the change ``change`` was first seen in this
    process, shared with every socket of the process that sees a change before it starts
    (a change without an id waits for the next read)."""
    done = _covered.get(change) if change else None
    if done is not None:
        return done
    pending = _pending.get(code)
    if pending is None:
        pending = _pending[code] = _Pending(asyncio.get_running_loop().create_future())
        task = asyncio.create_task(_read_after_window(code, pending))
        _reads.add(task)  # the loop keeps only a weak reference to a task
        task.add_done_callback(_reads.discard)
    if change:
        pending.changes.add(change)
    # Shielded: a socket cancelled while it waits must not cancel the others' read.
    return await asyncio.shield(pending.future)


async def _read_after_window(code: str, pending: _Pending) -> None:
    await asyncio.sleep(settings.WS_ROOM_REFRESH_WINDOW)
    del _pending[code]  # a change first seen from now on may be missed: it waits for the next
    try:
        result = Refreshed(await in_db_thread(_read)(code))
    except Exception as exc:  # noqa: BLE001 - every waiting socket gets the failure
        pending.future.set_exception(exc)
        return
    for change in pending.changes:
        _covered[change] = result
    while len(_covered) > REMEMBERED:
        _covered.popitem(last=False)
    pending.future.set_result(result)


def _read(code: str) -> SharedRoomState:
    return selectors.shared_room_state(Room.objects.get(code=code))
