"""One player's scorecard: filled boxes, the Joker rule, bonuses and totals.

A scorecard has one column per multiplier of its ruleset (one for ``yahtzee`` and ``yatzy``,
three for ``triple``). Boxes are addressed by a :class:`Slot` — a box name and a column.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from .dice import Dice, is_five_of_a_kind
from .errors import BoxFilled, BoxLabel, JokerForbids, gettext_noop
from .rulesets import Ruleset

BonusKind = str  # "upper" or "yahtzee"


class Slot(NamedTuple):
    box: str
    column: int = 0  # from 0

    def name(self, columns: int) -> str:
        """The one text of a box in a column (docs/protocol.md, "Boxes by name"): the box's
        name in a one-column ruleset, ``box@c`` with c counted from 1 where there are
        several (triple: ``chance@1`` … ``chance@3``). Stored reviews are keyed by it."""
        return self.box if columns == 1 else f"{self.box}@{self.column + 1}"


class Scorecard:
    def __init__(self, ruleset: Ruleset) -> None:
        self.ruleset = ruleset
        self._points: list[dict[str, int]] = [{} for _ in range(ruleset.columns)]
        self._bonuses: list[dict[BonusKind, int]] = [
            {"upper": 0, "yahtzee": 0} for _ in range(ruleset.columns)
        ]

    # --- what is filled ----------------------------------------------------------------

    def points(self, box: str, column: int = 0) -> int | None:
        """Points in a box, or None while it is open."""
        self.ruleset.box(box)
        return self._points[self.ruleset.check_column(column)].get(box)

    def is_open(self, box: str, column: int = 0) -> bool:
        return self.points(box, column) is None

    def open_slots(self) -> list[Slot]:
        """Every open box, column by column in scorecard order."""
        return [
            Slot(b.name, col)
            for col in range(self.ruleset.columns)
            for b in self.ruleset.boxes
            if b.name not in self._points[col]
        ]

    @property
    def is_full(self) -> bool:
        return all(len(p) == len(self.ruleset.boxes) for p in self._points)

    # --- the Joker rule ----------------------------------------------------------------

    def joker_applies(self, dice: Dice, column: int = 0) -> bool:
        """A Yahtzee rolled while this column's yahtzee box is already filled (50 or 0)."""
        r = self.ruleset
        return (
            r.joker is not None
            and r.yahtzee_box is not None
            and is_five_of_a_kind(dice)
            and r.yahtzee_box in self._points[column]
        )

    def legal_slots(self, dice: Dice) -> list[Slot]:
        """The open boxes this roll may go in: all of them, unless the Joker rule narrows it."""
        return [s for col in range(self.ruleset.columns) for s in self._legal_in(dice, col)]

    def _legal_in(self, dice: Dice, column: int) -> list[Slot]:
        open_here = [Slot(b.name, column) for b in self.ruleset.boxes
                     if b.name not in self._points[column]]
        if not self.joker_applies(dice, column) or self.ruleset.joker == "free":
            return open_here
        # The forced Joker: the matching upper box first, then any lower box, then any upper.
        matching = self.ruleset.upper_box_for(dice[0]).name
        if matching not in self._points[column]:
            return [Slot(matching, column)]
        lower = [s for s in open_here if self.ruleset.box(s.box).section == "lower"]
        return lower or open_here

    def score_for(self, dice: Dice, box: str, column: int = 0) -> int:
        """What ``dice`` would score in ``box`` of ``column`` now (Joker points included)."""
        b = self.ruleset.box(box)
        if self.joker_applies(dice, self.ruleset.check_column(column)) and b.joker_points:
            # Forced: the fixed points hold wherever the rule lets the Yahtzee go. Free choice
            # (Verhoeff's variant): only once the matching upper box is filled.
            matching = self.ruleset.upper_box_for(dice[0]).name
            if self.ruleset.joker == "forced" or matching in self._points[column]:
                return b.joker_points
        return b.score(dice)

    def check_can_score(self, dice: Dice, box: str, column: int = 0) -> None:
        """Raise the reason ``dice`` may not go in ``box``, if there is one."""
        if not self.is_open(box, column):
            raise BoxFilled(gettext_noop("%(box)s is already filled."),
                            {"box": BoxLabel(self.ruleset.box(box).label)})
        if Slot(box, column) not in self._legal_in(dice, column):
            allowed = ", ".join(s.name(self.ruleset.columns) for s in self._legal_in(dice, column))
            raise JokerForbids(
                gettext_noop("The Joker rule forbids %(box)s for this Yahtzee; it may go in: "
                             "%(allowed)s."),
                {"box": BoxLabel(self.ruleset.box(box).label), "allowed": allowed})

    def yahtzee_bonus_due(self, dice: Dice, column: int = 0) -> int:
        """Bonus earned by scoring ``dice`` in ``column``: a further Yahtzee while it holds 50."""
        r = self.ruleset
        holds_50 = r.yahtzee_box is not None and self._points[column].get(r.yahtzee_box) == 50
        return r.yahtzee_bonus if holds_50 and is_five_of_a_kind(dice) else 0

    # --- changes (only ever called while folding events) --------------------------------

    def fill(self, box: str, column: int, points: int) -> None:
        if not self.is_open(box, column):
            raise BoxFilled(gettext_noop("%(box)s is already filled."),
                            {"box": BoxLabel(self.ruleset.box(box).label)})
        self._points[column][box] = points

    def add_bonus(self, kind: BonusKind, column: int, points: int) -> None:
        self._bonuses[column][kind] += points

    # --- totals ------------------------------------------------------------------------

    def upper_subtotal(self, column: int = 0) -> int:
        return sum(self._points[column].get(b.name, 0) for b in self.ruleset.upper_boxes)

    def upper_bonus_earned(self, column: int = 0) -> bool:
        return self.upper_subtotal(column) >= self.ruleset.upper_bonus_threshold

    def bonus(self, kind: BonusKind, column: int = 0) -> int:
        return self._bonuses[column][kind]

    def lower_subtotal(self, column: int = 0) -> int:
        return sum(self._points[column].get(b.name, 0) for b in self.ruleset.lower_boxes)

    def column_total(self, column: int = 0) -> int:
        return (
            self.upper_subtotal(column)
            + self.lower_subtotal(column)
            + sum(self._bonuses[column].values())
        )

    @property
    def total(self) -> int:
        """The grand total: each column's total times its multiplier."""
        return sum(
            m * self.column_total(col) for col, m in enumerate(self.ruleset.multipliers)
        )

    def to_dict(self) -> dict[str, Any]:
        # Each sum once: every command serialises every card (the state it stores and sends).
        columns: list[dict[str, Any]] = []
        grand_total = 0
        for col, m in enumerate(self.ruleset.multipliers):
            upper, lower = self.upper_subtotal(col), self.lower_subtotal(col)
            bonuses, points = self._bonuses[col], self._points[col]
            total = upper + lower + sum(bonuses.values())
            grand_total += m * total
            columns.append({
                "boxes": {name: points.get(name) for name in self.ruleset.box_names},
                "upper_subtotal": upper,
                "upper_bonus": bonuses["upper"],
                "yahtzee_bonus": bonuses["yahtzee"],
                "lower_subtotal": lower,
                "total": total,
                "multiplier": m,
            })
        return {"columns": columns, "total": grand_total}
