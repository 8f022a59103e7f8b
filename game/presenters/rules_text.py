"""The rules in words: one sentence per box and per bonus, in the reader's language.

The rules page (/rules/) and the room's "How boxes score" panel and row tooltips (help.js,
from the page's json_script) read these same sentences; the figures come from the rulesets
(game/rules/rulesets.py), the rulings from docs/rules.md.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from game.domain import translated
from game.rules.rulesets import RULESETS, Box, Ruleset

_UPPER = gettext_lazy("The sum of the dice showing %(face)s.")

#: What each box scores in the standard game (Triple Yahtzee's columns are the same boxes).
#: %(points)s is the box's fixed score, from the ruleset.
_YAHTZEE: dict[str, Promise] = {
    "three_of_a_kind": gettext_lazy("The sum of all dice, if at least three show the same "
                                    "number."),
    "four_of_a_kind": gettext_lazy("The sum of all dice, if at least four show the same "
                                   "number."),
    "full_house": gettext_lazy("%(points)s for three of one number and two of another."),
    "small_straight": gettext_lazy("%(points)s for four dice in sequence (1-2-3-4, 2-3-4-5 or "
                                   "3-4-5-6)."),
    "large_straight": gettext_lazy("%(points)s for five dice in sequence."),
    "yahtzee": gettext_lazy("%(points)s for five of a kind."),
    "chance": gettext_lazy("The sum of all dice."),
}

#: What each box scores in the Scandinavian game.
_YATZY: dict[str, Promise] = {
    "one_pair": gettext_lazy("The sum of the two highest matching dice."),
    "two_pairs": gettext_lazy("The sum of two pairs of different numbers."),
    "three_of_a_kind": gettext_lazy("The sum of three matching dice."),
    "four_of_a_kind": gettext_lazy("The sum of four matching dice."),
    "small_straight": gettext_lazy("%(points)s for exactly 1-2-3-4-5."),
    "large_straight": gettext_lazy("%(points)s for exactly 2-3-4-5-6."),
    "full_house": gettext_lazy("The sum of all dice, for three of one number and two of "
                               "another."),
    "chance": gettext_lazy("The sum of all dice."),
    "yatzy": gettext_lazy("%(points)s for five of a kind."),
}

_BOX_SENTENCES = {"yahtzee": _YAHTZEE, "yatzy": _YATZY, "triple": _YAHTZEE}


def box_label(box: Box) -> str:
    """The box's label in the reader's language."""
    return translated.box_label(box.label)


def ruleset_title(ruleset: Ruleset) -> str:
    return translated.ruleset_title(ruleset.title)


def box_sentence(ruleset: Ruleset, box: Box) -> str:
    """What ``box`` scores in ``ruleset``, as one sentence ("" for a box it does not know)."""
    if box.section == "upper":
        face = ruleset.upper_boxes.index(box) + 1
        return _UPPER % {"face": face}
    sentence = _BOX_SENTENCES.get(ruleset.name, {}).get(box.name)
    return sentence % {"points": box.max_points} if sentence is not None else ""


def column_sentences(ruleset: Ruleset) -> list[str]:
    """How the columns of a several-column game play and multiply (none with one column)."""
    if ruleset.columns == 1:
        return []
    # Translators: "×" multiplies; "column %(column)s" is one column's total.
    terms = [_("column %(column)s") % {"column": c} if m == 1
             else _("%(multiplier)s × column %(column)s") % {"multiplier": m, "column": c}
             for c, m in enumerate(ruleset.multipliers, start=1)]
    return [
        ngettext(
            "%(count)s column, filled at once: each roll may go in any open box of any column.",
            "%(count)s columns, filled at once: each roll may go in any open box of any column.",
            ruleset.columns) % {"count": ruleset.columns},
        _("Each column has its own upper bonus, Yahtzee bonus and Joker rule: a Yahtzee earns "
          "its column’s bonus when that column’s Yahtzee box holds %(points)s.")
        % {"points": ruleset.box(ruleset.yahtzee_box).max_points}
        if ruleset.yahtzee_box else _("Each column has its own upper bonus."),
        # Translators: %(sum)s is a sum such as "column 1 + 2 × column 2 + 3 × column 3".
        _("Final total: %(sum)s.") % {"sum": " + ".join(terms)},
    ]


def bonus_sentences(ruleset: Ruleset) -> list[str]:
    """The bonuses and special rules of ``ruleset``, one sentence each."""
    upper = ruleset.upper_boxes
    lines = [_("Upper bonus: %(bonus)s when %(first)s to %(last)s add up to %(threshold)s or "
               "more.") % {"bonus": ruleset.upper_bonus, "first": box_label(upper[0]),
                           "last": box_label(upper[-1]),
                           "threshold": ruleset.upper_bonus_threshold}]
    if ruleset.yahtzee_box and ruleset.yahtzee_bonus:
        lines.append(_("Yahtzee bonus: %(bonus)s for each further Yahtzee while the Yahtzee box "
                       "holds %(points)s.")
                     % {"bonus": ruleset.yahtzee_bonus,
                        "points": ruleset.box(ruleset.yahtzee_box).max_points})
    else:
        lines.append(_("No bonus for a further five of a kind, and no Joker rule."))
    fixed = {b.name: b.joker_points for b in ruleset.boxes if b.joker_points is not None}
    figures = {"full_house": fixed.get("full_house"), "small": fixed.get("small_straight"),
               "large": fixed.get("large_straight")}
    if ruleset.joker == "forced":
        lines.append(_(
            "Joker rule: a further Yahtzee, once the Yahtzee box is filled (with 50 or with 0), "
            "must go in its upper box if that is open; otherwise in any open lower box, where "
            "Full house, Small straight and Large straight score in full (%(full_house)s, "
            "%(small)s, %(large)s); only when the lower section is full, in any open upper box, "
            "for 0.") % figures)
    elif ruleset.joker == "free":
        lines.append(_(
            "Joker rule: a further Yahtzee, once the Yahtzee box is filled, may go in any open "
            "box; Full house and the straights score in full (%(full_house)s, %(small)s, "
            "%(large)s) once its upper box is filled.") % figures)
    if ruleset.joker:
        lines.append(_("Outside the Joker rule, five of a kind is not a full house."))
    return lines


@dataclass(frozen=True)
class BoxText:
    name: str
    label: str
    section: str
    sentence: str
    max_points: int


@dataclass(frozen=True)
class RulesetText:
    """One ruleset in words: what the rules page shows of it."""

    name: str
    title: str
    boxes: list[BoxText]
    columns: list[str]
    bonuses: list[str]
    turns: int

    @property
    def upper(self) -> list[BoxText]:
        return [b for b in self.boxes if b.section == "upper"]

    @property
    def lower(self) -> list[BoxText]:
        return [b for b in self.boxes if b.section == "lower"]


def ruleset_text(ruleset: Ruleset) -> RulesetText:
    return RulesetText(
        name=ruleset.name, title=ruleset_title(ruleset),
        boxes=[BoxText(b.name, box_label(b), b.section, box_sentence(ruleset, b), b.max_points)
               for b in ruleset.boxes],
        columns=column_sentences(ruleset), bonuses=bonus_sentences(ruleset),
        turns=ruleset.turns)


def all_rulesets_text() -> list[RulesetText]:
    return [ruleset_text(r) for r in RULESETS.values()]


def for_page(ruleset: Ruleset) -> dict[str, Any]:
    """What help.js reads (json_script "rules-text"): each box's sentence and the bonus lines,
    in the page's language."""
    return {
        "boxes": {b.name: box_sentence(ruleset, b) for b in ruleset.boxes},
        "bonuses": column_sentences(ruleset) + bonus_sentences(ruleset),
    }
