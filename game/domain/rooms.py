"""The options a room's host sets between games (``room_options`` in docs/protocol.md): each
one's name (a field of ``Room``, and its key in the ``state``'s ``room`` and in the message),
the values it may take, and what a client is told when it sends another. The protocol, the
service and the ``state`` read this table: an option is added here, in the page, and in the
docs.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from django.db import models
from django.utils.translation import gettext_lazy, gettext_noop, pgettext_lazy

#: The room option "turn time" (seconds; 0 = off): after it the turn is played by autoplay.
TURN_TIMES = (0, 60, 120, 300)


LIVE = "live"
OVER_DAYS = "days"


class Pace(models.TextChoices):
    """How a room's game is played: everyone at the table at once, or turn by turn over days
    (nobody is played for after a minute away; each move has days, ``MOVE_DAYS``)."""

    LIVE = LIVE, pgettext_lazy("room pace", "Live")
    DAYS = OVER_DAYS, pgettext_lazy("room pace", "Over days")


#: The days a player of an over-days game has for each move, to choose from.
MOVE_DAYS = (1, 2, 3, 7)
#: The share of a move's time after which its player is reminded (lichess: 80 %).
REMIND_AT = 0.8
#: Over-days games a person may be seated in at once (finished ones aside).
OVER_DAYS_CAP = 20


class Chances(models.TextChoices):
    AUTO = "auto", gettext_lazy("With computer players")
    ON = "on", pgettext_lazy("chances shown", "Always")
    OFF = "off", pgettext_lazy("chances shown", "Never")


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
        str, tuple(Chances.values), gettext_noop('chances must be "auto", "on" or "off".'),
        gettext_noop('Chances are shown to players "auto" (with computer players), "on" or '
                     '"off".')),
}


def options_of(room: Any) -> dict[str, Any]:
    """A room's options now, by name."""
    return {name: getattr(room, name) for name in OPTIONS}


@dataclass(frozen=True)
class SeatView:
    """One seat of a room as its ``state`` shows it."""

    index: int
    name: str
    kind: str
    level: str | None
    connected: bool
    host: bool
    seed: str | None  # the dice seed it brings to the next game (None: a free seat)
    #: Seconds until the computer plays for this seat's person, away during a game (else None).
    autoplay_in: float | None = None
    #: The host's seat while its person is away: seconds until the host role passes (and
    #: anyone seated who is here may start the game); 0 once it may. Else None.
    host_passes_in: float | None = None


@dataclass(frozen=True)
class RoomSnapshot:
    """A room, its game and its presence, as the socket of one guest sees them now."""

    code: str
    name: str
    rules: str
    status: str
    seats: tuple[SeatView, ...]
    watchers: int
    #: The host's options for the next games, by name (``game.room_options``).
    options: dict[str, Any]
    practice: bool
    #: Whether players see the standings (watchers always do): the room's option, resolved.
    chances_for_players: bool
    #: What a turn lasts in fact (the option times TURN_TIME_SCALE, 1 but in tests; over
    #: days, the days per move).
    turn_seconds: float
    #: The next game's server seed, committed to (its hash) before seeds are fixed.
    commitment: str | None
    #: Seconds left of the current turn, when the room has a turn time and a game runs.
    turn_ends_in: float | None
    you_seat: int | None
    you_host: bool
    game: dict[str, Any] | None  # ``game_state`` of the room's latest game
    recent: list[dict[str, Any]]  # ``recent_events`` of that game
    seq: int = 0
    #: Live, or over days (``Pace``): then each move has ``move_days`` days.
    pace: str = LIVE
    move_days: int = 0
    #: Per player of ``game``: the turns the computer played for them (away, out of time).
    autoplayed: tuple[int, ...] = ()

    def reader_here(self) -> RoomSnapshot:
        """The room as its page shows it before the reader's socket opens: their own seat is
        here already (its socket is on the way), so no away countdown of theirs shows."""
        return replace(self, seats=tuple(
            replace(s, connected=True, autoplay_in=None, host_passes_in=None)
            if s.index == self.you_seat else s for s in self.seats))


@dataclass(frozen=True)
class SharedRoomState:
    """A room now, the same for every socket (``snapshot`` with no ``you``), and what each
    socket's own part is read from: read once per room change, shown to many sockets."""

    snapshot: RoomSnapshot
    #: Each seated person's guest key and seat index.
    seat_of: dict[str, int]
    host_key: str

    def you(self, guest: str | None) -> tuple[int | None, bool]:
        """What ``guest`` is in the room (their seat, whether they host): the one part of the
        room that differs between sockets. Every watcher but the host is ``(None, False)``."""
        if not guest:
            return None, False
        return self.seat_of.get(guest), guest == self.host_key

    def seen_by(self, guest: str | None) -> RoomSnapshot:
        """The room as the socket of ``guest`` sees it: only ``you`` differs."""
        seat, host = self.you(guest)
        return replace(self.snapshot, you_seat=seat, you_host=host)


@dataclass(frozen=True)
class Presence:
    """Who is connected to a room: each seat's (index, connected), how many watch, and for
    each seat whose person is away during a game, (index, seconds until the computer plays
    for them)."""

    seats: tuple[tuple[int, bool], ...]
    watchers: int
    autoplay_in: tuple[tuple[int, float], ...] = ()
    #: The host's seat, its person away: (index, seconds until the host role passes).
    host_passes_in: tuple[tuple[int, float], ...] = ()
