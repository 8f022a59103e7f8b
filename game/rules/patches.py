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
through a game, so nothing is ever deleted. ``static/game/shared/patch.js`` is the browser's
:func:`apply_patch`; ``game.protocol.client`` applies a whole ``events`` frame as a client does.
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
