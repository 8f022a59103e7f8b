"""A websocket peer speaking docs/protocol.md, synchronously (websockets' sync client).

Each peer keeps every message it received and checks the ``seq`` of events as a browser does:
``gaps`` counts events that were not last seen + 1.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

from websockets.exceptions import ConnectionClosed, InvalidHandshake
from websockets.sync.client import ClientConnection, connect

from game.protocol.client import event_messages, state_after

Message = dict[str, Any]


class Peer:
    def __init__(self, url: str, origin: str, cookie: str = "", name: str = "") -> None:
        self.url, self.origin, self.cookie, self.name = url, origin, cookie, name or url
        self.ws: ClientConnection | None = None
        self.received: list[Message] = []
        self.last_seq: int | None = None
        self.game: dict[str, Any] | None = None
        self._pending: list[Message] = []  # the rest of an ``events`` frame
        self.seat: int | None = None
        self.gaps = 0
        self.repeats = 0
        #: While True, events are thrown away unseen, as if the link had lost them.
        self.deaf = False

    # -- connection ----------------------------------------------------------------------
    def open(self, timeout: float = 10.0) -> Message:
        """Connect and return the full ``state`` the server sends first."""
        headers = [("Cookie", self.cookie)] if self.cookie else []
        self._pending = []
        self.ws = connect(self.url, origin=self.origin, additional_headers=headers,
                          open_timeout=timeout, close_timeout=2, max_size=2**22,
                          ping_interval=None, legacy=True)
        return self.until(lambda m: m["type"] == "state", timeout)

    def reopen(self, within: float = 30.0) -> Message:
        """Reconnect with backoff, as the page does, until a state comes or time is up."""
        self.close()
        deadline, delay, error = time.monotonic() + within, 0.1, None
        while time.monotonic() < deadline:
            try:
                return self.open(timeout=min(10.0, max(1.0, deadline - time.monotonic())))
            except (OSError, InvalidHandshake, ConnectionClosed, TimeoutError) as exc:
                error = exc
                time.sleep(delay)
                delay = min(delay * 2, 1.6)
        raise AssertionError(f"{self.name}: no reconnection within {within} s ({error!r})")

    def close(self) -> None:
        if self.ws is not None:
            self.ws.close()
            self.ws = None

    @property
    def is_open(self) -> bool:
        if self.ws is None:
            return False
        try:
            self.ws.ping().wait(5)
            return True
        except (ConnectionClosed, TimeoutError, RuntimeError):
            return False

    # -- messages ------------------------------------------------------------------------
    def send(self, message: Message | str | bytes) -> None:
        assert self.ws is not None, f"{self.name} is not connected"
        self.ws.send(message if isinstance(message, str | bytes) else json.dumps(message))

    def recv(self, timeout: float) -> Message | None:
        """The next message, or None if none came within ``timeout`` seconds."""
        assert self.ws is not None, f"{self.name} is not connected"
        if not self._pending:
            try:
                raw = self.ws.recv(timeout=timeout)
            except TimeoutError:
                return None
            frame = json.loads(raw)
            self._pending = [frame]
            if frame.get("type") == "events":  # one command's: one ``event`` message each
                if self.deaf:
                    return {"type": "lost"}
                self.game = state_after(self.game, frame)
                self._pending = event_messages(frame)
        msg = self._pending.pop(0)
        if self.deaf and msg.get("type") == "event":
            return {"type": "lost"}
        self._track(msg)
        self.received.append(msg)
        return msg

    def _track(self, msg: Message) -> None:
        if msg.get("type") == "state":
            self.last_seq = msg.get("seq")
            self.game = msg.get("game")
            self.seat = (msg.get("you") or {}).get("seat")
        elif msg.get("type") == "event":
            seq = msg["seq"]
            if self.last_seq is not None and seq != self.last_seq + 1:
                if seq <= self.last_seq:
                    self.repeats += 1
                else:
                    self.gaps += 1
            self.last_seq = seq if self.last_seq is None else max(seq, self.last_seq)

    def until(self, pred: Callable[[Message], bool], timeout: float = 10.0) -> Message:
        """Read until a message satisfies ``pred``; fail with what came instead."""
        deadline = time.monotonic() + timeout
        seen: list[str] = []
        while (left := deadline - time.monotonic()) > 0:
            msg = self.recv(left)
            if msg is None:
                break
            if pred(msg):
                return msg
            seen.append(json.dumps(msg)[:200])
        raise AssertionError(f"{self.name}: nothing expected within {timeout} s; got {seen}")

    def drain(self, quiet: float = 0.3) -> list[Message]:
        """Everything that arrives until the socket is quiet for ``quiet`` seconds."""
        out = []
        while (msg := self.recv(quiet)) is not None:
            out.append(msg)
        return out

    def error(self, timeout: float = 10.0) -> Message:
        return self.until(lambda m: m["type"] == "error", timeout)

    def sync(self, timeout: float = 10.0) -> Message:
        self.send({"type": "sync"})
        return self.until(lambda m: m["type"] == "state", timeout)

    def sync_once_admitted(self, within: float = 30.0) -> Message:
        """A ``state`` once this socket's budgets let a ``sync`` through again, whatever their
        refill rates: another sync each time the last went unanswered (dropped) or refused."""
        deadline = time.monotonic() + within
        while time.monotonic() < deadline:
            self.send({"type": "sync"})
            try:
                answer = self.until(lambda m: m["type"] in ("state", "error"), 0.5)
            except AssertionError:
                continue  # dropped unanswered: the budget is still empty
            if answer["type"] == "state":
                return answer
        raise AssertionError(f"{self.name}: no sync admitted within {within} s")
