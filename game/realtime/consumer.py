"""The room websocket: parse each message (``game.protocol.inbound``), call the services and
selectors, and send what they return as frames (``game.protocol``).

Identity is the guest key in the Django session; a socket whose guest has no seat watches.
Every bad frame gets an ``error`` with a stable code and the socket stays open
(``docs/protocol.md`` is the contract).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from autobahn.exception import Disconnected
from channels.consumer import get_handler_name
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.conf import settings
from django.utils import translation

from .. import protocol, selectors, services
from ..domain import translated
from ..models import Room
from ..protocol import inbound
from ..protocol.client import RoomView
from ..protocol.inbound import BadMessage
from ..rules import Roll
from ..rules.errors import CodedError, gettext_noop
from ..web.clients import scope_client_address
from ..web.languages import language_of_scope
from . import heartbeat, room_refresh, turn_driver
from . import insight_publisher as insight
from .db_threads import in_db_thread
from .moves import aplay
from .throttle import Throttle, person_throttle

log = logging.getLogger(__name__)

#: The commands that change the room as a whole (``inbound.RoomChange``: each makes every
#: socket of it get a ``state``) share one budget per person in each server process
#: (``WS_ROOM_BURST``, ``WS_ROOM_PER_SECOND``).
#: What a daily challenge's player may send: its game's moves and a resync.
DAILY_COMMANDS = frozenset({"sync", "roll", "score", "hold"})

#: The close code of a socket accepted while the channel layer (Redis) is away: without it the
#: socket would hear nothing of the room. The page shows it and tries again (docs/protocol.md).
LAYER_AWAY = 4503


class RoomConsumer(AsyncJsonWebsocketConsumer):
    room: Room | None = None
    #: The last ``state`` sent, while nothing from the room came since (else None).
    _state_text: str | None = None
    #: The number of the last shared read of the room this socket sent (``room_refresh``).
    _read_number = 0
    #: (game id, seq) of the last command result this socket sent straight from its own
    #: command: the same result from the room's group is not sent twice.
    _delivered: tuple[int, int] | None = None
    #: The room as this socket last heard it (its ``state``, then ``presence`` and ``events``):
    #: its seat, the seats, the options, where the turn stands — enough to check a ``hold``.
    view: RoomView

    async def dispatch(self, message: dict[str, Any]) -> None:
        """Channels' own dispatch, less its ``aclose_old_connections()``: that runs on the one
        shared sync thread for every frame and group message, and with seven sockets a room
        that queue was the fan-out's bottleneck (docs/benchmarks.md). This consumer never
        touches the ORM on that thread; ``in_db_thread`` cleans up around each call instead.
        Channels has no switch for it: tests/realtime/test_framework_internals.py fails when
        Channels' dispatch changes."""
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']!r}")
        await handler(message)

    # --- connection lifecycle -------------------------------------------------------------

    async def connect(self) -> None:
        self.code = self.scope["url_route"]["kwargs"]["code"]
        # The sentences sent to this socket alone (errors) are in its person's language;
        # everything sent to the room is data, worded by each page.
        self.language = language_of_scope(self.scope)
        self.guest = await in_db_thread(self._session_guest)()
        self.frames = Throttle(settings.WS_RATE_PER_SECOND, settings.WS_RATE_BURST)
        # A ``sync`` costs a full state (~1.7 KB framed and sent): a client needs one after a
        # gap, not a stream of them (docs/protocol.md).
        self.syncs = Throttle(settings.WS_SYNC_PER_SECOND, settings.WS_SYNC_BURST)
        self.holds = Throttle(settings.WS_HOLD_PER_SECOND, settings.WS_HOLD_BURST)
        # A room change costs every socket of the room a ``state``: a budget of its own, one
        # per person (their tabs share it), or a person with many tabs multiplies it.
        self.room_changes = person_throttle(
            self.guest, settings.WS_ROOM_PER_SECOND, settings.WS_ROOM_BURST)
        self.view = RoomView()
        self.room = await in_db_thread(Room.objects.filter(code=self.code).first)()
        if self.room is None:
            await self.close(code=4404)  # before accept: the handshake is refused
            return
        if self.room.daily_id and not await in_db_thread(services.seat_of)(self.room, self.guest):
            self.room = None  # a daily challenge has no watchers: only its player connects
            await self.close(code=4403)
            return
        self.address = scope_client_address(self.scope)
        # In the group before the state is read, so no event falls between the two; the
        # socket's own ``presence`` comes after its ``state``, as a group message waits
        # until ``connect`` returns.
        if not await services.agroup_add(self.code, self.channel_name):
            self.room = None  # nothing stored, nothing to leave
            await self.refuse_without_layer()
            return
        try:
            here = await in_db_thread(services.socket_opened)(
                self.room, self.channel_name, self.guest, self.address)
        except services.ServiceError:  # over the socket caps: nothing was stored
            self.room = None  # nothing to leave
            await services.agroup_discard(self.code, self.channel_name)
            await self.close(code=4429)  # before accept: the handshake is refused
            return
        await services.asend_presence(self.code, here)
        await self.accept()
        await self.send_state()
        turn = self.view.turn
        if turn is not None and not turn["over"]:
            insight.spawn(self._send_insight(turn))
        heartbeat.register(self.channel_name, self.room, self.guest)
        # An arrival may resume a game that waited for someone (a bot's turn, a person away);
        # when the player to move is here, the driver has nothing to do: its queries are
        # skipped for most arrivals (a restart brings every socket back at once).
        if turn is not None and not turn["over"] and self.view.driver_may_act(turn["player"]):
            turn_driver.kick(self.code)

    async def refuse_without_layer(self) -> None:
        """Accepted, then closed with ``LAYER_AWAY``: refused before its acceptance, the
        page would see only "1006", not why (Daphne answers 403 and drops the code)."""
        await self.accept()
        await self.close(code=LAYER_AWAY)

    def _session_guest(self) -> str:
        session = self.scope.get("session")
        return session.get(services.SESSION_GUEST, "") if session is not None else ""

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        """``disconnect()`` does not run when a handler raises, nor when the server cancels the
        consumer (shutdown, a close it took too long to handle): presence ends here in every
        case, or the heartbeat would keep a dead socket's seat "here" forever."""
        try:
            await super().__call__(scope, receive, send)
        except Exception:
            if getattr(self, "channel_name", None) is not None:
                raise
            # The layer could not give this socket its channel: Redis is away. A clear
            # close, not Daphne's HTTP 500 for a consumer that raised.
            services.layer_failed("a socket's channel")
            await send({"type": "websocket.accept"})
            await send({"type": "websocket.close", "code": LAYER_AWAY})
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
        await services.agroup_discard(self.code, self.channel_name)  # bounded, never raises
        try:
            here = await in_db_thread(services.socket_closed)(
                self.room, self.channel_name, self.guest)
            await services.asend_presence(self.code, here)
        except (Exception, asyncio.CancelledError):  # a server going down: staleness will do
            log.warning("room %s: could not announce a closed socket", self.code, exc_info=True)
            return
        turn = self.view.turn
        if turn is not None and not turn["over"] and (
                turn["player"] == self.view.you_seat or self.view.turn_time):
            turn_driver.kick(self.code)  # their turn: the away clock runs now

    # --- frames from the client -------------------------------------------------------------

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        admitted = self.frames.admit()
        if admitted != "yes":
            if admitted == "refuse":
                await self.send_error(BadMessage("rate_limited",
                                                 gettext_noop("Too many messages; slow down.")))
            return
        cid = ""
        try:
            message = inbound.parse(text_data, self._check_type)
            cid = message.id
            await self.handle(message)
        except BadMessage as exc:  # a frame of the wrong shape: nothing was done
            await self.send_error(exc, exc.command_id or cid)
        except CodedError as exc:  # a refused command or an illegal move
            await self.send_error(exc, cid)
        except Exception:  # noqa: BLE001 - one bad frame must not end the socket
            log.exception("room %s: a frame could not be handled", self.code)
            await self.send_error(BadMessage("server_error", gettext_noop(
                "The server could not handle that message; nothing was changed by it.")), cid)

    def _check_type(self, kind: str) -> None:
        if self.room is not None and self.room.daily_id and kind not in DAILY_COMMANDS:
            raise BadMessage("daily", gettext_noop(
                "A daily challenge is played alone to its end: no seats, options, rematch or "
                "autoplay."))

    async def handle(self, message: inbound.Message) -> None:
        match message:
            case inbound.Sync():
                admitted = self.syncs.admit()
                if admitted == "yes":
                    await self.send_state(reuse=True)
                elif admitted == "refuse":
                    raise BadMessage("rate_limited", gettext_noop(
                        "Too many sync requests; the state was sent a moment ago and every "
                        "change follows it."))
            case inbound.Play(action=action):
                # The result straight to this socket, whatever the layer does with the group's.
                result = await aplay(self.code, action, sender=self,
                                     guest_key=self.guest or None, command_id=message.id)
                if result.duplicate:
                    await self.send_state()  # already applied: here is where things stand
                elif self.view.practice and isinstance(action, Roll):
                    insight.after_roll(self.code, result.game_id)
                elif result.events and self._driver_needed(result.events[-1]):
                    turn_driver.kick(self.code)
            case inbound.Hold(held=held):
                await self.share_holds(list(held))
            case inbound.PlayForAway():
                await in_db_thread(services.check_guest_active)(self.code, self.guest or None)
                await turn_driver.play_for_away(self.code, self.guest or None)
            case inbound.RoomChange():
                if self._room_change_admitted():
                    await self.change_room(message)

    def _room_change_admitted(self) -> bool:
        """Whether this socket's budget of room changes allows one more (refused once per
        flood with ``rate_limited``, then dropped unanswered)."""
        admitted = self.room_changes.admit()
        if admitted == "refuse":
            raise BadMessage("rate_limited",
                             gettext_noop("Too many changes to the room; slow down."))
        return admitted == "yes"

    async def change_room(self, message: inbound.RoomChange) -> None:
        """A command that changes the room as a whole: everyone gets a ``state``."""
        await in_db_thread(services.check_guest_active)(self.code, self.guest or None)
        if isinstance(message, inbound.Start):
            await in_db_thread(services.start_game)(self.code, self.guest)
            turn_driver.kick(self.code)
        else:  # the seed, the seats and the options: between games only (services refuse)
            await in_db_thread(_change_room)(self.code, self.guest, message)

    async def share_holds(self, held: list[int]) -> None:
        """The player to move shows the room which dice they hold, as they change them. Never
        stored and outside the ``seq`` stream: the roll still carries the authoritative hold."""
        turn, seat = self.view.turn, self.view.you_seat
        if turn is None or turn["over"]:
            raise BadMessage("no_game", gettext_noop("No game is running."))
        if seat is None:
            raise BadMessage("watcher",
                             gettext_noop("You are watching this room; take a seat to play."))
        if turn["player"] != seat:
            raise BadMessage("not_your_turn", gettext_noop("It is not your turn."))
        if not turn["rolled"]:
            raise BadMessage("hold_before_roll",
                             gettext_noop("Roll first; then choose the dice to hold."))
        if turn["rolls_left"] == 0:
            raise BadMessage("no_rolls_left", gettext_noop("No rolls left: choose a box to score."))
        admitted = self.holds.admit()
        if admitted == "refuse":
            raise BadMessage("rate_limited", gettext_noop("Too many hold changes; slow down."))
        if admitted == "yes":
            await services.asend_frame(
                self.code, protocol.holding(turn["game"], turn["seq"], seat, held))

    async def send_error(self, error: CodedError, cid: str = "") -> None:
        """``error`` to this socket, in its person's language (``cid``: the refused command's
        id)."""
        with translation.override(self.language):
            message = translated.message(error)
        await self.send_json(protocol.error(error.code, message, cid))

    async def send_state(self, reuse: bool = False) -> None:
        """The room's full ``state``. With ``reuse``, the one last sent if this socket heard
        nothing from the room since: a client that syncs in a loop costs no queries. (A client
        that saw a gap has received the later event, which makes the state stale here too.
        While the layer is away, "nothing heard" proves nothing: the state is read.)"""
        if reuse and self._state_text is not None and not services.layer_away():
            await self.send(text_data=self._state_text)
            return
        snapshot = await in_db_thread(selectors.room_state)(self.room, self.guest)
        frame = protocol.state(snapshot)
        self.view = RoomView.of_state(frame)
        self._state_text = await self.encode_json(frame)
        await self.send(text_data=self._state_text)

    def _driver_needed(self, last_event: dict[str, Any]) -> bool:
        """Whether a command ending on ``last_event`` hands the turn to a bot or to a person
        this socket last heard was away. Skipping the others saves the driver's queries on
        most turns; a presence this socket missed (a server that died) is caught by the
        heartbeat's kick."""
        return last_event["kind"] == "turn_started" and self.view.driver_may_act(
            last_event["player"])

    async def send_json(self, content: Any, close: bool = False) -> None:
        # Channels' own send_json skips an override of ``send``: go through ours.
        await self.send(text_data=await self.encode_json(content), close=close)

    async def send(self, text_data=None, bytes_data=None, close=False) -> None:
        """A group message can race the client's close; Daphne then refuses the send with
        autobahn's ``Disconnected`` (tests/realtime/test_framework_internals.py checks it).
        The disconnect handler still runs: ignore."""
        try:
            await super().send(text_data=text_data, bytes_data=bytes_data, close=close)
        except Disconnected:
            log.debug("room %s: send after the client closed", self.code)

    # --- messages from the room's group ------------------------------------------------------

    async def game_events(self, event: dict[str, Any]) -> None:
        turn = event.get("turn")
        if not self._sent_already(turn):
            self._state_text = None
            self.view.turn = event.get("turn", self.view.turn)
            for text in event["texts"]:  # encoded once by the sender, not once per socket
                await self.send(text_data=text)
        # The turn's standings, where they were known at once: the sender's socket too.
        standings = event.get("standings")
        if standings is not None and self.view.sees_standings:
            await self.send(text_data=standings)

    def _sent_already(self, turn: protocol.Turn | None) -> bool:
        """Whether these events are this socket's own command's, sent to it straight from it
        (``deliver``), or older than those."""
        return (turn is not None and self._delivered is not None
                and (turn["game"], turn["seq"]) <= self._delivered)

    async def deliver(self, event: dict[str, Any]) -> bool:
        """This socket's own command's group message, sent by its consumer before the group
        gets it (``aplay``): the layer may be away, or slow. Only right after the last event
        this socket sent: events before it still on their way come first, through the group
        (sent ahead of them, the result would leave a gap its client cannot fill)."""
        turn, last = event["turn"], self.view.turn
        if turn is None or last is None or last["game"] != turn["game"] \
                or last["seq"] != event["first"] - 1:
            return False
        await self.game_events(event)
        self._delivered = (turn["game"], turn["seq"])
        return True

    async def resync(self) -> None:
        """Its result came neither straight (``deliver``) nor through the group."""
        await self.send_state()
        turn = self.view.turn
        if turn is not None:
            self._delivered = (turn["game"], turn["seq"])

    async def _send_insight(self, turn: protocol.Turn) -> None:
        """What a socket joining a running game would have had: the standings, and the
        coach's advice if it is this player's turn in a practice room after a roll."""
        if self.view.sees_standings:
            standings = await insight.standings(turn["game"], turn["rules"])
            if standings:
                await self.send_json(protocol.standings(standings))
        if self.view.practice and turn["rolled"] and turn["player"] == self.view.you_seat:
            advice = await insight.advice(turn["game"])
            if advice and advice.player == self.view.you_seat:
                await self.send_json(protocol.advice(advice))

    async def room_advice(self, event: dict[str, Any]) -> None:
        if event["player"] == self.view.you_seat:  # only sent in practice rooms
            await self.send(text_data=event["text"])

    async def room_standings(self, event: dict[str, Any]) -> None:
        if self.view.sees_standings:
            await self.send(text_data=event["text"])

    async def room_frame(self, event: dict[str, Any]) -> None:
        """A notice for everyone (``holding``, ``preparing``): passed on as it is."""
        await self.send(text_data=event["text"])

    async def room_changed(self, event: dict[str, Any]) -> None:
        """The room changed as a whole: its fresh ``state``, read once for all of this
        process's sockets to it (``room_refresh``). Awaited here, so that nothing the room
        sends later reaches this socket before it; a change that a read this socket sent
        covers already sends nothing more."""
        read = await room_refresh.refreshed(self.code, event.get("change"))
        if read.number <= self._read_number:
            return  # this socket sent that read, or a later one, already
        self._read_number = read.number
        frame, text = read.state_for(self.guest)
        if text == self._state_text:
            return  # the same state, and nothing from the room since
        self.view = RoomView.of_state(frame)
        self._state_text = text
        await self.send(text_data=text)

    async def room_presence(self, event: dict[str, Any]) -> None:
        self._state_text = None
        heartbeat.saw_presence(self.code, event["message"])
        self.view.saw_presence(event["message"])
        await self.send(text_data=event["text"])


def _change_room(code: str, guest: str, message: inbound.RoomChange) -> None:
    """A room change but the start, by its service (on a database thread)."""
    match message:
        case inbound.SetSeed(seed=seed):
            services.set_dice_seed(code, guest, seed)
        case inbound.AddSeat():
            services.add_seat(code, guest or None)
        case inbound.LeaveSeat():
            services.leave_seat(code, guest or None)
        case inbound.SeatBot(seat=seat, level=level):
            services.seat_bot(code, guest or None, seat, level)
        case inbound.RemoveSeat(seat=seat):
            services.remove_seat(code, guest or None, seat)
        case inbound.SetOptions(options=options):
            services.set_room_options(code, guest or None, **options)
        case _:
            raise TypeError(f"not a room change: {message!r}")
