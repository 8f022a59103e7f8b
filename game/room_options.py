"""The options a room's host sets between games (``room_options`` in docs/protocol.md): each
one's name (a field of ``Room``, and its key in the ``state``'s ``room`` and in the message),
the values it may take, and what a client is told when it sends another. The protocol, the
service and the ``state`` read this table: an option is added here, in the page, and in the
docs.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext_noop

from .models import TURN_TIMES, Room


@dataclass(frozen=True)
class Option:
    kind: type  # what a client sends: int (never a bool) or str
    choices: tuple[Any, ...]
    #: The ``bad_message`` sentence for a value of the wrong type, and the ``bad_option`` one
    #: for a value not in ``choices`` (templates for ``CodedError``, filled with ``params``).
    wrong_type: str
    not_a_choice: str
    params: dict[str, Any] = field(default_factory=dict)


OPTIONS: dict[str, Option] = {
    "turn_time": Option(
        int, TURN_TIMES, gettext_noop("turn_time must be a whole number of seconds (0: off)."),
        gettext_noop("The turn time is 0 (off) or one of %(choices)s seconds."),
        {"choices": ", ".join(str(t) for t in TURN_TIMES if t)}),
    # Whether players see the standings (watchers always do): "auto", with computer players.
    "chances": Option(
        str, tuple(Room.Chances.values), gettext_noop('chances must be "auto", "on" or "off".'),
        gettext_noop('Chances are shown to players "auto" (with computer players), "on" or '
                     '"off".')),
}


def options_of(room: Room) -> dict[str, Any]:
    """A room's options now, by name."""
    return {name: getattr(room, name) for name in OPTIONS}
