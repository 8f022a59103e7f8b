"""The server's frames (docs/protocol.md, "Server → client"): one builder per frame, each from
the domain object a read or a write returned. Nothing else in the project shapes a frame.

Every builder returns the frame as a JSON-ready dict; :func:`encode` makes the text a socket
sends (once per frame, however many sockets pass it on).
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, TypedDict

if TYPE_CHECKING:  # the domain objects; their modules import Django, this one needs only names
    from ..ai.standings import Standing
    from ..domain.advice import Advice
    from ..domain.games import GameStandings, PlayResult
    from ..domain.rooms import Presence, RoomSnapshot

__all__ = ["Frame", "Turn", "advice", "encode", "error", "events", "holding", "preparing",
           "presence", "standings", "state", "turn_of"]

Frame = dict[str, Any]

#: Decimal places of the numbers of a ``standings`` frame (points, and the chance to win).
POINTS_DECIMALS = 1
CHANCE_DECIMALS = 4
#: Decimal places of an ``advice`` frame's expected final scores.
ADVICE_DECIMALS = 3


def encode(frame: Frame) -> str:
    """The text of a frame, compact (what every socket of a room is sent)."""
    return json.dumps(frame, separators=(",", ":"))


def state(snapshot: RoomSnapshot) -> Frame:
    """The ``state`` frame: a room as one socket's person sees it."""
    return {
        "type": "state",
        "seq": snapshot.seq,
        "room": {
            "code": snapshot.code,
            "name": snapshot.name,
            "rules": snapshot.rules,
            "status": snapshot.status,
            "seats": [
                {"seat": s.index, "name": s.name, "kind": s.kind, "level": s.level,
                 "connected": s.connected, "host": s.host, "seed": s.seed,
                 "autoplay_in": _seconds(s.autoplay_in),
                 "host_passes_in": _seconds(s.host_passes_in)}
                for s in snapshot.seats
            ],
            "watchers": snapshot.watchers,
            **snapshot.options,
            "practice": snapshot.practice,
            "chances_for_players": snapshot.chances_for_players,
            "turn_seconds": snapshot.turn_seconds,
            "pace": snapshot.pace,
            "move_days": snapshot.move_days,
            "commitment": snapshot.commitment,
        },
        "turn_ends_in": _seconds(snapshot.turn_ends_in),
        "you": {"seat": snapshot.you_seat, "host": snapshot.you_host},
        "game": snapshot.game,
        "autoplayed": list(snapshot.autoplayed),
        "recent": snapshot.recent,
    }


def events(result: PlayResult) -> Frame | None:
    """The ``events`` frame of one command (all its events and what they changed together),
    or None for a command that stored nothing (a repeat)."""
    if not result.events:
        return None
    return {"type": "events", "game": result.game_id, "by": result.by,
            "events": [{"seq": result.first_seq + i, "event": event}
                       for i, event in enumerate(result.events)],
            "changes": result.changes}


def _seconds(left: float | None) -> float | None:
    """A countdown's seconds as frames carry them (tenths), or None."""
    return None if left is None else round(left, 1)


def presence(found: Presence) -> Frame:
    """The ``presence`` frame: each seat connected or not (and when the computer plays for a
    person away), and how many watch."""
    autoplay = dict(found.autoplay_in)
    host = dict(found.host_passes_in)
    return {"type": "presence",
            "seats": [{"seat": index, "connected": connected,
                       "autoplay_in": _seconds(autoplay.get(index)),
                       "host_passes_in": _seconds(host.get(index))}
                      for index, connected in found.seats],
            "watchers": found.watchers}


def _standing(s: Standing) -> Frame:
    return {"expected": round(s.expected, POINTS_DECIMALS), "sd": round(s.sd, POINTS_DECIMALS),
            "chance": round(s.chance, CHANCE_DECIMALS), "percentiles": list(s.percentiles),
            "exact": s.exact}


def standings(found: GameStandings) -> Frame:
    """The ``standings`` frame: each player's expected final score, its spread and percentiles,
    their chance."""
    return {"type": "standings", "game": found.game_id, "seq": found.seq,
            "players": [_standing(s) for s in found.players]}


def advice(found: Advice) -> Frame:
    """The ``advice`` frame of a practice room's coach, for the player to move."""
    return {"type": "advice", "game": found.game_id, "seq": found.seq, "player": found.player,
            "rolls_left": found.rolls_left,
            "boxes": [{"box": c.box, "column": c.column,
                       "value": round(c.value, ADVICE_DECIMALS)} for c in found.boxes],
            "holds": [{"hold": list(c.positions), "dice": list(c.dice),
                       "value": round(c.value, ADVICE_DECIMALS)} for c in found.holds]}


def holding(game: int, seq: int, player: int, held: list[int]) -> Frame:
    """The ``holding`` frame: the dice the player to move holds now (never stored)."""
    return {"type": "holding", "game": game, "seq": seq, "player": player, "held": held}


def preparing(seat: int, name: str, rules: str, percent: float) -> Frame:
    """The ``preparing`` frame: how far the strategy table a computer player waits for is."""
    return {"type": "preparing", "seat": seat, "name": name, "rules": rules,
            "percent": round(percent, 1)}


def error(code: str, message: str, command_id: str = "") -> Frame:
    """The ``error`` frame; ``id`` echoes the refused command's id when it had a valid one."""
    reply: Frame = {"type": "error", "code": code, "message": message}
    if command_id:
        reply["id"] = command_id
    return reply


class Turn(TypedDict):
    """Where a game's turn stands: what a socket checks a ``hold`` against without asking the
    database (from a ``state``'s ``game`` or a command's state after it)."""

    game: int
    seq: int
    rules: str
    player: int | None
    rolls_left: int
    rolled: bool
    over: bool


def turn_of(game: Frame | None) -> Turn | None:
    """The :class:`Turn` of a game state (``Game.to_dict()`` with ``id`` and ``seq``)."""
    if game is None:
        return None
    return {"game": game["id"], "seq": game["seq"], "rules": game["rules"],
            "player": game["current_player"], "rolls_left": game["rolls_left"],
            "rolled": game["dice"] is not None, "over": game["finished"]}
