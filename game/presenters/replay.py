"""A game as a replay: its stored events, each with what it changed in the game's state, for
the game's page.

The states are rebuilt from the event log by the rules engine (``Game.from_events`` on the
first event, then ``apply`` one event at a time), never from the cached snapshot. The page
folds the changes with the room's own code (``static/game/shared/patch.js``), so that the
replay and the live room hold the same state at the same seq; it scores nothing itself.

Format (version 2)::

    {"version": 2, "rules": "yahtzee", "players": ["Ann", "Bob"],
     "computer": [false, true],          # whose moves a bot made
     "finished": true, "winners": [0],
     "start": {...},                     # the state after the first event (game_started)
     "frames": [{"seq": 1, "event": {"kind": "game_started", ...}},
                {"seq": 2, "event": {...}, "changes": {...}}, ...]}

``start`` is ``rules.Game.to_dict()`` (as a room's ``state`` frame carries it) without
``options``: what each open box would score is the live room's help to the player to move,
which the replay does not show (a "Try it yourself" brings its own), and with them the
page's data would be two to five times as large. Each frame has its stored event's own
fields (``event``; a ``game_started`` without ``players``: the replay's own) and, for every
frame but the first,
``changes``: the patch (``rules.patches.state_patch``) that turns the state before the event
into the state after it, absent when nothing changed. ``autoplay: true`` marks a move played
for an away player.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Protocol

from ..rules import Game, event_from_dict
from ..rules.patches import state_patch

FORMAT_VERSION = 2


class StoredEvent(Protocol):
    """What the presenter reads of a stored event (``game.models.GameEvent``)."""

    seq: int
    by: str

    def to_rules_dict(self) -> dict[str, Any]: ...


def replay_state(game: Game) -> dict[str, Any]:
    """The state the replay holds: the rules' state without the open boxes' points."""
    state = game.to_dict()
    del state["options"]
    return state


def replay_data(stored: Iterable[StoredEvent]) -> dict[str, Any]:
    """The replay of a game from its stored events, in seq order."""
    rows = list(stored)
    if not rows:
        return {"version": FORMAT_VERSION, "rules": None, "players": [], "computer": [],
                "finished": False, "winners": [], "start": None, "frames": []}
    first = rows[0].to_rules_dict()
    game = Game.from_events([event_from_dict(first)])
    start = replay_state(game)
    before = start
    computer = [False] * len(game.players)
    frames = [_frame(rows[0], first)]
    for row in rows[1:]:
        data = row.to_rules_dict()
        game.apply(event_from_dict(data))
        after = replay_state(game)
        frame = _frame(row, data)
        changes = state_patch(before, after)
        if changes != {}:
            frame["changes"] = changes
        before = after
        who = data.get("player")
        if isinstance(who, int) and row.by == "bot":
            computer[who] = True
        frames.append(frame)
    return {
        "version": FORMAT_VERSION,
        "rules": game.ruleset.name,
        "players": list(game.players),
        "computer": computer,
        "finished": game.is_over,
        "winners": list(game.winners),
        "start": start,
        "frames": frames,
    }


def _frame(row: StoredEvent, event: dict[str, Any]) -> dict[str, Any]:
    if event["kind"] == "game_started":
        event = {k: v for k, v in event.items() if k != "players"}  # the replay's own
    if event.get("joker") is False:
        event = {k: v for k, v in event.items() if k != "joker"}  # the usual case
    frame: dict[str, Any] = {"seq": row.seq, "event": event}
    if row.by == "autoplay":
        frame["autoplay"] = True
    return frame
