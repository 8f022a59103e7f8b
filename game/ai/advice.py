"""The decision API: every legal choice of a turn, valued by its expected final score.

Used by the optimal bot, by hints and by ``manage.py advise``. Values are final-score totals
of one scorecard column: what is banked plus what optimal play can expect from here on.
"""

from __future__ import annotations

from dataclasses import astuple, dataclass
from functools import lru_cache
from typing import Any

import numpy as np

from game.rules import Ruleset, Scorecard
from game.rules.rulesets import JokerRule

from .multisets import INDEX, ROLL_INDEX, best_hold_moments, hold_values, sub_holds
from .scoring import UPPER_CAP, FloatArray, roll_outcome
from .solver import Solution, last_roll_moments, spread_of
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
        still_open = {slot.box for slot in card.open_slots() if slot.column == column}
        mask = sum(1 << b for b, box in enumerate(rs.boxes) if box.name not in still_open)
        y50 = rs.yahtzee_box is not None and card.points(rs.yahtzee_box, column) == 50
        return cls(mask, card.upper_subtotal(column), y50, card.column_total(column))

    @classmethod
    def of_dict(cls, ruleset: Ruleset, card: dict[str, Any], column: int = 0) -> CardState:
        """The same from a card as ``Scorecard.to_dict`` writes it (a command's state after
        it): no scorecard to rebuild."""
        col = card["columns"][column]
        boxes = col["boxes"]
        mask = sum(1 << b for b, box in enumerate(ruleset.boxes) if boxes[box.name] is not None)
        y50 = ruleset.yahtzee_box is not None and boxes[ruleset.yahtzee_box] == 50
        return cls(mask, col["upper_subtotal"], y50, col["total"])

    @classmethod
    def empty(cls) -> CardState:
        return cls(0, 0, False, 0)

    @property
    def key(self) -> tuple[int, int, int]:
        """The solver's state: (mask, upper subtotal capped, yahtzee box holds 50)."""
        return self.mask, min(self.upper, UPPER_CAP), int(self.yahtzee_50)


@dataclass(frozen=True)
class Estimate:
    """A column's final score under optimal play from some moment: its expectation, standard
    deviation and skewness (what ``win_chances`` takes)."""

    expected: float
    sd: float
    skew: float


@dataclass(frozen=True)
class Choice:
    """A hold (dice values kept, sorted) or a box, with the expected final score and its
    standard deviation when it is chosen (and optimal play follows)."""

    hold: tuple[int, ...] | None
    box: str | None
    expected: float
    sd: float
    skew: float

    def to_dict(self) -> dict[str, Any]:
        return {"hold": list(self.hold) if self.hold is not None else None, "box": self.box,
                "expected": round(self.expected, 6), "sd": round(self.sd, 6)}


class Advisor:
    """Decisions for one ruleset column from its solved table."""

    def __init__(self, solution: Solution) -> None:
        self.solution = solution
        self.tables = solution.tables
        self.ruleset: Ruleset = solution.tables.ruleset
        self._turn = lru_cache(maxsize=1024)(self._turn_levels)  # ~8 kB each
        #: End-game states' distributions of points to come (``distribution._future``), shared
        #: by every game on this table: ~400 bytes each, ~1,000 after 200 games.
        self.distributions: dict[tuple[int, int, int], tuple[int, FloatArray]] = {}

    # --- values ------------------------------------------------------------------------

    def check(self, state: CardState) -> None:
        """Raise ValueError for a state no game can reach (the table has no value for it)."""
        full = (1 << self.tables.n_boxes) - 1
        if not 0 <= state.mask < full:
            raise ValueError("The scorecard is full: there is nothing left to decide.")
        if state.yahtzee_50 and (self.tables.yahtzee_box is None
                                 or not state.mask >> self.tables.yahtzee_box & 1):
            raise ValueError("The yahtzee box cannot hold 50 while it is open.")
        if np.isnan(self.solution.values[state.key]):
            raise ValueError(f"An upper subtotal of {state.upper} cannot be made with the "
                             "upper boxes that are filled.")

    def future(self, state: CardState) -> float:
        """Expected points still to come, at the start of a turn."""
        self.check(state)
        return self.solution.value(state.mask, state.upper, state.yahtzee_50)

    def expected_score(self, state: CardState) -> float:
        """Expected final score of the column at the start of a turn."""
        return state.banked + self.future(state)

    # --- estimates: expected final score and its standard deviation, at every moment ---

    def estimate(self, state: CardState) -> Estimate:
        """At the start of a turn, before the first roll."""
        self.check(state)
        return Estimate(state.banked + self.solution.value(*state.key),
                        *self.solution.spread(*state.key))

    def after_roll(self, state: CardState, dice: tuple[int, ...], rolls_left: int) -> Estimate:
        """When ``dice`` have just landed with ``rolls_left`` re-rolls still allowed (0-2):
        the best choice's (the position's value; the luck of the roll is this minus the
        estimate before it)."""
        best = (self.hold_choices(state, dice, rolls_left) if rolls_left
                else self.box_choices(state, dice))[0]
        return Estimate(best.expected, best.sd, best.skew)

    def _hold_estimate(self, state: CardState, hold: tuple[int, ...], rolls_left: int
                       ) -> Estimate:
        k, i = len(hold), INDEX[len(hold)][hold]
        value, second, third = (float(level[k][i, 0]) for level in self._turn(*state.key)[
            rolls_left - 1])
        return Estimate(state.banked + value, *spread_of(value, second, third))

    def _turn_levels(self, mask: int, upper: int, y: int
                     ) -> tuple[tuple[list[FloatArray], ...], tuple[list[FloatArray], ...]]:
        """(values, second, third moments) of every hold with one and with two rolls to come,
        for one state (cached)."""
        m, u, yy = (np.array([v], dtype=np.intp) for v in (mask, upper, y))
        one = tuple(map(hold_values, last_roll_moments(self.solution, m, u, yy)))
        two = tuple(map(hold_values, best_hold_moments(*one)))
        return one, two

    def hold_choices(self, state: CardState, dice: tuple[int, ...], rolls_left: int
                     ) -> list[Choice]:
        """Every distinct hold of ``dice`` before a re-roll, best first."""
        self.check(state)
        if not 1 <= rolls_left <= 2:
            raise ValueError("Holds are only chosen with 1 or 2 rolls left.")
        choices = [Choice(h, None, *astuple(self._hold_estimate(state, h, rolls_left)))
                   for h in sub_holds(tuple(dice))]
        return sorted(choices, key=lambda c: (-c.expected, -len(c.hold or ())))

    def points_now(self, state: CardState, dice: tuple[int, ...]) -> dict[str, int]:
        """What ``dice`` score in each legal open box now, bonuses they earn included."""
        self.check(state)
        roll = ROLL_INDEX[tuple(sorted(dice))]
        mask, upper, y = state.key
        found = {}
        for b, box in enumerate(self.ruleset.boxes):
            if not mask >> b & 1:
                out = roll_outcome(self.tables, b, mask, upper, y, roll)
                if out is not None:
                    found[box.name] = int(out.points + out.bonuses)
        return found

    def box_choices(self, state: CardState, dice: tuple[int, ...]) -> list[Choice]:
        """Every legal box for ``dice``, with the expected final score of scoring there."""
        self.check(state)
        roll = ROLL_INDEX[tuple(sorted(dice))]
        mask, upper, y = state.key
        choices = []
        for b, box in enumerate(self.ruleset.boxes):
            if mask >> b & 1:
                continue
            out = roll_outcome(self.tables, b, mask, upper, y, roll)
            if out is None:  # the Joker rule forbids this box
                continue
            future = float(self.solution.values[out.state])
            choices.append(Choice(None, box.name,
                                  state.banked + out.points + out.bonuses + future,
                                  *spread_of(future, float(self.solution.second[out.state]),
                                             float(self.solution.third[out.state]))))
        return sorted(choices, key=lambda c: -c.expected)


_advisors: dict[int, Advisor] = {}


def advisor(rules: str | Ruleset, joker: JokerRule | None = None) -> Advisor:
    """The advisor for ``rules`` (triple: one yahtzee column), loading its table if needed."""
    solution = get_solution(rules, joker)
    found = _advisors.get(id(solution))
    if found is None or found.solution is not solution:
        found = _advisors[id(solution)] = Advisor(solution)
    return found
