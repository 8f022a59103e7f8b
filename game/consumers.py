"""The room websocket: check each message's shape, call the services, send what they say.

Identity is the guest key in the Django session; a socket whose guest has no seat watches.
Every bad frame gets an ``error`` with a stable code and the socket stays open
(``docs/protocol.md`` is the contract).
"""

from __future__ import annotations

import contextlib
import json
import logging
import time
from collections.abc import Callable
from typing import Any

from channels.consumer import get_handler_name
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.conf import settings

from . import bots, heartbeat, services
from .db import in_db_thread
from .models import Room
from .rules import Action, Roll, RulesError, Score
from .services import broadcast, presence
from .services.rooms import SESSION_GUEST

log = logging.getLogger(__name__)

MAX_FRAME_BYTES = 4096
MAX_ID_LENGTH = 64
MAX_BOX_LENGTH = 32




class TokenBucket:
    """``allow()`` is False once more than ``burst`` frames came faster than ``rate``/s."""

    def __init__(self, rate: float, burst: float,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.rate, self.burst, self.clock = rate, burst, clock
        self.tokens, self.stamp = burst, clock()

    def allow(self) -> bool:
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


class BadMessage(Exception):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code, self.message = code, message


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _command_id(msg: dict[str, Any]) -> str:
    cid = msg.get("id", "")
    if cid is None:
        return ""
    if not isinstance(cid, str) or len(cid) > MAX_ID_LENGTH:
        raise BadMessage("bad_message", f"id must be a string of at most {MAX_ID_LENGTH} "
                                        "characters.")
    return cid


def parse_action(msg: dict[str, Any]) -> Action:
    """The ``roll`` / ``score`` intention of a message, or BadMessage for a wrong shape."""
    if msg["type"] == "roll":
        hold = msg.get("hold", [])
        if not isinstance(hold, list) or len(hold) > 5 or not all(_is_int(h) for h in hold):
            raise BadMessage("bad_message", "hold must be a list of die positions 0-4.")
        return Roll(tuple(hold))
    box, column = msg.get("box"), msg.get("column", 0)
    if not isinstance(box, str) or not 0 < len(box) <= MAX_BOX_LENGTH:
        raise BadMessage("bad_message", "box must be the name of a box, like \"chance\".")
    if not _is_int(column) or not -1 < column < 100:
        raise BadMessage("bad_message", "column must be a whole number (0, or 0-2 in triple).")
    return Score(box, column)


class RoomConsumer(AsyncJsonWebsocketConsumer):
    room: Room | None = None

    async def dispatch(self, message: dict[str, Any]) -> None:
        """Channels' own dispatch first closes stale DB connections on the one shared sync
        thread, for every frame and group message: with seven sockets a room that queue was
        the fan-out's bottleneck (docs/benchmarks.md). This consumer never touches the ORM on
        that thread; ``in_db_thread`` cleans up around each call instead."""
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']!r}")
        await handler(message)

    # --- connection lifecycle -------------------------------------------------------------

    async def connect(self) -> None:
        self.code = self.scope["url_route"]["kwargs"]["code"]
        self.guest = await in_db_thread(self._session_guest)()
        self.bucket = TokenBucket(settings.WS_RATE_PER_SECOND, settings.WS_RATE_BURST)
        self.throttled = False
        # The room's seats as this socket last heard them (``state``, then ``presence``).
        self.seats: dict[int, dict[str, Any]] = {}
        self.room = await in_db_thread(Room.objects.filter(code=self.code).first)()
        if self.room is None:
            await self.close(code=4404)  # before accept: the handshake is refused
            return
        await self.channel_layer.group_add(broadcast.group_name(self.code), self.channel_name)
        await self.accept()
        message = await in_db_thread(presence.join)(
            self.room, self.channel_name, self.guest)
        await self.send_state()
        await broadcast.agroup_send(self.code, {"type": "room.presence", "message": message})
        heartbeat.register(self.channel_name, self.room, self.guest)
        bots.kick(self.code)

    def _session_guest(self) -> str:
        session = self.scope.get("session")
        return session.get(SESSION_GUEST, "") if session is not None else ""

    async def disconnect(self, code: int) -> None:
        if self.room is None:
            return
        heartbeat.unregister(self.channel_name)
        await self.channel_layer.group_discard(broadcast.group_name(self.code), self.channel_name)
        message = await in_db_thread(presence.leave)(
            self.room, self.channel_name, self.guest)
        await broadcast.agroup_send(self.code, {"type": "room.presence", "message": message})
        bots.kick(self.code)  # if it was their turn, the away clock runs now

    # --- frames from the client -------------------------------------------------------------

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if not self.bucket.allow():
            if not self.throttled:  # one error per flood; the rest is dropped
                self.throttled = True
                await self.send_error("rate_limited", "Too many messages; slow down.")
            return
        self.throttled = False
        msg: Any = None
        try:
            if text_data is None:
                raise BadMessage("bad_message", "Send JSON text frames, not binary ones.")
            if len(text_data) > MAX_FRAME_BYTES or len(text_data.encode()) > MAX_FRAME_BYTES:
                raise BadMessage("too_large", f"Messages are at most {MAX_FRAME_BYTES} bytes.")
            try:
                msg = await self.decode_json(text_data)
            except (ValueError, RecursionError):
                raise BadMessage("bad_json", "That message is not valid JSON.") from None
            if not isinstance(msg, dict):
                raise BadMessage("bad_message", "A message is a JSON object with a type.")
            await self.handle(msg)
        except BadMessage as exc:
            await self.send_error(exc.code, exc.message, msg)
        except (services.ServiceError, RulesError) as exc:
            await self.send_error(exc.code, exc.message, msg)

    async def handle(self, msg: dict[str, Any]) -> None:
        kind = msg.get("type")
        if not isinstance(kind, str):
            raise BadMessage("bad_message", "A message needs a \"type\" string.")
        command_id = _command_id(msg)
        if kind == "sync":
            await self.send_state()
        elif kind in ("roll", "score"):
            result = await services.aplay(
                self.code, parse_action(msg), guest_key=self.guest or None,
                command_id=command_id)
            if result.duplicate:
                await self.send_state()  # already applied: here is where things stand
            elif result.messages and self._driver_needed(result.messages[-1]["event"]):
                bots.kick(self.code)
        elif kind in ("start", "rematch"):
            await in_db_thread(services.start_game)(self.code, self.guest)
            bots.kick(self.code)
        else:
            raise BadMessage("unknown_type", f"Unknown message type {kind[:40]!r}.")

    async def decode_json(self, text_data: str) -> Any:
        return json.loads(text_data)

    async def send_error(self, code: str, message: str, msg: Any = None) -> None:
        reply: dict[str, Any] = {"type": "error", "code": code, "message": message}
        if isinstance(msg, dict):
            with contextlib.suppress(BadMessage):
                cid = _command_id(msg)
                if cid:
                    reply["id"] = cid
        await self.send_json(reply)

    async def send_state(self) -> None:
        state = await in_db_thread(services.room_state)(self.room, self.guest)
        self.seats = {s["seat"]: s for s in state["room"]["seats"]}
        await self.send_json(state)

    def _driver_needed(self, last_event: dict[str, Any]) -> bool:
        """Whether a command ending on ``last_event`` hands the turn to a bot or to a person
        this socket last heard was away. Skipping the others saves the driver's queries on
        most turns; a presence this socket missed (a server that died) is caught by the
        heartbeat's kick."""
        if last_event["kind"] != "turn_started":
            return False
        seat = self.seats.get(last_event["player"])
        return seat is None or seat["kind"] == "bot" or not seat["connected"]

    async def send(self, text_data=None, bytes_data=None, close=False) -> None:
        """A group message can race the client's close; the server (Daphne: autobahn's
        ``Disconnected``) then refuses the send. The disconnect handler still runs: ignore."""
        try:
            await super().send(text_data=text_data, bytes_data=bytes_data, close=close)
        except Exception as exc:  # noqa: BLE001 - which class depends on the server
            if type(exc).__name__ != "Disconnected":
                raise
            log.debug("room %s: send after the client closed", self.code)

    # --- messages from the room's group ------------------------------------------------------

    async def game_events(self, event: dict[str, Any]) -> None:
        for text in event["texts"]:  # encoded once by the sender, not once per socket
            await self.send(text_data=text)

    async def room_changed(self, event: dict[str, Any]) -> None:
        await self.send_state()

    async def room_presence(self, event: dict[str, Any]) -> None:
        heartbeat.saw_presence(self.code, event["message"])
        for seat in event["message"]["seats"]:
            if seat["seat"] in self.seats:
                self.seats[seat["seat"]]["connected"] = seat["connected"]
        await self.send_json(event["message"])
