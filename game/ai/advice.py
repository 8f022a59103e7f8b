"""The decision API: every legal choice of a turn, valued by its expected final score.

Used by the optimal bot, by hints and by ``manage.py advise``. Values are final-score totals
of one scorecard column: what is banked plus what optimal play can expect from here on.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from game.rules import Ruleset, Scorecard

from .multisets import INDEX, ROLL_INDEX, YAHTZEE_ROLLS, best_hold_values, hold_values, sub_holds
from .scoring import UPPER_CAP
from .solver import Solution, last_roll_values
from .storage import get_solution


@dataclass(frozen=True)
class CardState:
    """One scorecard column as the solver sees it."""

    mask: int  # bit b set: box b of the ruleset is filled
    upper: int  # upper subtotal so far (the solver caps it at 63)
    yahtzee_50: bool = False  # the yahtzee box holds 50 (Yahtzee bonus is on)
    banked: int = 0  # points already on the column, bonuses included

    @classmethod
    def of(cls, card: Scorecard, column: int = 0) -> CardState:
        rs = card.ruleset
        mask = sum(1 << b for b, box in enumerate(rs.boxes) if not card.is_open(box.name, column))
        y50 = rs.yahtzee_box is not None and card.points(rs.yahtzee_box, column) == 50
        return cls(mask, card.upper_subtotal(column), y50, card.column_total(column))

    @classmethod
    def empty(cls) -> CardState:
        return cls(0, 0, False, 0)


@dataclass(frozen=True)
class Choice:
    """A hold (dice values kept, sorted) or a box, with its expected final score."""

    hold: tuple[int, ...] | None
    box: str | None
    expected: float

    def to_dict(self) -> dict:
        return {"hold": list(self.hold) if self.hold is not None else None, "box": self.box,
                "expected": round(self.expected, 6)}


class Advisor:
    """Decisions for one ruleset column from its solved table."""

    def __init__(self, solution: Solution) -> None:
        self.solution = solution
        self.tables = solution.tables
        self.ruleset: Ruleset = solution.tables.ruleset
        self._turn = lru_cache(maxsize=1024)(self._turn_levels)  # ~8 kB each

    # --- values ------------------------------------------------------------------------

    def check(self, state: CardState) -> None:
        """Raise ValueError for a state no game can reach (the table has no value for it)."""
        full = (1 << self.tables.n_boxes) - 1
        if not 0 <= state.mask < full:
            raise ValueError("The scorecard is full: there is nothing left to decide.")
        if state.yahtzee_50 and (self.tables.yahtzee_box is None
                                 or not state.mask >> self.tables.yahtzee_box & 1):
            raise ValueError("The yahtzee box cannot hold 50 while it is open.")
        if np.isnan(self.solution.values[state.mask, min(state.upper, UPPER_CAP),
                                         int(state.yahtzee_50)]):
            raise ValueError(f"An upper subtotal of {state.upper} cannot be made with the "
                             "upper boxes that are filled.")

    def future(self, state: CardState) -> float:
        """Expected points still to come, at the start of a turn."""
        self.check(state)
        return self.solution.value(state.mask, state.upper, state.yahtzee_50)

    def expected_score(self, state: CardState) -> float:
        """Expected final score of the column at the start of a turn."""
        return state.banked + self.future(state)

    def _turn_levels(self, mask: int, upper: int, y: int) -> tuple[list[np.ndarray], ...]:
        """Hold values with one and with two rolls to come, for one state (cached)."""
        m, u, yy = (np.array([v], dtype=np.intp) for v in (mask, min(upper, UPPER_CAP), y))
        v0 = last_roll_values(self.tables, self.solution.values, m, u, yy)
        one = hold_values(v0)
        two = hold_values(best_hold_values(one))
        return one, two

    def hold_choices(self, state: CardState, dice: tuple[int, ...], rolls_left: int
                     ) -> list[Choice]:
        """Every distinct hold of ``dice`` before a re-roll, best first."""
        self.check(state)
        if not 1 <= rolls_left <= 2:
            raise ValueError("Holds are only chosen with 1 or 2 rolls left.")
        levels = self._turn(state.mask, state.upper, int(state.yahtzee_50))[rolls_left - 1]
        choices = [
            Choice(h, None, state.banked + float(levels[len(h)][INDEX[len(h)][h], 0]))
            for h in sub_holds(tuple(dice))
        ]
        return sorted(choices, key=lambda c: (-c.expected, -len(c.hold or ())))

    def box_choices(self, state: CardState, dice: tuple[int, ...]) -> list[Choice]:
        """Every legal box for ``dice``, with the expected final score of scoring there."""
        self.check(state)
        t, rs, values = self.tables, self.ruleset, self.solution.values
        roll = ROLL_INDEX[tuple(sorted(dice))]
        u = min(state.upper, UPPER_CAP)
        y = int(state.yahtzee_50)
        threshold = min(rs.upper_bonus_threshold, UPPER_CAP)
        joker = (t.joker_legal is not None and t.yahtzee_box is not None
                 and state.mask >> t.yahtzee_box & 1 and roll in YAHTZEE_ROLLS)
        face = int(np.nonzero(roll == YAHTZEE_ROLLS)[0][0]) if joker else -1
        choices = []
        for b, box in enumerate(rs.boxes):
            if state.mask >> b & 1 or (joker and not t.joker_legal[state.mask, face, b]):
                continue
            pts = float(t.joker_points[state.mask, face, b] if joker else t.base[roll, b])
            nu, ny, extra = u, y, 0.0
            if t.upper_face[b]:
                nu = min(UPPER_CAP, u + int(pts))
                if u < threshold <= u + pts:
                    extra += rs.upper_bonus
            if b == t.yahtzee_box and pts > 0:
                ny = 1
            if joker and y:
                extra += rs.yahtzee_bonus
            future = float(values[state.mask | 1 << b, nu, ny])
            choices.append(Choice(None, box.name, state.banked + pts + extra + future))
        return sorted(choices, key=lambda c: -c.expected)


_advisors: dict[int, Advisor] = {}


def advisor(rules: str | Ruleset, joker: str | None = None) -> Advisor:
    """The advisor for ``rules`` (triple: one yahtzee column), loading its table if needed."""
    solution = get_solution(rules, joker)
    found = _advisors.get(id(solution))
    if found is None or found.solution is not solution:
        found = _advisors[id(solution)] = Advisor(solution)
    return found
