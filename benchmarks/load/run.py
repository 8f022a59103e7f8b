"""One measured phase: open the rooms' sockets, play for a while, drain, tally the figures."""

from __future__ import annotations

import asyncio
import gc
import os
import random
import secrets
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from websockets.exceptions import ConnectionClosed

from .clients import Client, Room
from .hostile import Flood, NameFlood, SeedFlood
from .stats import summary_ms

CONNECT_CONCURRENCY = 8
CONNECT_ATTEMPTS = 6
DRAIN_SECONDS = 2.0
SYNC_TIMEOUT = 10.0


@dataclass
class Shape:
    rooms: int
    players: int
    watchers: int
    rate: float  # moves per second per room
    duration: float  # seconds of moves


@dataclass
class Seating:
    """Where a room's sockets go: filled in by the relay layout or the browser-like setup."""

    code: str
    player_cookies: list[str]
    watcher_cookies: list[str]


#: Builds the rooms of the real app over HTTP (see browser.py); the relay needs none.
SeatRooms = Callable[[Shape, list[str]], Awaitable[list[Seating]]]


def relay_seating(shape: Shape) -> list[Seating]:
    return [
        Seating(f"b{i}{secrets.token_hex(3)}", [""] * shape.players, [""] * shape.watchers)
        for i in range(shape.rooms)
    ]


def build_rooms(seatings: list[Seating], http_urls: list[str], relay: bool,
                holds: bool = False, random_boxes: bool = False) -> list[Room]:
    """Sockets of each room spread round-robin over the servers, so fan-out crosses them."""
    rooms, k = [], 0
    for i, seating in enumerate(seatings):
        room = Room(seating.code, relay, holds,
                    random.Random(i) if random_boxes and not relay else None)
        for role, cookies in (("player", seating.player_cookies),
                              ("watcher", seating.watcher_cookies)):
            for i, cookie in enumerate(cookies):
                base = http_urls[k % len(http_urls)]
                k += 1
                client = Client(
                    room, base.replace("http", "ws", 1) + f"/ws/rooms/{seating.code}/",
                    origin=base, cookie=cookie, watcher=role == "watcher",
                    seat=i if role == "player" and relay else None,
                )
                (room.players if role == "player" else room.watchers).append(client)
        rooms.append(room)
    return rooms


async def _open_all(rooms: list[Room]) -> tuple[list[asyncio.Task], Counter]:
    gate = asyncio.Semaphore(CONNECT_CONCURRENCY)
    failures: Counter = Counter()

    async def open_one(client: Client) -> bool:
        # Like the page: a refused or dropped handshake is retried with backoff (counted).
        delay = 0.25
        for attempt in range(CONNECT_ATTEMPTS):
            async with gate:
                try:
                    await client.open()
                    return True
                except Exception as exc:  # noqa: BLE001 - every failure is counted, by kind
                    kind = "failed" if attempt == CONNECT_ATTEMPTS - 1 else "retried"
                    failures[f"{kind}: {type(exc).__name__}: {str(exc)[:60]}"] += 1
            await asyncio.sleep(delay)
            delay = min(delay * 2, 4.0)
        return False

    clients = [c for r in rooms for c in r.clients]
    results = await asyncio.gather(*(open_one(c) for c in clients))
    readers = []
    for client, ok in zip(clients, results, strict=True):
        if ok:
            readers.append(asyncio.create_task(client.read_forever()))
    return readers, failures


async def _final_sync(rooms: list[Room]) -> None:
    """Ask every socket for the full state: its seq is the server's truth for the tally."""
    async def sync(client: Client) -> None:
        if client.ws is None:
            return
        try:
            await client.send({"type": "sync"})
        except ConnectionClosed:
            return
        deadline = time.perf_counter() + SYNC_TIMEOUT
        while client.final_seq is None and time.perf_counter() < deadline:
            await asyncio.sleep(0.05)

    await asyncio.gather(*(sync(c) for r in rooms for c in r.clients))


async def run_phase(
    name: str, shape: Shape, seatings: list[Seating], http_urls: list[str], relay: bool,
    on_start: Callable[[], None] = lambda: None, hostile: int = 0, holds: bool = False,
    on_moves_done: Callable[[], None] = lambda: None,
    on_connecting: Callable[[], None] = lambda: None,
    on_connected: Callable[[], None] = lambda: None,
    seed_flood: tuple[SeedFlood, str, str] | None = None, random_boxes: bool = False,
    name_flood: int = 0,
) -> dict[str, Any]:
    """One measured load; ``seed_flood``: a seed flood and its room's code and tabs' cookie;
    ``random_boxes``: players score a random allowed box, not the first; ``name_flood``:
    visitors posting huge names beside it."""
    rooms = build_rooms(seatings, http_urls, relay, holds, random_boxes)
    on_connecting()
    t_connect = time.perf_counter()
    readers, connect_failures = await _open_all(rooms)
    connect_seconds = time.perf_counter() - t_connect
    if not relay:  # the full state opens every socket's stream
        await asyncio.wait_for(
            asyncio.gather(*(c.state_seen.wait() for r in rooms for c in r.clients if c.ws)),
            120,
        )
    on_connected()
    if seed_flood is not None:
        await seed_flood[0].open(seed_flood[1], seed_flood[2], http_urls)
    interval = 1.0 / shape.rate
    count = max(1, round(shape.duration * shape.rate))
    start = time.perf_counter() + 0.5
    deadline = start + 3 * shape.duration + 30  # a load that cannot keep up still ends
    flood = Flood(hostile)
    flood.start([s.code for s in seatings], http_urls, start + shape.duration)
    if seed_flood is not None:
        seed_flood[0].start(start + shape.duration)
    names = NameFlood(name_flood)
    names.start(http_urls, start + shape.duration)
    on_start()
    # The generator is the clock: a collection of its thousands of sockets' objects stalls
    # its loop for tens of milliseconds, which would be measured as the servers' latency.
    gc.freeze()
    gc.disable()
    load_before = os.getloadavg()[0]
    cpu_before = time.process_time()
    t_before = time.perf_counter()
    await asyncio.gather(*(
        r.play(start + random.uniform(0, interval), count, interval, deadline) for r in rooms
    ))
    moves_end = max([r.last_done for r in rooms] + [start + 1e-3])
    on_moves_done()
    gc.enable()
    gc.unfreeze()
    generator_cores = (time.process_time() - cpu_before) / (time.perf_counter() - t_before)
    load_after = os.getloadavg()[0]
    hostile_counts = await flood.stop()
    seed_counts = await seed_flood[0].stop() if seed_flood is not None else {}
    name_counts = await names.stop()
    await asyncio.sleep(DRAIN_SECONDS)
    if not relay:
        await _final_sync(rooms)
    for r in rooms:
        r.stopping = True
    await asyncio.gather(*(c.ws.close() for r in rooms for c in r.clients if c.ws),
                         return_exceptions=True)
    for t in readers:
        t.cancel()
    await asyncio.gather(*readers, return_exceptions=True)
    result = tally(rooms, moves_end - start)
    result.update(name=name, connect_seconds=round(connect_seconds, 2),
                  connect_failures=sum(n for k, n in connect_failures.items()
                                       if k.startswith("failed")),
                  connect_retries=sum(n for k, n in connect_failures.items()
                                      if k.startswith("retried")),
                  connect_failure_reasons=dict(connect_failures),
                  generator_cpu_cores=round(generator_cores, 2),
                  hostile_sockets=hostile, hostile=hostile_counts, holds=holds,
                  seed_flood=(seed_flood[0].label if seed_flood is not None else ""),
                  seed_flood_counts=seed_counts,
                  name_flood=name_flood, name_flood_counts=name_counts,
                  holdings_received=sum(c.holdings for r in rooms for c in r.clients),
                  **standings_tally(rooms),
                  machine_load_1min=[round(load_before, 2), round(load_after, 2)])
    return result


def standings_tally(rooms: list[Room]) -> dict[str, Any]:
    """The ``standings`` frames the sockets got: how many, how many turn ends behind each was
    on arrival, how long after the turn end it shows, and the sockets left behind at the end
    (their last ``standings`` older than their last turn end)."""
    clients = [c for r in rooms for c in r.clients]
    behind = Counter(b for c in clients for b in c.standings_behind)
    return {
        "standings_received": sum(c.standings for c in clients),
        "standings_behind": {str(k): behind[k] for k in sorted(behind)},
        "standings_after_ms": summary_ms([t for c in clients for t in c.standings_after]),
        "standings_stale_sockets": sum(
            1 for c in clients if c.standings and c.turn_ends
            and c.standings_seq < max(c.turn_ends)),
    }


def tally(rooms: list[Room], seconds: float) -> dict[str, Any]:
    rtt: list[float] = []
    fanout: list[float] = []
    errors: Counter = Counter()
    lost = out_of_order = duplicates = events_in = bytes_in = closed_early = 0
    event_bytes = event_frames = 0
    moves_ok = moves_sent = timeouts = late = finished = stalled = 0
    for room in rooms:
        moves_sent += len(room.moves)
        timeouts += room.timeouts
        late += room.late_starts
        finished += room.finished
        stalled += room.stalled
        done = [(m, m.first_seq) for m in room.moves if m.first_seq is not None]
        moves_ok += sum(1 for m, _ in done if m.error is None)
        for m, seq in done:
            got = m.sender.received_at.get(seq)
            if got is not None:
                rtt.append(got - m.sent)
            for w in room.watchers:
                got = w.received_at.get(seq)
                if got is not None:
                    fanout.append(got - m.sent)
        final = max([c.final_seq or 0 for c in room.clients]
                    + [c.seq.last or 0 for c in room.clients])
        for c in room.clients:
            if c.ws is None:
                continue
            lost += c.seq.missing(c.start_seq, final)
            out_of_order += c.seq.out_of_order
            duplicates += c.seq.duplicates
            events_in += len(c.seq.seen)
            bytes_in += c.bytes_in
            event_bytes += c.event_bytes
            event_frames += c.event_frames
            closed_early += c.closed_early
            errors.update(c.errors)
    return {
        "seconds": round(seconds, 2),
        "moves_sent": moves_sent,
        "moves_ok": moves_ok,
        "moves_per_s": round(moves_ok / seconds, 1) if seconds else 0,
        "deliveries_per_s": round(events_in / seconds, 1) if seconds else 0,
        # Every frame a socket got, per event; the mean frame that carries events (one
        # command's: ``events``; the relay's ``event``), and those bytes per event.
        "bytes_per_event": round(bytes_in / events_in) if events_in else 0,
        "mean_event_bytes": round(event_bytes / event_frames) if event_frames else 0,
        "event_bytes_per_event": round(event_bytes / events_in) if events_in else 0,
        "round_trip_ms": summary_ms(rtt),
        "fanout_ms": summary_ms(fanout),
        "lost": lost,
        "out_of_order": out_of_order,
        "duplicates": duplicates,
        "timeouts": timeouts,
        "late_starts": late,
        "rooms_finished": finished,
        "rooms_stalled": stalled,
        "closed_early": closed_early,
        "errors": dict(errors),
    }
