"""What one command changed in a game's state: the ``changes`` of an ``events`` frame.

A state (``rules.Game.to_dict()``) is ~1.5 KB, and a command changes a few of its values: a roll
the dice and the points each open box would score, a score one box, a few sums and the turn. So
an ``events`` frame carries the difference, and a client applies it to the state it holds (the
one just before the command's first event); only ``state`` frames carry a whole state
(``docs/protocol.md``).

A patch is JSON, read against the value it applies to:

- an object applied to an object: each of its keys is applied to that key's value (a key the
  patch does not name is unchanged);
- an object applied to an array: its keys are indexes (``"1"``), each applied to that element;
- anything else (a number, a string, a boolean, ``null``, an array) replaces the value.

Like JSON Merge Patch (RFC 7386) but able to reach into arrays (a player's scorecard, one
open box) and with ``null`` as a value, not a deletion: a state's objects keep their keys
through a game, so nothing is ever deleted. ``static/game/patch.js`` is the browser's
:func:`apply_patch`.
"""

from __future__ import annotations

from typing import Any


def state_patch(before: Any, after: Any) -> Any:
    """The patch that turns ``before`` into ``after`` (``{}`` when they are equal)."""
    if isinstance(after, dict) and isinstance(before, dict) and after.keys() == before.keys():
        return {key: state_patch(before[key], value) for key, value in after.items()
                if before[key] != value}
    if (isinstance(after, list) and isinstance(before, list) and len(after) == len(before)
            and all(isinstance(v, dict | list) for v in after)):
        changed = {str(i): state_patch(old, new)
                   for i, (old, new) in enumerate(zip(before, after, strict=True)) if old != new}
        return changed or after  # equal lists: the list itself, never an empty patch
    return after


def apply_patch(value: Any, patch: Any) -> Any:
    """``value`` with ``patch`` applied, as a new value (``value`` is not changed)."""
    if isinstance(patch, dict) and isinstance(value, dict):
        return {**value, **{k: apply_patch(value.get(k), p) for k, p in patch.items()}}
    if isinstance(patch, dict) and isinstance(value, list):
        out = list(value)
        for key, p in patch.items():
            out[int(key)] = apply_patch(out[int(key)], p)
        return out
    return patch


def state_after(state: dict[str, Any] | None, frame: dict[str, Any]) -> dict[str, Any] | None:
    """The state a client holds after an ``events`` frame (one command's events and what they
    changed together), from the ``state`` it held: unchanged for events it already has,
    patched for the next ones, and None after a gap or for another game (the client then
    asks for a ``sync``)."""
    if state is None or state.get("id") != frame["game"]:
        return None
    first, last = frame["events"][0]["seq"], frame["events"][-1]["seq"]
    if last <= state["seq"]:
        return state
    if first != state["seq"] + 1:
        return None
    return {**apply_patch(state, frame["changes"]), "seq": last}


def event_messages(frame: dict[str, Any]) -> list[dict[str, Any]]:
    """The events of an ``events`` frame, each as one message with the frame's ``game`` and
    ``by``: ``{"type": "event", "seq", "event", "by", "game"}``."""
    return [{"type": "event", "seq": e["seq"], "event": e["event"], "by": frame["by"],
             "game": frame["game"]} for e in frame["events"]]
