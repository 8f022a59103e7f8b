"""The optimal bot: the solved table for yahtzee and yatzy; column values for triple."""

from __future__ import annotations

import numpy as np

from game.rules import Game, Slot

from .actions import Action, Roll, Score
from .advice import CardState, advisor
from .multisets import positions_for
from .solver import last_roll_values
from .turn import play_turn


def choose(game: Game) -> Action:
    if game.ruleset.columns > 1:
        return play_turn(game, column_roll_values, column_pick_slot)
    adv = advisor(game.ruleset)
    state = CardState.of(game.scorecard)
    dice = tuple(game.dice)  # type: ignore[arg-type]
    if game.rolls_left > 0:
        best = adv.hold_choices(state, dice, game.rolls_left)[0]
        if best.hold is not None and len(best.hold) < 5:
            return Roll(positions_for(dice, best.hold))
    return Score(adv.box_choices(state, dice)[0].box or "")


# --- Triple: each column valued by the one-column optimum, weighted by its multiplier ---------

def _column_states(game: Game) -> list[CardState]:
    return [CardState.of(game.scorecard, c) for c in range(game.ruleset.columns)]


def column_roll_values(game: Game) -> np.ndarray:
    """Each final roll's best gain: max over columns of m × (points + value after − before)."""
    adv = advisor(game.ruleset)
    full = (1 << adv.tables.n_boxes) - 1
    best = np.full(252, -np.inf)
    for c, (st, m) in enumerate(zip(_column_states(game), game.ruleset.multipliers, strict=True)):
        if st.mask == full:
            continue
        arr = [np.array([v], dtype=np.intp) for v in (st.mask, min(st.upper, 63),
                                                       int(st.yahtzee_50))]
        v0 = last_roll_values(adv.tables, adv.solution.values, *arr)[:, 0]
        np.maximum(best, m * (v0 - adv.future(st)), out=best)
        del c
    return best


def column_pick_slot(game: Game) -> Slot:
    adv = advisor(game.ruleset)
    dice = tuple(game.dice)  # type: ignore[arg-type]
    legal = set(game.legal_slots())
    best: tuple[float, Slot] | None = None
    for c, (st, m) in enumerate(zip(_column_states(game), game.ruleset.multipliers, strict=True)):
        if st.mask == (1 << adv.tables.n_boxes) - 1:
            continue
        now = adv.future(st)
        for ch in adv.box_choices(st, dice):
            slot = Slot(ch.box or "", c)
            gain = m * (ch.expected - st.banked - now)
            if slot in legal and (best is None or gain > best[0]):
                best = (gain, slot)
    assert best is not None
    return best[1]
