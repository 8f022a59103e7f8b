"""The room websocket: check each message's shape, call the services, send what they say.

Identity is the guest key in the Django session; a socket whose guest has no seat watches.
Every bad frame gets an ``error`` with a stable code and the socket stays open
(``docs/protocol.md`` is the contract).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

from channels.consumer import get_handler_name
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.conf import settings

from .. import selectors, services
from ..clients import scope_client_address
from ..models import Room
from ..rules.errors import CodedError
from . import heartbeat, turn_driver
from .db_threads import aplay, in_db_thread
from .frames import BadMessage, command_id, parse_action, parse_frame, parse_seed
from .throttle import TokenBucket

log = logging.getLogger(__name__)


class RoomConsumer(AsyncJsonWebsocketConsumer):
    room: Room | None = None
    #: The last ``state`` sent, while nothing from the room came since (else None).
    _state_text: str | None = None

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
        self.address = scope_client_address(self.scope)
        try:
            await in_db_thread(services.check_socket_limit)(self.guest, self.address)
        except services.ServiceError:
            self.room = None  # nothing to leave
            await self.close(code=4429)
            return
        await self.channel_layer.group_add(services.group_name(self.code), self.channel_name)
        await self.accept()
        # Announced to the room, this socket included: its ``presence`` comes after the
        # ``state`` below, as a group message waits until ``connect`` returns.
        await in_db_thread(services.socket_opened)(
            self.room, self.channel_name, self.guest, self.address)
        await self.send_state()
        heartbeat.register(self.channel_name, self.room, self.guest)
        turn_driver.kick(self.code)

    def _session_guest(self) -> str:
        session = self.scope.get("session")
        return session.get(services.SESSION_GUEST, "") if session is not None else ""

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        """``disconnect()`` does not run when a handler raises, nor when the server cancels the
        consumer (shutdown, a close it took too long to handle): presence ends here in every
        case, or the heartbeat would keep a dead socket's seat "here" forever."""
        try:
            await super().__call__(scope, receive, send)
        finally:
            await self._leave()

    async def disconnect(self, code: int) -> None:
        await self._leave()

    async def _leave(self) -> None:
        """Forget this socket: at once in this process, then in the room (once)."""
        if self.room is None or getattr(self, "_left", False):
            return
        self._left = True
        heartbeat.unregister(self.channel_name)  # from now on its row goes stale by itself
        try:
            await self.channel_layer.group_discard(
                services.group_name(self.code), self.channel_name)
            await in_db_thread(services.socket_closed)(self.room, self.channel_name, self.guest)
        except (Exception, asyncio.CancelledError):  # a server going down: staleness will do
            log.warning("room %s: could not announce a closed socket", self.code, exc_info=True)
            return
        turn_driver.kick(self.code)  # if it was their turn, the away clock runs now

    # --- frames from the client -------------------------------------------------------------

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if not self.bucket.allow():
            if not self.throttled:  # one error per flood; the rest is dropped
                self.throttled = True
                await self.send_error("rate_limited", "Too many messages; slow down.")
            return
        self.throttled = False
        msg: dict[str, Any] | None = None
        try:
            msg = parse_frame(text_data)
            await self.handle(msg)
        except CodedError as exc:  # a bad frame, a refused command or an illegal move
            await self.send_error(exc.code, exc.message, msg)
        except Exception:  # noqa: BLE001 - one bad frame must not end the socket
            log.exception("room %s: a frame could not be handled", self.code)
            await self.send_error("server_error", "The server could not handle that message; "
                                                  "nothing was changed by it.", msg)

    async def handle(self, msg: dict[str, Any]) -> None:
        kind = msg.get("type")
        if not isinstance(kind, str):
            raise BadMessage("bad_message", "A message needs a \"type\" string.")
        cid = command_id(msg)
        if kind == "sync":
            await self.send_state(reuse=True)
        elif kind in ("roll", "score"):
            result = await aplay(
                self.code, parse_action(msg), guest_key=self.guest or None, command_id=cid)
            if result.duplicate:
                await self.send_state()  # already applied: here is where things stand
            elif result.messages and self._driver_needed(result.messages[-1]["event"]):
                turn_driver.kick(self.code)
        elif kind == "seed":
            await in_db_thread(services.set_dice_seed)(self.code, self.guest, parse_seed(msg))
        elif kind in ("start", "rematch"):
            await in_db_thread(services.start_game)(self.code, self.guest)
            turn_driver.kick(self.code)
        else:
            raise BadMessage("unknown_type", f"Unknown message type {kind[:40]!r}.")

    async def send_error(self, code: str, message: str, msg: Any = None) -> None:
        reply: dict[str, Any] = {"type": "error", "code": code, "message": message}
        if isinstance(msg, dict):
            with contextlib.suppress(BadMessage):
                cid = command_id(msg)
                if cid:
                    reply["id"] = cid
        await self.send_json(reply)

    async def send_state(self, reuse: bool = False) -> None:
        """The room's full ``state``. With ``reuse``, the one last sent if this socket heard
        nothing from the room since: a client that syncs in a loop costs no queries. (A client
        that saw a gap has received the later event, which makes the state stale here too.)"""
        if reuse and self._state_text is not None:
            await self.send(text_data=self._state_text)
            return
        state = await in_db_thread(selectors.room_state)(self.room, self.guest)
        self.seats = {s["seat"]: s for s in state["room"]["seats"]}
        self._state_text = await self.encode_json(state)
        await self.send(text_data=self._state_text)

    def _driver_needed(self, last_event: dict[str, Any]) -> bool:
        """Whether a command ending on ``last_event`` hands the turn to a bot or to a person
        this socket last heard was away. Skipping the others saves the driver's queries on
        most turns; a presence this socket missed (a server that died) is caught by the
        heartbeat's kick."""
        if last_event["kind"] != "turn_started":
            return False
        seat = self.seats.get(last_event["player"])
        return seat is None or seat["kind"] == "bot" or not seat["connected"]

    async def send_json(self, content: Any, close: bool = False) -> None:
        # Channels' own send_json skips an override of ``send``: go through ours.
        await self.send(text_data=await self.encode_json(content), close=close)

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
        self._state_text = None
        for text in event["texts"]:  # encoded once by the sender, not once per socket
            await self.send(text_data=text)

    async def room_changed(self, event: dict[str, Any]) -> None:
        await self.send_state()

    async def room_presence(self, event: dict[str, Any]) -> None:
        self._state_text = None
        heartbeat.saw_presence(self.code, event["message"])
        for seat in event["message"]["seats"]:
            if seat["seat"] in self.seats:
                self.seats[seat["seat"]]["connected"] = seat["connected"]
        await self.send_json(event["message"])
