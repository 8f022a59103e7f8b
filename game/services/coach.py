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
from ..rules import Game as RulesGame
from ..rules import event_from_dict

DECIMALS = 3


def advice_message(game_id: int) -> dict[str, Any] | None:
    """The ``advice`` frame for the player to move after their roll, or None (no roll to
    advise on, triple, no table yet)."""
    row = Game.objects.filter(pk=game_id).first()
    if row is None or row.status != Game.Status.PLAYING:
        return None
    # Folded privately up to the row's seq, like the standings: no game lock is held here.
    game = RulesGame.from_events([event_from_dict(e.to_rules_dict())
                                  for e in row.events.filter(seq__lte=row.seq).order_by("seq")])
    if (game.is_over or game.dice is None or not standings_supported(game.ruleset)
            or not table_ready(game.ruleset)):
        return None
    adv = advisor(game.ruleset)
    state, dice = CardState.of(game.scorecard), tuple(game.dice)
    boxes = [{"box": c.box, "column": 0, "value": round(c.expected, DECIMALS)}
             for c in adv.box_choices(state, dice)]
    holds = ([{"hold": list(positions_for(dice, c.hold or ())), "dice": list(c.hold or ()),
               "value": round(c.expected, DECIMALS)}
              for c in adv.hold_choices(state, dice, game.rolls_left)]
             if game.rolls_left else [])
    return {"type": "advice", "game": row.pk, "seq": row.seq, "player": game.current_player,
            "rolls_left": game.rolls_left, "boxes": boxes, "holds": holds}
