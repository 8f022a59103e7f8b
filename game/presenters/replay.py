"""A game as a replay: one compact frame per stored event, for the game's page.

The frames are rebuilt from the event log by the rules engine (``Game.from_events`` on the
first event, then ``apply`` one event at a time), never from the cached snapshot. Each frame
says what the table shows right after its event — whose turn, which round and roll, the dice
and which of them were held — and, for the scorecards, only what the event changed. The
page's script draws frames; it never scores anything itself.

Format (version 1)::

    {"version": 1, "rules": "yahtzee", "players": ["Ann", "Bob"],
     "computer": [false, true],          # whose moves a bot made
     "empty_card": {...},                # Scorecard.to_dict() of an empty card
     "finished": true, "winners": [0],
     "frames": [{"seq": 1, "kind": "game_started", "rules": "yahtzee", ...}, ...]}

A frame carries its event's own fields (``kind``, ``player``, ``round``, ``dice``, ``held``,
``roll``, ``box``, ``column``, ``points``, ``joker``, ``bonus``, ``totals``, ``winners``…)
overlaid with the state after it: ``player`` (whose turn; null once the game is over),
``round``, ``roll`` (rolls used this turn, 0–3), ``dice`` (null before the turn's first
roll) and ``held`` (positions 0–4 kept from the roll before). ``changes`` lists what changed
on the scorecards as ``[player, column, key, value]``, ``key`` a box name or one of the
column's totals rows (``upper_subtotal``, ``upper_bonus``, ``yahtzee_bonus``,
``lower_subtotal``, ``total``); column null with key ``grand_total`` for the weighted grand
total. ``autoplay: true`` marks a move played for an away player.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Protocol

from ..rules import Game, event_from_dict

FORMAT_VERSION = 1

Cells = dict[tuple[int | None, str], Any]


class StoredEvent(Protocol):
    """What the presenter reads of a stored event (``game.models.GameEvent``)."""

    seq: int
    by: str

    def to_rules_dict(self) -> dict[str, Any]: ...


def replay_data(stored: Iterable[StoredEvent]) -> dict[str, Any]:
    """The replay of a game from its stored events, in seq order."""
    rows = list(stored)
    if not rows:
        return {"version": FORMAT_VERSION, "rules": None, "players": [], "computer": [],
                "empty_card": None, "finished": False, "winners": [], "frames": []}
    first = rows[0].to_rules_dict()
    game = Game.from_events([event_from_dict(first)])
    empty = game.scorecards[0].to_dict()
    cells = [_cells(empty) for _ in game.players]
    computer = [False] * len(game.players)
    held: list[int] = []
    frames = [_frame(rows[0].seq, first, game, held)]
    for row in rows[1:]:
        data = row.to_rules_dict()
        event = event_from_dict(data)
        game.apply(event)
        if event.kind == "rolled":
            held = list(data["held"])
        elif event.kind in ("turn_started", "game_finished"):
            held = []
        frame = _frame(row.seq, data, game, held)
        who = data.get("player")
        if isinstance(who, int) and row.by == "bot":
            computer[who] = True
        # Only a score or a bonus writes on a card (the test checks the fold of all changes).
        if isinstance(who, int) and event.kind in ("scored", "bonus"):
            after = _cells(game.scorecards[who].to_dict())
            changes = [[who, col, key, value] for (col, key), value in after.items()
                       if cells[who].get((col, key)) != value]
            if changes:
                frame["changes"] = changes
            cells[who] = after
        if row.by == "autoplay":
            frame["autoplay"] = True
        frames.append(frame)
    return {
        "version": FORMAT_VERSION,
        "rules": game.ruleset.name,
        "players": list(game.players),
        "computer": computer,
        "empty_card": empty,
        "finished": game.is_over,
        "winners": list(game.winners),
        "frames": frames,
    }


def _frame(seq: int, event: dict[str, Any], game: Game, held: list[int]) -> dict[str, Any]:
    frame = {"seq": seq, **event}
    frame.update(player=game.current_player, round=game.round, roll=game.rolls_used,
                 dice=list(game.dice) if game.dice else None, held=held)
    if frame.get("joker") is False:
        del frame["joker"]  # the usual case; absent means no Joker
    if event["kind"] == "game_started":
        del frame["players"]  # the replay's own "players"
    return frame


def _cells(card: dict[str, Any]) -> Cells:
    """A scorecard's dict as {(column, key): value}; (None, "grand_total") for the total."""
    out: Cells = {}
    for col, column in enumerate(card["columns"]):
        for box, points in column["boxes"].items():
            out[(col, box)] = points
        for key in ("upper_subtotal", "upper_bonus", "yahtzee_bonus", "lower_subtotal",
                    "total"):
            out[(col, key)] = column[key]
    out[(None, "grand_total")] = card["total"]
    return out
