"""Hostile clients beside the honest load: sockets that ask for the full ``state`` in a loop,
just under the per-socket rate limit (docs/protocol.md), as one abusive visitor can. They are
counted apart; the phase's figures stay the honest players'."""

from __future__ import annotations

import asyncio
import time
from collections import Counter
from dataclasses import dataclass, field

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed
from websockets.typing import Origin

#: Frames per second per hostile socket: under WS_RATE_PER_SECOND (8), so none is refused.
RATE = 7.5
SYNC = '{"type": "sync"}'


@dataclass
class Flood:
    sockets: int
    counts: Counter = field(default_factory=Counter)
    tasks: list[asyncio.Task] = field(default_factory=list)

    def start(self, codes: list[str], http_urls: list[str], until: float) -> None:
        for i in range(self.sockets):
            base = http_urls[i % len(http_urls)]
            url = base.replace("http", "ws", 1) + f"/ws/rooms/{codes[i % len(codes)]}/"
            self.tasks.append(asyncio.create_task(self._one(url, base, until)))

    async def stop(self) -> dict[str, int]:
        await asyncio.gather(*self.tasks, return_exceptions=True)
        return dict(self.counts)

    async def _one(self, url: str, origin: str, until: float) -> None:
        try:
            ws = await connect(url, origin=Origin(origin), compression=None, max_size=2**22,
                               ping_interval=None, open_timeout=60, close_timeout=2)
        except Exception:  # noqa: BLE001 - a refused hostile socket is the point of the caps
            self.counts["refused"] += 1
            return
        self.counts["opened"] += 1
        reader = asyncio.create_task(self._drain(ws))
        next_at = time.perf_counter()
        try:
            while time.perf_counter() < until:
                await ws.send(SYNC)
                self.counts["sent"] += 1
                next_at += 1 / RATE
                await asyncio.sleep(max(0.0, next_at - time.perf_counter()))
        except ConnectionClosed:
            self.counts["closed"] += 1
        finally:
            await ws.close()
            reader.cancel()

    async def _drain(self, ws: ClientConnection) -> None:
        async for message in ws:
            self.counts["replies"] += 1
            if '"rate_limited"' in message:
                self.counts["rate_limited"] += 1


#: A seed flood as one visitor can make it: tabs of one person seated alone in their own room,
#: each sending a new ``seed`` this often (under WS_RATE_PER_SECOND), watched by many sockets
#: of other visitors, so that every change costs every watcher a full ``state``.
SEED_PERIOD = 0.126


@dataclass
class SeedFlood:
    tabs: int
    watchers: int
    counts: Counter = field(default_factory=Counter)
    tasks: list[asyncio.Task] = field(default_factory=list)

    def start(self, code: str, cookie: str, http_urls: list[str], until: float) -> None:
        for i in range(self.tabs + self.watchers):
            base = http_urls[i % len(http_urls)]
            url = base.replace("http", "ws", 1) + f"/ws/rooms/{code}/"
            tab = i < self.tabs
            self.tasks.append(asyncio.create_task(
                self._one(url, base, until, cookie if tab else "", i if tab else None)))

    async def stop(self) -> dict[str, int]:
        await asyncio.gather(*self.tasks, return_exceptions=True)
        return dict(self.counts)

    async def _one(self, url: str, origin: str, until: float, cookie: str,
                   tab: int | None) -> None:
        headers = [("Cookie", cookie)] if cookie else []
        try:
            ws = await connect(url, origin=Origin(origin), additional_headers=headers,
                               compression=None, max_size=2**22, ping_interval=None,
                               open_timeout=60, close_timeout=2)
        except Exception:  # noqa: BLE001 - counted, as a refused hostile socket may be
            self.counts["refused"] += 1
            return
        self.counts["opened"] += 1
        reader = asyncio.create_task(self._drain(ws))
        next_at, n = time.perf_counter(), 0
        try:
            while time.perf_counter() < until:
                if tab is not None:
                    n += 1
                    await ws.send(f'{{"type": "seed", "seed": "flood-{tab}-{n}"}}')
                    self.counts["seeds_sent"] += 1
                next_at += SEED_PERIOD
                await asyncio.sleep(max(0.0, next_at - time.perf_counter()))
        except ConnectionClosed:
            self.counts["closed"] += 1
        finally:
            await ws.close()
            reader.cancel()

    async def _drain(self, ws: ClientConnection) -> None:
        async for message in ws:
            if isinstance(message, bytes):
                continue
            if message.startswith(('{"type":"state"', '{"type": "state"')):
                self.counts["states"] += 1
            elif '"rate_limited"' in message:
                self.counts["rate_limited"] += 1
