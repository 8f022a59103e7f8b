"""Hostile clients beside the honest load: sockets that ask for the full ``state`` in a loop,
just under the per-socket rate limit (docs/protocol.md), as one abusive visitor can; a seed
flood; visitors posting huge names. They are counted apart; the phase's figures stay the
honest players'."""

from __future__ import annotations

import asyncio
import multiprocessing
import multiprocessing.process
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed
from websockets.typing import Origin

from .browser import BrowserSession

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
            self.tasks.append(asyncio.create_task(
                flood_socket(url, base, until, self.counts, lambda n: SYNC, 1 / RATE)))

    async def stop(self) -> dict[str, int]:
        await asyncio.gather(*self.tasks, return_exceptions=True)
        return dict(self.counts)


#: A seed flood as one visitor can make it: tabs of one person seated alone in their own room,
#: each sending a new ``seed`` this often (under WS_RATE_PER_SECOND), watched by many sockets
#: of other visitors, so that every change costs every watcher a full ``state``.
SEED_PERIOD = 0.126


@dataclass
class SeedFlood:
    tabs: int
    watchers: int
    #: The watchers' sessions, spread over them in turn (none: anonymous watchers).
    watcher_cookies: list[str] = field(default_factory=list)
    counts: Counter = field(default_factory=Counter)
    tasks: list[asyncio.Task] = field(default_factory=list)

    go: asyncio.Future[float] | None = None

    async def open(self, code: str, cookie: str, http_urls: list[str]) -> None:
        """Open every socket before the measured load: what is measured is the flood, not a
        crowd arriving."""
        self.go = asyncio.get_running_loop().create_future()
        ready = []
        for i in range(self.tabs + self.watchers):
            base = http_urls[i % len(http_urls)]
            url = base.replace("http", "ws", 1) + f"/ws/rooms/{code}/"
            tab = i < self.tabs  # else a watcher: it only receives
            ready.append(asyncio.get_running_loop().create_future())
            self.tasks.append(asyncio.create_task(flood_socket(
                url, base, self.go, self.counts, partial(_seed, i) if tab else None,
                SEED_PERIOD, cookie if tab else self._watcher_cookie(i - self.tabs),
                ready[-1])))
        await asyncio.gather(*ready)
        await self._settle()

    @property
    def label(self) -> str:
        """``8t88w``: tabs and watcher sockets; ``…11s``: the watchers' sessions."""
        sessions = len(self.watcher_cookies)
        return f"{self.tabs}t{self.watchers}w" + (f"{sessions}s" if sessions else "")

    def _watcher_cookie(self, watcher: int) -> str:
        cookies = self.watcher_cookies
        return cookies[watcher % len(cookies)] if cookies else ""

    async def _settle(self, quiet: float = 0.5, longest: float = 30.0) -> None:
        """Until the sockets heard nothing for ``quiet`` seconds: each arrival sends its
        ``presence`` to every socket already there (~4,600 frames for 96 sockets), which the
        server may still be sending when the moves start, and that would be measured as the
        flood's cost."""
        loop = asyncio.get_running_loop()
        end = loop.time() + longest
        heard, since = self.counts["replies"], loop.time()
        while loop.time() < end and loop.time() - since < quiet:
            await asyncio.sleep(0.05)
            if self.counts["replies"] != heard:
                heard, since = self.counts["replies"], loop.time()

    def start(self, until: float) -> None:
        """Every tab starts sending, until ``until``."""
        assert self.go is not None, "open() first"
        self.go.set_result(until)

    async def stop(self) -> dict[str, int]:
        await asyncio.gather(*self.tasks, return_exceptions=True)
        return dict(self.counts)


def _seed(tab: int, n: int) -> str:
    return f'{{"type": "seed", "seed": "flood-{tab}-{n}"}}'


async def flood_socket(url: str, origin: str, until: float | asyncio.Future[float],
                       counts: Counter, frame: Callable[[int], str] | None, period: float,
                       cookie: str = "", ready: asyncio.Future[None] | None = None) -> None:
    """One hostile socket: ``frame(n)`` sent every ``period`` seconds until ``until`` (or
    nothing, with None), what comes back counted. With ``ready``, that is set once the socket
    is open (or refused), and ``until`` is a future: the flood starts when it is set."""
    headers = [("Cookie", cookie)] if cookie else []
    try:
        ws = await connect(url, origin=Origin(origin), additional_headers=headers,
                           compression=None, max_size=2**22, ping_interval=None,
                           open_timeout=60, close_timeout=2)
    except Exception:  # noqa: BLE001 - a refused hostile socket is the point of the caps
        counts["refused"] += 1
        return
    finally:
        if ready is not None:
            ready.set_result(None)
    counts["opened"] += 1
    reader = asyncio.create_task(_drain(ws, counts))
    try:
        end = until if isinstance(until, float) else await until
        next_at, n = time.perf_counter(), 0
        while time.perf_counter() < end:
            if frame is not None:
                n += 1
                await ws.send(frame(n))
                counts["sent"] += 1
            next_at += period
            await asyncio.sleep(max(0.0, next_at - time.perf_counter()))
    except ConnectionClosed:
        counts["closed"] += 1
    finally:
        await ws.close()
        reader.cancel()


async def _drain(ws: ClientConnection, counts: Counter) -> None:
    async for message in ws:
        counts["replies"] += 1
        if isinstance(message, str) and message.startswith(
                ('{"type":"state"', '{"type": "state"')):
            counts["states"] += 1
        elif '"rate_limited"' in str(message):
            counts["rate_limited"] += 1


#: The name flood's two names: "ﷺ" becomes 18 characters under NFKC. The big one is as large
#: as Django's default upload limit let through (2.4 MB encoded: seconds of CPU to normalise
#: before the limits of POST /name were checked); the small one just under the site's limit
#: (docs/fairness.md, "Limits"), which only the rate limit stops.
NAME_FLOOD_CHARS = (270_000, 1_700)


@dataclass
class NameFlood:
    """Visitors posting huge names to ``POST /name`` as fast as they are answered, each a
    thread (plain blocking HTTP) of a process of their own: an attacker is not on the honest
    players' machine, so the flood's own CPU (2.4 MB bodies built and sent) must not slow the
    process that measures them (it shares no interpreter lock with it)."""

    visitors: int
    counts: Counter = field(default_factory=Counter)
    process: multiprocessing.process.BaseProcess | None = None
    results: Any = None

    def start(self, http_urls: list[str], until: float) -> None:
        if not self.visitors:
            return
        spawn = multiprocessing.get_context("spawn")
        self.results = spawn.Queue()
        self.process = spawn.Process(
            target=_name_flood, daemon=True,
            args=(http_urls, self.visitors, until - time.perf_counter(), self.results))
        self.process.start()

    async def stop(self) -> dict[str, int]:
        if self.process is None:
            return {}
        counts = await asyncio.to_thread(self.results.get, True, 120)
        await asyncio.to_thread(self.process.join, 10)
        self.counts.update(counts)
        return dict(self.counts)


def _name_flood(http_urls: list[str], visitors: int, seconds: float, results: Any) -> None:
    """The flood's process: ``visitors`` threads for ``seconds``; their counts to ``results``."""
    counts: Counter = Counter()
    until = time.perf_counter() + seconds
    bodies = [_name_body(n) for n in NAME_FLOOD_CHARS]
    threads = [threading.Thread(target=_name_visitor, daemon=True,
                                args=(http_urls[i % len(http_urls)], bodies, until, counts))
               for i in range(visitors)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    results.put(dict(counts))


def _name_visitor(base: str, bodies: list[str], until: float, counts: Counter) -> None:
    session = BrowserSession(base)
    try:
        session.get("/")  # its CSRF cookie
    except OSError:
        counts["refused"] += 1
        return
    # A script, not a browser: it follows no redirect (the lobby each time would measure
    # a page flood, not the names').
    opener = urllib.request.build_opener(
        urllib.request.HTTPCookieProcessor(session.jar), _NoRedirect())
    n = 0
    while time.perf_counter() < until:
        body = bodies[n % len(bodies)] + "&csrfmiddlewaretoken=" + session.cookie("csrftoken")
        n += 1
        request = urllib.request.Request(session.url("/name"), data=body.encode(),
                                         method="POST")
        request.add_header("Content-Type", "application/x-www-form-urlencoded")
        request.add_header("Referer", session.url("/"))
        request.add_header("Origin", session.base_url)
        try:
            with opener.open(request, timeout=30) as r:
                r.read()
                counts[f"http_{r.status}"] += 1
        except urllib.error.HTTPError as e:
            counts[f"http_{e.code}"] += 1
        except OSError:
            counts["failed"] += 1
        counts["sent"] += 1


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: object, **kwargs: object) -> None:
        return None


def _name_body(chars: int) -> str:
    return urllib.parse.urlencode({"player_name": "\ufdfa" * chars, "next": "/"})
