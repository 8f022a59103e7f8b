"""What a client makes of the server's frames: the room it holds, kept from a ``state`` and
updated by the frames after it. The consumer keeps its socket's :class:`RoomView` this way; the
tests' clients (and, in JavaScript, ``static/game/shared/patch.js``) apply ``events`` frames with
:func:`state_after`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..rules.patches import apply_patch
from .outbound import Frame, Turn, turn_of


def state_after(state: dict[str, Any] | None, frame: Frame) -> dict[str, Any] | None:
    """The state a client holds after an ``events`` frame (one command's events and what they
    changed together), from the ``state`` it held: unchanged for events it already has,
    patched for the next ones, and None after a gap or for another game (the client then
    asks for a ``sync``). The client sets ``seq``: a patch never carries it."""
    if state is None or state.get("id") != frame["game"]:
        return None
    first, last = frame["events"][0]["seq"], frame["events"][-1]["seq"]
    if last <= state["seq"]:
        return state
    if first != state["seq"] + 1:
        return None
    patched: dict[str, Any] = apply_patch(state, frame["changes"])
    return {**patched, "seq": last}


def event_messages(frame: Frame) -> list[dict[str, Any]]:
    """The events of an ``events`` frame, each as one message with the frame's ``game`` and
    ``by``: ``{"type": "event", "seq", "event", "by", "game"}``."""
    return [{"type": "event", "seq": e["seq"], "event": e["event"], "by": frame["by"],
             "game": frame["game"]} for e in frame["events"]]


@dataclass
class RoomView:
    """One socket's view of its room, as the frames it was sent left it: its seat, the seats
    (kind, connected), the options a socket acts on, and where the turn stands."""

    you_seat: int | None = None
    practice: bool = False
    chances_for_players: bool = False
    turn_time: int = 0
    #: seat index → (kind, connected)
    seats: dict[int, tuple[str, bool]] = field(default_factory=dict)
    turn: Turn | None = None

    @classmethod
    def of_state(cls, frame: Frame) -> RoomView:
        room = frame["room"]
        return cls(you_seat=frame["you"]["seat"], practice=room["practice"],
                   chances_for_players=room["chances_for_players"],
                   turn_time=room["turn_time"],
                   seats={s["seat"]: (s["kind"], s["connected"]) for s in room["seats"]},
                   turn=turn_of(frame["game"]))

    def saw_presence(self, frame: Frame) -> None:
        for seat in frame["seats"]:
            if seat["seat"] in self.seats:
                self.seats[seat["seat"]] = (self.seats[seat["seat"]][0], seat["connected"])

    @property
    def sees_standings(self) -> bool:
        """Watchers always; players as the room's option says (docs/protocol.md)."""
        return self.you_seat is None or self.chances_for_players

    @property
    def turn_running(self) -> bool:
        return self.turn is not None and not self.turn["over"]

    def driver_may_act(self, player: int | None) -> bool:
        """Whether the turn of ``player`` may need the turn driver: it has a clock (a turn
        time), or the seat is a bot's, or a person's this socket last heard was away."""
        if self.turn_time:
            return True  # the driver wakes when the clock runs out
        seat = self.seats.get(player) if player is not None else None
        return seat is None or seat[0] == "bot" or not seat[1]


def who_is_here(presence: Frame) -> tuple[object, ...]:
    """What a ``presence`` frame says about who is connected, without its countdowns (they
    change with every reading, and follow from the connections and the game)."""
    return (tuple((s["seat"], s["connected"]) for s in presence["seats"]), presence["watchers"])
