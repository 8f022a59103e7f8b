"""The three games as data: which boxes, in which order, what they score, and the bonuses.

One engine plays them all; a ruleset only says what differs.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any, Literal

from . import categories as c
from .categories import Scorer
from .dice import is_five_of_a_kind
from .errors import InvalidColumn, RulesetTitle, UnknownBox, UnknownRuleset, gettext_noop

Section = Literal["upper", "lower"]
JokerRule = Literal["forced", "free"]

UPPER_NAMES = ("ones", "twos", "threes", "fours", "fives", "sixes")


@dataclass(frozen=True)
class Box:
    """One category on the scorecard."""

    name: str
    label: str
    section: Section
    score: Scorer = field(repr=False, compare=False)
    max_points: int
    #: What the box scores when a Yahtzee is played as a Joker (full house, straights).
    joker_points: int | None = None


#: What people type for a box besides its number, name and label (``Ruleset.find_box``).
SHORT_FORMS: dict[str, tuple[str, ...]] = {
    "ones": ("1s", "aces"), "twos": ("2s",), "threes": ("3s",), "fours": ("4s",),
    "fives": ("5s",), "sixes": ("6s",),
    "one_pair": ("1p", "pair", "1 pair"), "two_pairs": ("2p", "2 pairs", "two pair"),
    "three_of_a_kind": ("3k", "3 kind", "3 of a kind", "3oak", "three kind", "toak"),
    "four_of_a_kind": ("4k", "4 kind", "4 of a kind", "4oak", "four kind", "foak"),
    "full_house": ("fh", "full", "full h"),
    "small_straight": ("ss", "sm", "sm str", "small", "sm straight"),
    "large_straight": ("ls", "lg", "lg str", "large", "lg straight"),
    "yahtzee": ("y", "yz"), "yatzy": ("y", "yz", "yahtzee"),
    "chance": ("c", "ch"),
}
SHORT_FORMS_SHOWN = {"yatzy": ("1", "full house", "fh", "2p", "ss"),
                     "yahtzee": ("1", "full house", "fh", "3k", "ss"),
                     "triple": ("1", "full house", "fh", "3k", "ss")}


def _typed_key(text: str) -> str:
    return " ".join(text.lower().replace("_", " ").replace("-", " ").replace(".", " ").split())


@dataclass(frozen=True)
class Ruleset:
    name: str
    title: str
    boxes: tuple[Box, ...]
    upper_bonus: int
    upper_bonus_threshold: int = 63
    #: The five-of-a-kind box whose 50 points enable the Yahtzee bonus and the Joker.
    yahtzee_box: str | None = None
    yahtzee_bonus: int = 0
    joker: JokerRule | None = None
    multipliers: tuple[int, ...] = (1,)

    @property
    def columns(self) -> int:
        return len(self.multipliers)

    @cached_property  # every score and every total asks: built once per ruleset
    def box_names(self) -> tuple[str, ...]:
        return tuple(b.name for b in self.boxes)

    @cached_property
    def upper_boxes(self) -> tuple[Box, ...]:
        return tuple(b for b in self.boxes if b.section == "upper")

    @cached_property
    def lower_boxes(self) -> tuple[Box, ...]:
        return tuple(b for b in self.boxes if b.section == "lower")

    @property
    def turns(self) -> int:
        """Turns each player takes: one per box."""
        return len(self.boxes) * self.columns

    @cached_property
    def _boxes_by_name(self) -> dict[str, Box]:
        return {b.name: b for b in self.boxes}

    def box(self, name: str) -> Box:
        found = self._boxes_by_name.get(name) if isinstance(name, str) else None
        if found is not None:
            return found
        raise UnknownBox(
            gettext_noop("There is no box called %(name)s in %(rules)s; the boxes are: "
                         "%(boxes)s."),
            {"name": repr(name), "rules": RulesetTitle(self.title),
             "boxes": ", ".join(self.box_names)})

    def find_box(self, typed: str) -> Box:
        """The box a person means by ``typed``: its number on the scorecard (1 = the first),
        its name, its label ("Full house") or a short form ("fh", "3k", "sm str", "6s"), in
        any case, with spaces, underscores, hyphens or dots alike."""
        key = _typed_key(typed)
        if key.isdigit() and 1 <= int(key) <= len(self.boxes):
            return self.boxes[int(key) - 1]
        for b in self.boxes:
            forms = {b.name, b.label, *SHORT_FORMS.get(b.name, ())}
            if key in {_typed_key(f) for f in forms} | {_typed_key(f).replace(" ", "")
                                                       for f in forms}:
                return b
        raise UnknownBox(
            gettext_noop("%(typed)s is neither a box nor a number from 1 to %(count)d: type a "
                         "box’s number, name or short form, like %(examples)s."),
            {"typed": repr(typed.strip()), "count": len(self.boxes),
             "examples": ", ".join(SHORT_FORMS_SHOWN.get(self.name, ("1", "chance")))})

    def upper_box_for(self, face: int) -> Box:
        return self.upper_boxes[face - 1]

    def to_dict(self) -> dict[str, Any]:
        """The ruleset as data, JSON-friendly: what a page needs to draw and explain its
        scorecards without a second copy of the rules (the scoring functions stay here)."""
        return {
            "name": self.name,
            "title": self.title,
            "columns": self.columns,
            "multipliers": list(self.multipliers),
            "boxes": [
                {"name": b.name, "label": b.label, "section": b.section,
                 "max_points": b.max_points, "joker_points": b.joker_points}
                for b in self.boxes
            ],
            "upper_bonus": self.upper_bonus,
            "upper_bonus_threshold": self.upper_bonus_threshold,
            "yahtzee_box": self.yahtzee_box,
            "yahtzee_bonus": self.yahtzee_bonus,
            "joker": self.joker,
        }

    def check_column(self, column: int) -> int:
        if not isinstance(column, int) or isinstance(column, bool) or not (
            0 <= column < self.columns
        ):
            if self.columns == 1:
                raise InvalidColumn(gettext_noop("%(rules)s has a single column (column 0)."),
                                    {"rules": RulesetTitle(self.title)})
            raise InvalidColumn(
                gettext_noop("%(rules)s has columns 0 to %(last)d; %(column)s is not one."),
                {"rules": RulesetTitle(self.title), "last": self.columns - 1,
                 "column": repr(column)})
        return column


def _upper_boxes() -> tuple[Box, ...]:
    return tuple(
        Box(name, name.capitalize(), "upper", c.upper(face), 5 * face)
        for face, name in enumerate(UPPER_NAMES, start=1)
    )


YAHTZEE = Ruleset(
    name="yahtzee",
    title="Yahtzee",
    boxes=_upper_boxes()
    + (
        Box("three_of_a_kind", "Three of a kind", "lower", c.sum_if_of_a_kind(3), 30),
        Box("four_of_a_kind", "Four of a kind", "lower", c.sum_if_of_a_kind(4), 30),
        Box("full_house", "Full house", "lower", c.fixed_if(25, c.is_full_house), 25, 25),
        Box("small_straight", "Small straight", "lower",
            c.fixed_if(30, c.is_small_straight), 30, 30),
        Box("large_straight", "Large straight", "lower",
            c.fixed_if(40, c.is_large_straight), 40, 40),
        Box("yahtzee", "Yahtzee", "lower", c.fixed_if(50, is_five_of_a_kind), 50),
        Box("chance", "Chance", "lower", c.chance, 30),
    ),
    upper_bonus=35,
    yahtzee_box="yahtzee",
    yahtzee_bonus=100,
    joker="forced",
)

YATZY = Ruleset(
    name="yatzy",
    title="Yatzy",
    boxes=_upper_boxes()
    + (
        Box("one_pair", "One pair", "lower", c.one_pair, 12),
        Box("two_pairs", "Two pairs", "lower", c.two_pairs, 22),
        Box("three_of_a_kind", "Three of a kind", "lower", c.n_of_a_kind(3), 18),
        Box("four_of_a_kind", "Four of a kind", "lower", c.n_of_a_kind(4), 24),
        Box("small_straight", "Small straight", "lower", c.exactly(15, (1, 2, 3, 4, 5)), 15),
        Box("large_straight", "Large straight", "lower", c.exactly(20, (2, 3, 4, 5, 6)), 20),
        Box("full_house", "Full house", "lower", c.sum_if_full_house, 28),
        Box("chance", "Chance", "lower", c.chance, 30),
        Box("yatzy", "Yatzy", "lower", c.fixed_if(50, is_five_of_a_kind), 50),
    ),
    upper_bonus=50,
)

TRIPLE = replace(YAHTZEE, name="triple", title="Triple Yahtzee", multipliers=(1, 2, 3))

RULESETS: dict[str, Ruleset] = {r.name: r for r in (YAHTZEE, YATZY, TRIPLE)}


def get_ruleset(name: str | Ruleset) -> Ruleset:
    """The ruleset called ``name`` (``yahtzee``, ``yatzy`` or ``triple``)."""
    if isinstance(name, Ruleset):
        return name
    try:
        return RULESETS[name]
    except (KeyError, TypeError):
        raise UnknownRuleset(
            gettext_noop("Unknown ruleset %(name)s; choose one of: %(rulesets)s."),
            {"name": repr(name), "rulesets": ", ".join(RULESETS)}) from None
