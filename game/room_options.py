"""The options a room's host sets between games (``room_options`` in docs/protocol.md): each
one's name (a field of ``Room``, and its key in the ``state``'s ``room`` and in the message),
the values it may take, and what a client is told when it sends another. The protocol, the
service and the ``state`` read this table: an option is added here, in the page, and in the
docs.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .models import TURN_TIMES, Room


@dataclass(frozen=True)
class Option:
    kind: type  # what a client sends: int (never a bool) or str
    choices: tuple[Any, ...]
    #: The ``bad_message`` sentence for a value of the wrong type, and the ``bad_option`` one
    #: for a value not in ``choices``.
    wrong_type: str
    not_a_choice: str


OPTIONS: dict[str, Option] = {
    "turn_time": Option(
        int, TURN_TIMES, "turn_time must be a whole number of seconds (0: off).",
        "The turn time is 0 (off) or one of "
        + ", ".join(str(t) for t in TURN_TIMES if t) + " seconds."),
    # Whether players see the standings (watchers always do): "auto", with computer players.
    "chances": Option(
        str, tuple(Room.Chances.values), 'chances must be "auto", "on" or "off".',
        'Chances are shown to players "auto" (with computer players), "on" or "off".'),
}


def options_of(room: Room) -> dict[str, Any]:
    """A room's options now, by name."""
    return {name: getattr(room, name) for name in OPTIONS}
