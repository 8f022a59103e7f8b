"""What the websocket side relies on inside Channels and Daphne where they offer no public API:
each test fails when an upgrade changes it, so the override is checked again rather than
silently going stale."""

from __future__ import annotations

import ast
import asyncio
import inspect
import textwrap
from concurrent.futures import ThreadPoolExecutor

import pytest
from autobahn.websocket.protocol import WebSocketProtocol
from channels.consumer import AsyncConsumer

from game.realtime import consumer as consumer_module
from game.realtime.consumer import RoomConsumer

# Channels' AsyncConsumer.dispatch as RoomConsumer.dispatch copies it, less the
# aclose_old_connections() it runs on the one shared sync thread for every frame and group
# message: measured, that queue was a seven-socket room's fan-out bottleneck
# (docs/benchmarks.md). If Channels changes its dispatch, copy the change into ours.
CHANNELS_DISPATCH = '''
async def dispatch(self, message):
    handler = getattr(self, get_handler_name(message), None)
    if handler:
        await aclose_old_connections()
        await handler(message)
    else:
        raise ValueError("No handler for message type %s" % message["type"])
'''


def _code_of(source: str) -> str:
    """A function's code without its docstring, as a comparable AST dump."""
    func = ast.parse(textwrap.dedent(source)).body[0]
    assert isinstance(func, ast.AsyncFunctionDef)
    body = func.body
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        func.body = body[1:]
    return ast.dump(func)


def test_channels_dispatch_is_still_the_one_the_consumer_copies():
    assert _code_of(inspect.getsource(AsyncConsumer.dispatch)) == _code_of(CHANNELS_DISPATCH)


def test_the_consumer_dispatches_like_channels_without_closing_connections(monkeypatch):
    closed: list[None] = []

    async def record_close() -> None:
        closed.append(None)

    monkeypatch.setattr("channels.consumer.aclose_old_connections", record_close)
    sent: list[str] = []
    consumer = RoomConsumer()

    async def send(text_data=None, bytes_data=None, close=False):
        sent.append(text_data)

    consumer.send = send

    async def scenario() -> None:
        await consumer.dispatch({"type": "room.frame", "text": "hello"})
        assert sent == ["hello"] and closed == []
        await AsyncConsumer.dispatch(consumer, {"type": "room.frame", "text": "again"})
        assert sent == ["hello", "again"] and closed == [None]  # what ours leaves out
        with pytest.raises(ValueError):
            await consumer.dispatch({"type": "no.such_handler"})

    # A loop of its own, on a thread of its own: pytest-django runs the tests without a
    # database last, after the browser tests, whose Playwright (sync API) keeps an event loop
    # running on this thread for the whole session.
    with ThreadPoolExecutor(max_workers=1) as pool:
        pool.submit(asyncio.run, scenario()).result()


def test_daphne_refuses_a_send_after_close_with_the_class_the_consumer_ignores():
    """Daphne sends through autobahn, whose sendMessage raises ``Disconnected`` once the
    socket closed: the consumer ignores exactly that class (a group message racing a close)."""
    source = inspect.getsource(WebSocketProtocol.sendMessage)
    assert "raise Disconnected(" in source
    assert consumer_module.Disconnected.__module__ == "autobahn.exception"
