"""The easy and medium bots: one-turn play valued by a simple measure of each box.

``easy`` (greedy) values a box by the points it scores now (times its column's multiplier,
Yahtzee bonus included). ``medium`` adds two rules of thumb a good human uses: chase the
upper bonus (credit above, debit below three of a face while the bonus is still open) and do
not spend a box cheaply (subtract a share of what a whole turn chasing that box would give).
Both play each turn exactly for their own measure (see ``turn.py``).
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from game.rules import Dice, Game, Ruleset, Slot

from .multisets import ROLL_INDEX, ROLLS, best_hold_values, hold_values
from .scoring import score_tables, solver_ruleset
from .turn import current_dice

BONUS_PRESSURE = 1.0  # points of credit per point above par (3 of a face) in the upper boxes
SPEND_SHARE = 0.6  # share of a box's one-turn chase value that scoring there costs


@lru_cache(maxsize=4)
def chase_values(ruleset: Ruleset) -> np.ndarray:
    """For each box, the expected points of one whole turn played to fill just that box."""
    base = score_tables(solver_ruleset(ruleset)).base
    levels = hold_values(base)
    for _ in range(2):
        levels = hold_values(best_hold_values(levels))
    return np.asarray(levels[0][0])


def _slot_points(game: Game, slot: Slot, dice: Dice) -> float:
    card = game.scorecard
    pts = card.score_for(dice, slot.box, slot.column) + card.yahtzee_bonus_due(dice, slot.column)
    return pts * game.ruleset.multipliers[slot.column]


def _medium_adjust(game: Game, slot: Slot, pts_col: np.ndarray | float, b: int) -> np.ndarray:
    """Medium's measure of scoring ``pts_col`` (points in the column, unmultiplied) in ``slot``."""
    rs = game.ruleset
    card = game.scorecard
    face = rs.box_names.index(slot.box) + 1 if rs.boxes[b].section == "upper" else 0
    value = pts_col - SPEND_SHARE * chase_values(solver_ruleset(rs))[b]
    if face and not card.upper_bonus_earned(slot.column):
        value = value + BONUS_PRESSURE * (np.asarray(pts_col) - 3 * face)
    return np.asarray(value * rs.multipliers[slot.column])


def _slot_table(game: Game, medium: bool) -> tuple[list[Slot], np.ndarray]:
    """(open slots, values (252, slots)): each final roll's value in each open slot."""
    rs = game.ruleset
    card = game.scorecard
    base = score_tables(solver_ruleset(rs)).base
    slots = card.open_slots()
    table = np.empty((len(ROLLS), len(slots)))
    for j, slot in enumerate(slots):
        b = rs.box_names.index(slot.box)
        pts = base[:, b]
        table[:, j] = _medium_adjust(game, slot, pts, b) if medium else (
            pts * rs.multipliers[slot.column])
    # Five of a kind: the Joker rule and the Yahtzee bonus come from the scorecard itself.
    for f in range(1, 7):
        dice = (f, f, f, f, f)
        r = ROLL_INDEX[dice]
        legal = set(card.legal_slots(dice))
        for j, slot in enumerate(slots):
            if slot not in legal:
                table[r, j] = -np.inf
            else:
                table[r, j] = _value(game, slot, dice, medium)
    return slots, table


def _value(game: Game, slot: Slot, dice: Dice, medium: bool) -> float:
    if not medium:
        return _slot_points(game, slot, dice)
    card = game.scorecard
    pts = card.score_for(dice, slot.box, slot.column) + card.yahtzee_bonus_due(dice, slot.column)
    return float(_medium_adjust(game, slot, float(pts), game.ruleset.box_names.index(slot.box)))


def roll_values(game: Game, medium: bool) -> np.ndarray:
    return np.asarray(_slot_table(game, medium)[1].max(axis=1))


def pick_slot(game: Game, medium: bool) -> Slot:
    dice = current_dice(game)
    legal = game.legal_slots()
    return max(legal, key=lambda s: _value(game, s, dice, medium))


assert len(ROLLS) == 252
