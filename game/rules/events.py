"""Everything that happens in a game, as plain immutable records.

A game's state is the fold of its events (``Game.from_events``). Each event serialises to a
JSON-friendly dict with a ``kind`` and back, so the server can store and broadcast it.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, ClassVar

from .errors import InvalidEvent, gettext_noop


@dataclass(frozen=True)
class Event:
    kind: ClassVar[str]
    #: Fields left out of ``to_dict`` while empty (games without fair dice never have them).
    optional: ClassVar[tuple[str, ...]] = ()

    def to_dict(self) -> dict[str, Any]:
        # Fields are plain values and tuples of them: no deep copy (``asdict``) is needed.
        data: dict[str, Any] = {"kind": self.kind}
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name in self.optional and not value:
                continue
            data[f.name] = list(value) if isinstance(value, tuple) else value
        return data


@dataclass(frozen=True)
class GameStarted(Event):
    kind: ClassVar[str] = "game_started"
    optional: ClassVar[tuple[str, ...]] = ("commitment", "client_seeds", "daily")
    rules: str
    players: tuple[str, ...]
    #: Fair dice (``fairness``): SHA-256 of the secret server seed (of a daily game: of the
    #: day seed), and the players' seeds (none in a daily game).
    commitment: str = ""
    client_seeds: tuple[str, ...] = ()
    #: A daily challenge's game: its day, ``YYYY-MM-DD`` (its dice come from the day's tape).
    daily: str = ""


@dataclass(frozen=True)
class TurnStarted(Event):
    kind: ClassVar[str] = "turn_started"
    player: int
    round: int


@dataclass(frozen=True)
class Rolled(Event):
    kind: ClassVar[str] = "rolled"
    player: int
    dice: tuple[int, ...]
    held: tuple[int, ...]
    roll: int  # 1, 2 or 3: which roll of the turn


@dataclass(frozen=True)
class Scored(Event):
    kind: ClassVar[str] = "scored"
    player: int
    box: str
    column: int
    points: int
    joker: bool = False


@dataclass(frozen=True)
class BonusAwarded(Event):
    kind: ClassVar[str] = "bonus"
    player: int
    column: int
    bonus: str  # "upper" or "yahtzee"
    points: int


@dataclass(frozen=True)
class GameFinished(Event):
    kind: ClassVar[str] = "game_finished"
    optional: ClassVar[tuple[str, ...]] = ("server_seed", "unfinished")
    totals: tuple[int, ...]
    winners: tuple[int, ...]
    #: Fair dice: the server seed, revealed now that no roll is left to come.
    server_seed: str = ""
    #: Ended before every card was full (by staff): no winner.
    unfinished: bool = False


EVENT_TYPES: dict[str, type[Event]] = {
    cls.kind: cls
    for cls in (GameStarted, TurnStarted, Rolled, Scored, BonusAwarded, GameFinished)
}


def event_from_dict(data: dict[str, Any]) -> Event:
    """The inverse of ``Event.to_dict``."""
    try:
        cls = EVENT_TYPES[data["kind"]]
        values = {}
        for f in fields(cls):
            if f.name in data:
                v = data[f.name]
                values[f.name] = tuple(v) if isinstance(v, list) else v
        return cls(**values)
    except (KeyError, TypeError) as exc:
        raise InvalidEvent(gettext_noop("Not a game event: %(data)s (%(reason)s)."),
                           {"data": repr(data), "reason": str(exc)}) from None
