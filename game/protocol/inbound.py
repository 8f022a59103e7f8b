"""The client's frames (docs/protocol.md, "Client → server"), parsed once: :func:`parse`
checks a text frame's size, JSON and fields and returns one typed message (a dataclass per
frame type), whose values are the rules' actions and the services' arguments.

A frame that fails a check raises :class:`BadMessage` (with the frame's ``id`` when it had a
valid one, for the ``error`` that answers it); the socket stays open. What the values mean (a
box that exists, a turn time in the list) is the rules' and the services' to check.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeGuard

from ..domain.games import COMMAND_ID_MAX
from ..domain.rooms import OPTIONS
from ..rules import Action, Roll, Score
from ..rules.errors import CodedError, gettext_noop

MAX_FRAME_BYTES = 4096
MAX_BOX_LENGTH = 32


class BadMessage(CodedError):
    """A frame of the wrong shape; nothing was done."""

    def __init__(self, code: str, template: str, params: dict[str, Any] | None = None) -> None:
        super().__init__(template, params)
        self.code = code
        #: The refused frame's own ``id``, when it had a valid one ("" otherwise).
        self.command_id = ""


# --- the messages -----------------------------------------------------------------------

@dataclass(frozen=True)
class Message:
    #: The client's id of the command ("" when none): a repeat is answered, not applied again.
    id: str


@dataclass(frozen=True)
class Sync(Message):
    """Send me the whole state."""


@dataclass(frozen=True)
class Play(Message):
    """A roll or a score: the rules' action."""

    action: Action


@dataclass(frozen=True)
class Hold(Message):
    """The dice the player to move now holds (positions, sorted): shown, never stored."""

    held: tuple[int, ...]


@dataclass(frozen=True)
class PlayForAway(Message):
    """The host asks the computer to play an away player's turn now."""


@dataclass(frozen=True)
class RoomChange(Message):
    """A command that changes the room as a whole (every socket gets a ``state``)."""


@dataclass(frozen=True)
class SetSeed(RoomChange):
    seed: str


@dataclass(frozen=True)
class Start(RoomChange):
    """Start the room's game (``start``) or the next one (``rematch``)."""


@dataclass(frozen=True)
class AddSeat(RoomChange):
    pass


@dataclass(frozen=True)
class LeaveSeat(RoomChange):
    pass


@dataclass(frozen=True)
class SeatBot(RoomChange):
    seat: int
    level: str


@dataclass(frozen=True)
class RemoveSeat(RoomChange):
    seat: int


@dataclass(frozen=True)
class SetOptions(RoomChange):
    options: dict[str, Any]


def parse(text_data: str | None,
          check_type: Callable[[str], None] | None = None) -> Message:
    """The message of a text frame, or BadMessage. ``check_type`` sees the frame's type once
    its envelope (type, id) is known and before its fields are read: a room that takes only
    some types refuses the others there, whatever their fields."""
    msg = parse_frame(text_data)
    try:
        kind = msg.get("type")
        if not isinstance(kind, str):
            raise BadMessage("bad_message",
                             gettext_noop("A message needs a \"type\" string."))
        cid = command_id(msg)
        if check_type is not None:
            check_type(kind)
        parser = _PARSERS.get(kind)
        if parser is None:
            raise BadMessage("unknown_type", gettext_noop("Unknown message type %(type)s."),
                             {"type": repr(kind[:40])})
        return parser(msg, cid)
    except BadMessage as exc:
        with contextlib.suppress(BadMessage):  # an invalid id is answered without one
            exc.command_id = command_id(msg)
        raise


_PARSERS: dict[str, Callable[[dict[str, Any], str], Message]] = {
    "sync": lambda msg, cid: Sync(cid),
    "roll": lambda msg, cid: Play(cid, parse_action(msg)),
    "score": lambda msg, cid: Play(cid, parse_action(msg)),
    "hold": lambda msg, cid: Hold(cid, tuple(parse_held(msg))),
    "play_for_away": lambda msg, cid: PlayForAway(cid),
    "seed": lambda msg, cid: SetSeed(cid, parse_seed(msg)),
    "start": lambda msg, cid: Start(cid),
    "rematch": lambda msg, cid: Start(cid),
    "add_seat": lambda msg, cid: AddSeat(cid),
    "leave_seat": lambda msg, cid: LeaveSeat(cid),
    "seat_bot": lambda msg, cid: SeatBot(cid, parse_seat(msg), parse_level(msg)),
    "remove_seat": lambda msg, cid: RemoveSeat(cid, parse_seat(msg)),
    "room_options": lambda msg, cid: SetOptions(cid, parse_options(msg)),
}
#: Every type a client may send.
TYPES = frozenset(_PARSERS)


# --- the fields ---------------------------------------------------------------------------


def parse_frame(text_data: str | None) -> dict[str, Any]:
    """The JSON object of a text frame (not yet its ``type``), or BadMessage."""
    if text_data is None:
        raise BadMessage("bad_message", gettext_noop("Send JSON text frames, not binary ones."))
    if len(text_data) > MAX_FRAME_BYTES or len(text_data.encode()) > MAX_FRAME_BYTES:
        raise BadMessage("too_large", gettext_noop("Messages are at most %(max)d bytes."),
                         {"max": MAX_FRAME_BYTES})
    try:
        msg = json.loads(text_data)
    except (ValueError, RecursionError):
        raise BadMessage("bad_json", gettext_noop("That message is not valid JSON.")) from None
    if not isinstance(msg, dict):
        raise BadMessage("bad_message", gettext_noop("A message is a JSON object with a type."))
    try:
        storable = _storable(msg)
    except RecursionError:
        storable = False
    if not storable:
        raise BadMessage("bad_message", gettext_noop(
            "Text in a message must be valid Unicode without NUL characters."))
    return msg


def _storable(value: object) -> bool:
    """Whether every string in ``value`` can be stored: JSON text may carry lone UTF-16
    surrogates ("\\ud800") and NULs, which Python decodes and the databases refuse."""
    if isinstance(value, str):
        if "\x00" in value:
            return False
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            return False
        return True
    if isinstance(value, dict):
        return all(_storable(k) and _storable(v) for k, v in value.items())
    if isinstance(value, list):
        return all(_storable(v) for v in value)
    return True


def _is_int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def command_id(msg: dict[str, Any]) -> str:
    """The client's ``id`` of a command ("" when none), or BadMessage."""
    cid = msg.get("id", "")
    if cid is None:
        return ""
    if not isinstance(cid, str) or len(cid) > COMMAND_ID_MAX:
        raise BadMessage("bad_message",
                         gettext_noop("id must be a string of at most %(max)d characters."),
                         {"max": COMMAND_ID_MAX})
    return cid


def parse_seed(msg: dict[str, Any]) -> str:
    """The ``seed`` of a ``seed`` message (its text is checked by the service: ``bad_seed``)."""
    seed = msg.get("seed")
    if not isinstance(seed, str):
        raise BadMessage("bad_message", gettext_noop(
            "seed must be a string (1 to 64 printable ASCII characters)."))
    return seed


def parse_action(msg: dict[str, Any]) -> Action:
    """The ``roll`` / ``score`` intention of a message, or BadMessage for a wrong shape."""
    if msg["type"] == "roll":
        hold = msg.get("hold", [])
        if not isinstance(hold, list) or len(hold) > 5 or not all(_is_int(h) for h in hold):
            raise BadMessage("bad_message",
                             gettext_noop("hold must be a list of die positions 0-4."))
        return Roll(tuple(hold))
    box, column = msg.get("box"), msg.get("column", 0)
    if not isinstance(box, str) or not 0 < len(box) <= MAX_BOX_LENGTH:
        raise BadMessage("bad_message",
                         gettext_noop("box must be the name of a box, like \"chance\"."))
    if not _is_int(column) or not -1 < column < 100:
        raise BadMessage("bad_message",
                         gettext_noop("column must be a whole number (0, or 0-2 in triple)."))
    return Score(box, column)


def parse_held(msg: dict[str, Any]) -> list[int]:
    """The die positions of a ``hold`` message (the whole set now held), sorted."""
    held = msg.get("held")
    if (not isinstance(held, list) or len(held) > 5
            or not all(_is_int(h) and 0 <= h <= 4 for h in held) or len(set(held)) != len(held)):
        raise BadMessage("bad_message",
                         gettext_noop("held must be a list of distinct die positions 0-4."))
    return sorted(held)


def parse_seat(msg: dict[str, Any]) -> int:
    """The ``seat`` field of a seat command: a seat index, or BadMessage."""
    seat = msg.get("seat")
    if not _is_int(seat) or not -1 < seat < 100:
        raise BadMessage("bad_message",
                         gettext_noop("seat must be a seat number (0 for the first)."))
    return seat


def parse_level(msg: dict[str, Any]) -> str:
    """The ``level`` of a ``seat_bot`` (which levels exist is the service's: ``bad_level``)."""
    level = msg.get("level")
    if not isinstance(level, str) or not 0 < len(level) <= 16:
        raise BadMessage("bad_message",
                         gettext_noop("level must be a computer level, like \"optimal\"."))
    return level


def parse_options(msg: dict[str, Any]) -> dict[str, Any]:
    """The options a ``room_options`` message sets, by name (``game.room_options``): at least
    one, each of the right type (the service checks its value: ``bad_option``)."""
    found: dict[str, Any] = {}
    for name, option in OPTIONS.items():
        value = msg.get(name)
        if value is None:
            continue
        right = (_is_int(value) and -1 < value < 100_000 if option.kind is int
                 else isinstance(value, option.kind) and len(str(value)) <= 16)
        if not right:
            raise BadMessage("bad_message", option.wrong_type)
        found[name] = value
    if not found:
        first = next(iter(OPTIONS.values()))
        raise BadMessage("bad_message", first.wrong_type)
    return found
