"""What a game's layers pass each other: a command's result, where the players stand."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # numpy and the solver: the wire format needs only the name
    from ..ai.standings import Standing

#: A client's command id (``id`` in the protocol), stored for idempotency.
COMMAND_ID_MAX = 64


@dataclass
class PlayResult:
    """What a command did: the events it stored (``Event.to_dict()``, in order, the first at
    ``first_seq``), who made them, what they changed in the game's state together
    (``rules.patches``), and the state after them (``selectors.game_state``); or nothing if it
    was a repeat. ``protocol.events`` makes the frame of it."""

    events: list[dict[str, Any]] = field(default_factory=list)
    first_seq: int = 0
    game_id: int = 0
    by: str = ""
    duplicate: bool = False
    seat: int | None = None
    state: dict[str, Any] | None = None
    changes: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class GameStandings:
    """Where each player of a game stands as of ``seq``, in player order."""

    game_id: int
    seq: int
    players: list[Standing]
