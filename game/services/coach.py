"""The coach of a practice room: what each choice of the player to move is worth.

After each roll, every legal box with the expected final score of scoring it there, and (with
a roll left) every distinct hold with the expected final score of keeping it — the numbers
``manage.py advise`` prints for the same position. Yahtzee and Yatzy only (triple has no exact
table), and only once the strategy table is ready: a room never waits for a build here.
"""

from __future__ import annotations

from typing import Any

from ..ai import CardState, advisor, standings_supported, table_ready
from ..ai.multisets import positions_for
from ..models import Game
from ..queries import game_progress
from . import rules_cache

DECIMALS = 3
PLAYING: str = Game.Status.PLAYING  # type: ignore[assignment]  # a str; untyped Django shows a tuple


def advice_message(game_id: int) -> dict[str, Any] | None:
    """The ``advice`` frame for the player to move after their roll, or None (no roll to
    advise on, triple, no table yet)."""
    found = game_progress(game_id)
    if found is None or found[1] != PLAYING:
        return None
    seq = found[0]
    # Up to the row's seq, from the readers' fold like the standings: no game lock is held.
    game = rules_cache.readers.take(game_id, seq)
    try:
        if (game.is_over or game.dice is None or not standings_supported(game.ruleset)
                or not table_ready(game.ruleset)):
            return None
        ruleset, player, rolls_left = game.ruleset, game.current_player, game.rolls_left
        state, dice = CardState.of(game.scorecard), tuple(game.dice)
    finally:
        rules_cache.readers.keep(game_id, seq, game)
    adv = advisor(ruleset)
    boxes = [{"box": c.box, "column": 0, "value": round(c.expected, DECIMALS)}
             for c in adv.box_choices(state, dice)]
    holds = ([{"hold": list(positions_for(dice, c.hold or ())), "dice": list(c.hold or ()),
               "value": round(c.expected, DECIMALS)}
              for c in adv.hold_choices(state, dice, rolls_left)]
             if rolls_left else [])
    return {"type": "advice", "game": game_id, "seq": seq, "player": player,
            "rolls_left": rolls_left, "boxes": boxes, "holds": holds}
