"""Websocket clients on the real ASGI application (in this process), and rooms to play in.

Fixtures for every test that talks to the room socket: tests/conftest.py registers them."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator

from game import services
from game.protocol.client import event_messages, state_after

from .rooms import make_session, next_move

ORIGIN = (b"origin", b"http://localhost")
HOST = (b"host", b"localhost")
TIMEOUT = 10


class Client:
    """A websocket client that keeps every message it got, by kind."""

    def __init__(self, name: str, communicator: WebsocketCommunicator) -> None:
        self.name, self.comm = name, communicator
        self.messages: list[dict[str, Any]] = []
        self.game: dict[str, Any] | None = None
        self.state: dict[str, Any] | None = None
        self.timeout = TIMEOUT
        self._pending: list[dict[str, Any]] = []

    @property
    def events(self) -> list[dict[str, Any]]:
        return [m for m in self.messages if m["type"] == "event"]

    @property
    def errors(self) -> list[dict[str, Any]]:
        return [m for m in self.messages if m["type"] == "error"]

    async def send(self, message: dict[str, Any] | str) -> None:
        if isinstance(message, str):
            await self.comm.send_to(text_data=message)
        else:
            await self.comm.send_json_to(message)

    async def recv(self) -> dict[str, Any]:
        """The next message; a command's ``events`` frame comes as one ``event`` each."""
        if not self._pending:
            frame = await self.comm.receive_json_from(timeout=self.timeout)
            self._pending = [frame]
            if frame["type"] == "events":
                self.game = state_after(self.game, frame)
                self._pending = event_messages(frame)
        msg = self._pending.pop(0)
        self.messages.append(msg)
        if msg["type"] == "state":
            self.state, self.game = msg, msg["game"]
        return msg

    async def until(self, pred: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        while True:
            msg = await self.recv()
            if pred(msg):
                return msg

    async def until_type(self, kind: str) -> dict[str, Any]:
        return await self.until(lambda m: m["type"] == kind)

    async def until_seq(self, seq: int) -> dict[str, Any]:
        return await self.until(lambda m: m["type"] in ("event", "state") and m["seq"] >= seq)

    async def settle(self, quiet: float = 0.3) -> None:
        """Read what the room still has on its way (a late ``presence``, a room's trailing
        read) until it has sent nothing for ``quiet`` seconds."""
        while not await self.comm.receive_nothing(timeout=quiet):
            await self.recv()

    async def request(self, message: dict[str, Any] | str) -> dict[str, Any]:
        """Send, and return the next reply that is not presence or another's event."""
        await self.send(message)
        return await self.until(lambda m: m["type"] in ("error", "state")
                                or (m["type"] == "event" and m.get("by") == "human"))

    async def close(self) -> None:
        await self.comm.disconnect()


@pytest.fixture
def connect():
    """``await connect(code, session_key=None, name=...)`` → a connected Client whose first
    message (the state) was read."""
    from yahtzee_site.asgi import application

    opened: list[Client] = []

    async def _connect(code: str, session_key: str | None = None, name: str = "c",
                       expect_state: bool = True) -> Client:
        headers = [ORIGIN, HOST]
        if session_key:
            headers.append((b"cookie", f"sessionid={session_key}".encode()))
        comm = WebsocketCommunicator(application, f"/ws/rooms/{code}/", headers=headers)
        connected, _ = await comm.connect(timeout=TIMEOUT)
        assert connected, f"{name} could not connect"
        client = Client(name, comm)
        opened.append(client)
        if expect_state:
            await client.until_type("state")
        return client

    yield _connect
    # Communicators are closed by the tests (the event loop is gone by now).


@pytest.fixture
def sessions():
    """``await sessions(n)`` → n (session key, guest key) pairs stored in the database."""

    async def _make(n: int) -> list[tuple[str, str]]:
        return [await database_sync_to_async(make_session)() for _ in range(n)]

    return _make


@pytest.fixture(params=["memory", pytest.param("redis", marks=pytest.mark.redis)])
def layer(request, settings):
    """Run a test on the in-memory layer and again on channels_redis pub/sub over Redis
    (the layer REDIS_URL selects in settings)."""
    if request.param == "redis":
        url = request.getfixturevalue("redis_url")
        settings.CHANNEL_LAYERS = {
            "default": {
                "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
                "CONFIG": {"hosts": [{"address": url, "max_connections": 1000}]},
            }
        }
    else:
        settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    return request.param


async def close_all(*clients: Client) -> None:
    """Close ``clients`` side by side. A socket's consumer handles its close after the message
    it is on: one awaiting a room's shared read (``room_refresh``; a host leaving before the
    start changes the room) closes only once the read's window is over, and the communicator
    waits a second for it. One by one, a room of watchers cost a second each."""
    await asyncio.gather(*(c.close() for c in clients))


async def close_layer() -> None:
    """Let go of the Redis connections of this test's event loop."""
    layer = get_channel_layer()
    if hasattr(layer, "flush") and type(layer).__name__ == "RedisPubSubChannelLayer":
        await layer.flush()


async def seated_room(sessions, names, rules="yahtzee", bots=()):
    """A waiting room with ``names`` seated; returns (room, [(session, guest)])."""
    people = await sessions(len(names))

    def _make():
        specs = [services.SeatSpec() for _ in names] + [services.SeatSpec(b) for b in bots]
        room = services.create_room(name="Room", rules=rules, seats=specs,
                                    host_key=people[0][1])
        for i, (name, (_, guest)) in enumerate(zip(names, people, strict=True)):
            services.take_seat(room.code, guest, name, i)
        return room

    return await database_sync_to_async(_make)(), people


async def play_move(mover, everyone) -> int:
    """The player to move makes one legal move; every client reads up to its last event."""
    move = next_move(mover.game)
    await mover.send(move)
    last_kind = "rolled" if move["type"] == "roll" else ("turn_started", "game_finished")
    msg = await mover.until(lambda m: m["type"] == "error" or (
        m["type"] == "event" and m["event"]["kind"] in last_kind))
    assert msg["type"] == "event", msg
    for c in everyone:
        if c is not mover:
            await c.until_seq(msg["seq"])
    return msg["seq"]
