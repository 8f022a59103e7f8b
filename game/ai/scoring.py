"""Per-roll score tables built from ``game.rules`` itself, so the solver and the game agree.

Every number here comes from the ruleset's own ``Box.score`` and from a real
:class:`~game.rules.Scorecard` (``score_for`` and ``legal_slots``) for the Joker rule.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache

import numpy as np

from game.rules import RULESETS, Ruleset, Scorecard, get_ruleset

from .multisets import FACES, ROLLS

UPPER_CAP = 63  # the upper subtotal only matters up to the bonus threshold


@dataclass(frozen=True)
class ScoreTables:
    """What each of the 252 rolls scores in each box of one column, and the Joker's reach."""

    ruleset: Ruleset
    #: base[r, b]: points of roll r in box b (no Joker).
    base: np.ndarray
    #: upper_face[b]: the face an upper box counts (1-6), 0 for lower boxes.
    upper_face: np.ndarray
    #: Index of the five-of-a-kind box (None for rulesets without one).
    yahtzee_box: int | None
    #: joker_points[mask, f-1, b]: what f,f,f,f,f scores in box b with ``mask`` filled and
    #: the yahtzee box filled (the Joker's fixed points, where they apply).
    joker_points: np.ndarray | None
    #: joker_legal[mask, f-1, b]: box b may take f,f,f,f,f under the Joker, with ``mask`` filled.
    joker_legal: np.ndarray | None

    @property
    def n_boxes(self) -> int:
        return len(self.ruleset.boxes)


def solver_ruleset(rules: str | Ruleset, joker: str | None = None) -> Ruleset:
    """One column of ``rules`` (triple → yahtzee), with the Joker rule optionally replaced.

    ``joker="free"`` is the free-choice Joker of the published optimum (Verhoeff's rules): a
    Yahtzee rolled with the yahtzee box filled may go in any open box, and full house and the
    straights score their fixed points only when the matching upper box is already filled.
    The game itself always plays the rules' own Joker (``forced`` for ``yahtzee``).
    """
    ruleset = get_ruleset(rules)
    if ruleset.columns != 1:
        # A column of triple is a game of yahtzee: share its table when the rules agree.
        same = [r for r in RULESETS.values() if r.columns == 1 and _column_rules(r)
                == _column_rules(ruleset)]
        ruleset = same[0] if same else replace(ruleset, multipliers=(1,))
    if joker is not None:
        if ruleset.joker is None:
            raise ValueError(f"{ruleset.title} has no Joker rule to change.")
        ruleset = replace(ruleset, joker=joker)
    return ruleset


def _column_rules(r: Ruleset) -> tuple:
    return (r.boxes, r.upper_bonus, r.upper_bonus_threshold, r.yahtzee_box, r.yahtzee_bonus,
            r.joker)


def _card(ruleset: Ruleset, mask: int) -> Scorecard:
    card = Scorecard(ruleset)
    for b, box in enumerate(ruleset.boxes):
        if mask >> b & 1:
            card.fill(box.name, 0, 0)
    return card


@lru_cache(maxsize=8)
def score_tables(ruleset: Ruleset) -> ScoreTables:
    boxes = ruleset.boxes
    base = np.array([[box.score(r) for box in boxes] for r in ROLLS], dtype=np.float64)
    upper_face = np.array(
        [FACES[ruleset.upper_boxes.index(b)] if b.section == "upper" else 0 for b in boxes],
        dtype=np.intp,
    )
    names = ruleset.box_names
    ybox = names.index(ruleset.yahtzee_box) if ruleset.yahtzee_box else None
    if ybox is None or ruleset.joker is None:
        return ScoreTables(ruleset, base, upper_face, ybox, None, None)

    # The Joker's legal boxes and its points depend on which boxes are filled: ask a real
    # scorecard for each pattern (only masks with the yahtzee box filled matter), so the solver
    # plays exactly the rules' Joker, forced or free.
    n = len(boxes)
    joker_legal = np.zeros((1 << n, 6, n), dtype=bool)
    joker_points = np.zeros((1 << n, 6, n))
    for mask in range(1 << n):
        if not mask >> ybox & 1 or mask == (1 << n) - 1:
            continue
        card = _card(ruleset, mask)
        for f in FACES:
            for slot in card.legal_slots((f,) * 5):
                b = names.index(slot.box)
                joker_legal[mask, f - 1, b] = True
                joker_points[mask, f - 1, b] = card.score_for((f,) * 5, slot.box)
    return ScoreTables(ruleset, base, upper_face, ybox, joker_points, joker_legal)


