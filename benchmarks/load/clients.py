"""Rooms of websocket clients: bot players that make moves, watchers that only listen.

Every socket records when each numbered event (``seq``) reached it; latencies are computed
after the run from those receipt times and the moment each move was sent, so a late message
is measured, not lost track of. One asyncio loop drives every socket (perf_counter clock).
"""

from __future__ import annotations

import asyncio
import json
import random
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed
from websockets.typing import Origin

from game.protocol.client import event_messages, state_after

from .stats import SeqTracker

#: The event kind that opens the result of each command (nothing else produces it).
FIRST_KIND = {"roll": "rolled", "score": "scored"}
#: Event kinds that close a command's result: after them, the next command may be chosen.
LAST_KINDS = {"roll": {"rolled"}, "score": {"turn_started", "game_finished"}}
COMMAND_TIMEOUT = 10.0
#: Event kinds after which the app sends the standings (where the table is built).
TURN_END_KINDS = ("turn_started", "game_finished")


@dataclass
class Move:
    command: str
    sender: Client
    sent: float
    base_seq: int
    cmd_id: str
    first_seq: int | None = None
    done: asyncio.Event = field(default_factory=asyncio.Event)
    error: str | None = None


@dataclass(eq=False)
class Client:
    """One websocket: a player (``seat`` set) or a watcher."""

    room: Room
    url: str
    origin: str
    cookie: str = ""
    watcher: bool = False
    seat: int | None = None
    ws: ClientConnection | None = None
    seq: SeqTracker = field(default_factory=SeqTracker)
    start_seq: int = 0
    received_at: dict[int, float] = field(default_factory=dict)
    game: dict[str, Any] | None = None
    errors: Counter = field(default_factory=Counter)
    closed_early: bool = False
    state_seen: asyncio.Event = field(default_factory=asyncio.Event)
    final_seq: int | None = None
    bytes_in: int = 0
    event_bytes: int = 0  # of the frames that carry events, and how many there were
    event_frames: int = 0
    holdings: int = 0  # transient ``holding`` frames received (--holds)
    standings: int = 0  # ``standings`` frames received (--strategy-dir)
    #: When each turn end (``turn_started`` / ``game_finished``) reached this socket, by seq;
    #: and per ``standings`` frame: the turn ends it was behind on arrival, and the time from
    #: the turn end it is as of (if it is as of one) to its arrival.
    turn_ends: dict[int, float] = field(default_factory=dict)
    standings_behind: list[int] = field(default_factory=list)
    standings_after: list[float] = field(default_factory=list)
    standings_seq: int = 0  # the seq of the last ``standings`` frame

    async def open(self) -> None:
        headers = [("Cookie", self.cookie)] if self.cookie else []
        self.ws = await connect(
            self.url, origin=Origin(self.origin), additional_headers=headers, compression=None,
            max_size=2**22, ping_interval=None, open_timeout=60, close_timeout=2,
        )

    async def send(self, message: dict[str, Any]) -> None:
        assert self.ws is not None
        await self.ws.send(json.dumps(message))

    async def read_forever(self) -> None:
        assert self.ws is not None
        try:
            async for raw in self.ws:
                now = time.perf_counter()
                self.bytes_in += len(raw)
                self.on_message(json.loads(raw), now, len(raw))
        except ConnectionClosed:
            pass
        if not self.room.stopping:
            self.closed_early = True

    def on_message(self, msg: dict[str, Any], now: float, size: int = 0) -> None:
        kind = msg.get("type")
        if kind == "state":
            seq = int(msg.get("seq") or 0)
            if not self.state_seen.is_set():
                self.start_seq = seq
                self.seq.reset(seq)
                you = msg.get("you") or {}
                if not self.watcher:
                    self.seat = you.get("seat")
                self.state_seen.set()
            else:
                self.final_seq = seq
            self.game = msg.get("game") or self.game
        elif kind == "holding":  # transient: no seq of its own
            self.holdings += 1
        elif kind == "standings":  # after each turn, where the table is ready
            self.on_standings(int(msg.get("seq") or 0), now)
        elif kind in ("events", "event"):  # one command's events; the relay's own frames
            self.event_frames += 1
            self.event_bytes += size
            if kind == "events":
                self.game = state_after(self.game, msg)
            for event in event_messages(msg) if kind == "events" else [msg]:
                self.on_event(event, now)
        elif kind == "error":
            self.errors[msg.get("code", "?")] += 1
            self.room.on_error(self, msg)

    def on_standings(self, seq: int, now: float) -> None:
        """Counted, with how far behind the room's turns it arrived."""
        self.standings += 1
        self.standings_seq = max(self.standings_seq, seq)
        # The game's latest turn end at or before ``seq`` is what the standings show.
        self.standings_behind.append(sum(1 for s in self.turn_ends if s > seq))
        shown = max((s for s in self.turn_ends if s <= seq), default=None)
        if shown is not None:
            self.standings_after.append(now - self.turn_ends[shown])

    def on_event(self, msg: dict[str, Any], now: float) -> None:
        seq = int(msg["seq"])
        self.seq.see(seq)
        self.received_at.setdefault(seq, now)
        if (msg.get("event") or {}).get("kind") in TURN_END_KINDS:
            self.turn_ends[seq] = now
        self.room.on_event(self, seq, (msg.get("event") or {}).get("kind"), msg.get("id"))


@dataclass(eq=False)
class Room:
    """A room's sockets and its move loop; ``relay`` rooms talk to the bare baseline."""

    code: str
    relay: bool
    #: After every roll, the roller shows one hold (``hold``; on the relay a frame as small).
    holds: bool = False
    #: Which allowed box a player scores: the first (every game then reaches the same cards)
    #: or, given a seeded ``random.Random``, a random one (games differ, as people's do).
    boxes: random.Random | None = None
    players: list[Client] = field(default_factory=list)
    watchers: list[Client] = field(default_factory=list)
    moves: list[Move] = field(default_factory=list)
    pending: Move | None = None
    stopping: bool = False
    finished: bool = False
    late_starts: int = 0
    timeouts: int = 0
    relay_seq: int = 0
    last_done: float = 0.0
    stalled: bool = False

    @property
    def clients(self) -> list[Client]:
        return self.players + self.watchers

    # -- receiving -----------------------------------------------------------------------
    def on_event(self, client: Client, seq: int, kind: str | None, cmd_id: str | None) -> None:
        move = self.pending
        if move is None or client is not move.sender:
            return
        if self.relay:  # the relayed frame is the whole result
            if seq == move.first_seq:
                move.done.set()
            return
        if move.first_seq is None and seq > move.base_seq and (
            kind == FIRST_KIND[move.command] or (cmd_id is not None and cmd_id == move.cmd_id)
        ):
            move.first_seq = seq
        if move.first_seq is not None and kind in LAST_KINDS[move.command]:
            if kind == "game_finished":
                self.finished = True
            move.done.set()

    def on_error(self, client: Client, msg: dict[str, Any]) -> None:
        move = self.pending
        if move is not None and client is move.sender:
            move.error = msg.get("code", "?")
            move.done.set()

    # -- moving --------------------------------------------------------------------------
    def next_command(self) -> tuple[Client, dict[str, Any]] | None:
        """The bot: roll once, then score the first allowed box (or a random one); None when
        nothing to do."""
        if self.relay:
            sender = self.players[len(self.moves) % len(self.players)]
            command = "roll" if len(self.moves) % 2 == 0 else "score"
            self.relay_seq += 1
            return sender, {"type": "event", "seq": self.relay_seq,
                            "event": {"kind": FIRST_KIND[command], "player": sender.seat},
                            "cmd": command}
        informed = [p for p in self.players if p.game is not None and p.ws is not None]
        if not informed:  # no player socket got the game: nothing to drive (reported)
            self.stalled = True
            return None
        game = max(informed, key=lambda p: p.seq.last or 0).game
        if game is None or game.get("finished"):
            return None
        mover = next((p for p in informed if p.seat == game["current_player"]), None)
        if mover is None:
            return None
        options = [o for o in game.get("options") or [] if o.get("allowed")]
        if game.get("dice") is None or not options:
            return mover, {"type": "roll", "hold": []}
        box = self.boxes.choice(options) if self.boxes else options[0]
        return mover, {"type": "score", "box": box["box"], "column": box.get("column", 0)}

    async def play(self, start: float, count: int, interval: float, deadline: float) -> None:
        """Make ``count`` moves, the k-th due at ``start + k * interval`` (perf_counter);
        a move that cannot start on time starts late (counted), none is skipped."""
        for k in range(count):
            due = start + k * interval
            now = time.perf_counter()
            if self.stopping or now >= deadline:
                return
            if due > now:
                await asyncio.sleep(due - now)
            elif now - due > interval:
                self.late_starts += 1
            chosen = self.next_command()
            if chosen is None:
                self.finished = True
                return
            sender, message = chosen
            command = message.pop("cmd", None) or message["type"]
            # Anything numbered above what the room has seen so far is this command's result.
            base = max(p.seq.last or 0 for p in self.players)
            move = Move(command, sender, 0.0, base, f"{self.code}-{len(self.moves) + 1}")
            message["id"] = move.cmd_id
            self.moves.append(move)
            self.pending = move
            move.sent = time.perf_counter()
            if self.relay:
                move.first_seq = message["seq"]
            try:
                await sender.send(message)
                await asyncio.wait_for(move.done.wait(), COMMAND_TIMEOUT)
                if self.holds and command == "roll" and move.error is None:
                    await sender.send({"type": "holding", "held": [0]} if self.relay
                                      else {"type": "hold", "held": [0]})
            except (TimeoutError, ConnectionClosed):
                self.timeouts += 1
            self.pending = None
            self.last_done = time.perf_counter()
