"""Presence changes: a socket opens or closes, a server process's heartbeat refreshes its
sockets. Each change is stored first; the caller announces it to the room (``presence``).

Each open socket is a ``Connection`` row; one not refreshed within ``selectors.STALE_AFTER``
counts as gone (the reads live in ``game.selectors``). A server process that crashed is known
sooner: each beats every ``SERVER_BEAT`` seconds (``ServerProcess``), and the rows of one
silent for ``SERVER_DEAD_AFTER`` (or, on the same host, whose pid is gone) are deleted by
whichever process looks first.
"""

from __future__ import annotations

import os
import secrets
import socket
from collections.abc import Mapping
from datetime import timedelta

from django.conf import settings
from django.core.cache import cache
from django.db import DatabaseError, connection, transaction
from django.utils import timezone

from ..domain import clock
from ..domain.rooms import Presence
from ..models import Connection, Room, Seat, ServerProcess
from ..selectors import STALE_AFTER, presence
from ..store.queries import live_sockets_of
from .errors import ServiceError, gettext_noop

#: How often a server process refreshes its sockets: well inside ``selectors.STALE_AFTER``.
HEARTBEAT_SECONDS = settings.PRESENCE_HEARTBEAT
FORGET_AFTER = timedelta(hours=1)
#: Sockets (or seats) per statement and transaction of a refresh: short enough that commands
#: waiting for SQLite's write lock wait little, within SQLite's limit of bound parameters.
REFRESH_CHUNK = 500


def _pid_namespace() -> str:
    """This process's PID namespace ("" where unknown): processes of one host that share it
    can tell whether another one's pid still runs."""
    try:
        return os.readlink("/proc/self/ns/pid").strip("pid:[]")
    except OSError:
        return ""


#: This host as a server process's name says it: processes of one host and PID namespace
#: see each other's pids.
THIS_HOST = f"{socket.gethostname()}:{_pid_namespace()}"
#: This server process, among all that serve the site (``ServerProcess.name``): its host,
#: PID namespace and pid, and a random tag (a pid is used again after a restart).
THIS_SERVER = f"{THIS_HOST}:{os.getpid()}:{secrets.token_hex(4)}"[-100:]
#: How long a server swept as dead stays known dead to every process (``known_dead``).
TOMBSTONE_SECONDS = 24 * 3600


def _gone_from_this_host(name: str) -> bool:
    """Whether ``name`` is a server process of this host whose pid no longer runs (killed,
    crashed): known at once, where a silent beat takes ``SERVER_DEAD_AFTER`` to tell."""
    host, _, rest = name.rpartition(":")[0].rpartition(":")
    if host != THIS_HOST or not rest.isdigit() or not _pid_namespace():
        return False
    try:
        with open(f"/proc/{rest}/stat", "rb") as stat:
            return stat.read().rsplit(b")", 1)[1].split()[0] in (b"Z", b"X")  # a zombie
    except (OSError, IndexError):
        return True


def _tombstone_key(name: str) -> str:
    return f"server-dead:{name}"


def known_dead(name: str) -> bool:
    """Whether the server process ``name`` is known to have died: a process swept it as dead,
    or it beat (it held sockets) and has been silent for ``SERVER_DEAD_AFTER`` or, on this
    host, its pid is gone. A process that never beat is never known dead here."""
    if name == THIS_SERVER:
        return False
    if cache.get(_tombstone_key(name)):
        return True
    try:
        beat = ServerProcess.objects.filter(name=name).values_list("beat", flat=True).first()
    except DatabaseError:  # the database away: not known, and so not dead
        return False
    silent_since = timezone.now() - timedelta(seconds=settings.SERVER_DEAD_AFTER)
    return beat is not None and (beat < silent_since or _gone_from_this_host(name))


def sweep_dead_servers() -> set[int]:
    """Delete the sockets of server processes that died (crashed: a process that stops
    cleanly closes its own): silent for ``SERVER_DEAD_AFTER``, or, on this host, gone. Every
    process knows them dead from then on (their review claims lapse: ``services.review``).
    Returns the ids of the rooms that lost sockets."""
    silent_since = timezone.now() - timedelta(seconds=settings.SERVER_DEAD_AFTER)
    dead = [name for name, beat in ServerProcess.objects.values_list("name", "beat")
            if beat < silent_since or _gone_from_this_host(name)]
    rooms: set[int] = set()
    for name in dead:
        with transaction.atomic():
            rows = Connection.objects.filter(server=name)
            rooms.update(rows.values_list("room_id", flat=True))
            rows.delete()
            ServerProcess.objects.filter(name=name).delete()
        cache.set(_tombstone_key(name), True, timeout=TOMBSTONE_SECONDS)
    return rooms


def server_beat() -> tuple[bool, set[int]]:
    """This server process is alive now. Returns whether it had been taken for dead (its
    sockets' rows deleted: the caller registers them again) and the rooms that lost sockets
    of crashed servers (``sweep_dead_servers``)."""
    lost = sweep_dead_servers()
    updated = ServerProcess.objects.filter(name=THIS_SERVER).update(beat=timezone.now())
    if not updated:
        ServerProcess.objects.get_or_create(name=THIS_SERVER, defaults={"beat": timezone.now()})
    return not updated, lost


def _touch_seat(room: Room, guest: str) -> None:
    if guest:
        Seat.objects.filter(room=room, guest_key=guest).update(last_seen=clock.now())


def _record_socket(room: Room, channel_name: str, guest: str, address: str | None) -> None:
    now = timezone.now()
    row = Connection(room=room, channel_name=channel_name, guest_key=guest, last_seen=now,
                     address=(address or "")[:64], server=THIS_SERVER)
    updated = ["room", "guest_key", "last_seen", "server"] + (
        ["address"] if address is not None else [])
    with transaction.atomic():
        Connection.objects.filter(room=room, last_seen__lt=now - FORGET_AFTER).delete()
        # One statement, inserted or updated (a restored socket keeps its row's address).
        Connection.objects.bulk_create([row], update_conflicts=True,
                                       unique_fields=["channel_name"], update_fields=updated)
        _touch_seat(room, guest)


def socket_opened(room: Room, channel_name: str, guest: str,
                  address: str = "") -> Presence:
    """A socket of ``guest`` ("" for an anonymous watcher) joined the room: stored; returns
    the room's presence, for the caller to announce (``broadcast.asend_presence``,
    from the event loop: a database thread does not wait on the channel layer).

    Raises ``too_many_sockets`` (and stores nothing) if the visitor now has more live sockets
    than one session (``guest``) or one address may have (settings ``SOCKETS_PER_SESSION``,
    ``SOCKETS_PER_ADDRESS``), counted over every server process. The row is written and
    committed before the count, so sockets opened at the same moment see each other: a burst
    of handshakes cannot slip past the cap together."""
    _record_socket(room, channel_name, guest, address)
    by_session, by_address = live_sockets_of(guest, address[:64], timezone.now() - STALE_AFTER)
    if (by_session > settings.SOCKETS_PER_SESSION or by_address > settings.SOCKETS_PER_ADDRESS) \
            and sweep_dead_servers():  # sockets of a crashed server count no more
        by_session, by_address = live_sockets_of(guest, address[:64],
                                                 timezone.now() - STALE_AFTER)
    refusal = ""
    if by_session > settings.SOCKETS_PER_SESSION:
        refusal = gettext_noop("You have too many tabs open on this site.")
    elif by_address > settings.SOCKETS_PER_ADDRESS:
        refusal = gettext_noop("Too many connections from your address.")
    if refusal:
        Connection.objects.filter(channel_name=channel_name).delete()
        raise ServiceError("too_many_sockets", refusal)
    return presence(room)


def socket_closed(room: Room, channel_name: str, guest: str) -> Presence:
    """A socket left the room: forgotten; returns the room's ``presence`` message, for the
    caller to announce."""
    with transaction.atomic():
        Connection.objects.filter(channel_name=channel_name).delete()
        _touch_seat(room, guest)
    return presence(room)


def socket_restored(room: Room, channel_name: str, guest: str) -> None:
    """A still open socket whose row was swept gets it back, unannounced: the heartbeat
    announces what changed, once for all of a room's changes."""
    _record_socket(room, channel_name, guest, None)  # keeps the address it had, if any


def refresh_sockets(sockets: Mapping[str, tuple[Room, str]]) -> set[str]:
    """Mark every socket of one server process seen now, and the seats of their guests:
    ``sockets`` maps each channel name to its room and guest key. Returns the channel names
    that have no row (swept, or closed meanwhile): the caller decides which to register again.

    One short transaction per chunk, not one for all: on SQLite a write transaction holds the
    database's one write lock, and a beat of 1,400 sockets in one held every command back for
    40-100 ms."""
    now = timezone.now()
    seen = connection.ops.adapt_datetimefield_value(clock.now())  # a seat's: the grace's clock
    names = list(sockets)
    pairs = sorted({(room.pk, guest) for room, guest in sockets.values() if guest})
    known: set[str] = set()
    for i in range(0, len(names), REFRESH_CHUNK):
        chunk = names[i:i + REFRESH_CHUNK]
        with transaction.atomic():
            known.update(Connection.objects.filter(channel_name__in=chunk)
                         .values_list("channel_name", flat=True))
            Connection.objects.filter(channel_name__in=chunk).update(last_seen=now)
    seat = Seat._meta
    for i in range(0, len(pairs), REFRESH_CHUNK):
        chunk_pairs = pairs[i:i + REFRESH_CHUNK]
        # (room, guest) pairs as SQL row values: the same ORs through Q objects took most of
        # a beat's time to compile, with the write lock held.
        rows = ", ".join(["(%s, %s)"] * len(chunk_pairs))
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(
                f"UPDATE {seat.db_table} SET last_seen = %s "
                f"WHERE (room_id, guest_key) IN (VALUES {rows})",
                [seen, *(v for pair in chunk_pairs for v in pair)])
    return set(names) - known
