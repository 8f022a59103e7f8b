"""The coach of a practice room: what each choice of the player to move is worth.

After each roll, every legal box with the expected final score of scoring it there, and (with
a roll left) every distinct hold with the expected final score of keeping it — the numbers
``manage.py advise`` prints for the same position. Yahtzee and Yatzy only (triple has no exact
table), and only once the strategy table is ready: a room never waits for a build here.
"""

from __future__ import annotations

from ..ai import CardState, advisor, standings_supported, table_ready
from ..ai.multisets import positions_for
from ..domain.advice import Advice, BoxChoice, HoldChoice
from ..models import Game
from ..store import rules_cache
from ..store.queries import game_progress

PLAYING: str = Game.Status.PLAYING  # type: ignore[assignment]  # a str; untyped Django shows a tuple


def advice_for(game_id: int) -> Advice | None:
    """The advice for the player to move after their roll, or None (no roll to advise on,
    triple, no table yet)."""
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
        ruleset, rolls_left = game.ruleset, game.rolls_left
        player = game.current_player
        assert player is not None  # the game is not over
        state, dice = CardState.of(game.scorecard), tuple(game.dice)
    finally:
        rules_cache.readers.keep(game_id, seq, game)
    adv = advisor(ruleset)
    boxes = [BoxChoice(c.box or "", 0, c.expected) for c in adv.box_choices(state, dice)]
    holds = ([HoldChoice(positions_for(dice, c.hold or ()), tuple(c.hold or ()),
                         c.expected)
              for c in adv.hold_choices(state, dice, rolls_left)]
             if rolls_left else [])
    return Advice(game_id=game_id, seq=seq, player=player, rolls_left=rolls_left,
                  boxes=boxes, holds=holds)
