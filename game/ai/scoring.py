"""What scoring a box does to one column, built from ``game.rules`` so the AI and the game agree.

* :class:`ScoreTables` — what each of the 252 rolls scores in each box, and the Joker's legal
  boxes and points for every pattern of filled boxes. Every number comes from the ruleset's own
  ``Box.score`` and from a real :class:`~game.rules.Scorecard` (``score_for``, ``legal_slots``).
* :func:`score_box` — the bookkeeping of one score: its points, the upper bonus it earns by
  crossing the threshold, the Yahtzee bonus of a Joker, and the column's state afterwards.
  The solver, the advisor and the Triple bots all call it (vectorised with NumPy or on one
  state), so these rules are written once.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cached_property, lru_cache
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from game.rules import RULESETS, Dice, Ruleset, Scorecard, get_ruleset, validate_dice
from game.rules.rulesets import JokerRule

from .multisets import FACES, ROLLS, YAHTZEE_ROLLS

IntArray = npt.NDArray[np.intp]
FloatArray = npt.NDArray[np.float64]

UPPER_CAP = 63  # the upper subtotal only matters up to the bonus threshold


@dataclass(frozen=True)
class ScoreTables:
    """What each of the 252 rolls scores in each box of one column, and the Joker's reach."""

    ruleset: Ruleset
    #: base[r, b]: points of roll r in box b (no Joker).
    base: FloatArray
    #: upper_face[b]: the face an upper box counts (1-6), 0 for lower boxes.
    upper_face: IntArray
    #: Index of the five-of-a-kind box (None for rulesets without one).
    yahtzee_box: int | None
    #: joker_points[mask, f-1, b]: what f,f,f,f,f scores in box b with ``mask`` filled and
    #: the yahtzee box filled (the Joker's fixed points, where they apply).
    joker_points: FloatArray | None
    #: joker_legal[mask, f-1, b]: box b may take f,f,f,f,f under the Joker, with ``mask`` filled.
    joker_legal: npt.NDArray[np.bool_] | None
    #: point_values[b]: the distinct points box b gives a roll (no Joker), ascending.
    point_values: tuple[IntArray, ...]
    #: point_index[r, b]: where roll r's points in box b are in ``point_values[b]``.
    point_index: IntArray

    @property
    def n_boxes(self) -> int:
        return len(self.ruleset.boxes)

    @property
    def full(self) -> int:
        """The mask of a full column."""
        return (1 << self.n_boxes) - 1

    @property
    def threshold(self) -> int:
        """The upper subtotal that earns the upper bonus (as the capped subtotal sees it)."""
        return min(self.ruleset.upper_bonus_threshold, UPPER_CAP)

    def joker_on(self, mask: Any) -> Any:
        """A five of a kind rolled with ``mask`` filled is a Joker (an int, or an array)."""
        if self.joker_legal is None or self.yahtzee_box is None:
            return mask & 0 == 1
        return (mask >> self.yahtzee_box & 1) == 1

    @cached_property
    def _open_upper_faces(self) -> IntArray:
        masks = np.arange(1 << self.n_boxes)[:, None]
        is_open = (masks >> np.arange(self.n_boxes)[None, :] & 1) == 0
        return np.asarray((is_open * self.upper_face[None, :]).sum(axis=1), dtype=np.intp)

    def open_upper_faces(self, mask: int) -> int:
        """The sum of the faces of the upper boxes still open: 5 × that is the most they add."""
        return int(self._open_upper_faces[mask])

    def upper_settled(self, mask: int, upper: Any) -> Any:
        """Whether the upper subtotal ``upper`` (an int, or an array) no longer matters with
        ``mask`` filled: no upper box is open, or the open ones cannot reach the threshold any
        more. All such subtotals are worth the same."""
        still = self.open_upper_faces(mask)
        return upper + 5 * still < self.threshold if still else upper >= 0


class Outcome(NamedTuple):
    """What scoring one box does to a column: NumPy arrays shaped like the inputs."""

    points: Any  # the box's points (the Joker's fixed points included)
    upper_bonus: Any  # earned now, by this score crossing the threshold
    yahtzee_bonus: Any  # earned now: a Joker while the yahtzee box holds 50
    mask: Any  # the state after: filled boxes, capped upper subtotal, yahtzee box holds 50
    upper: Any
    yahtzee_50: Any

    @property
    def bonuses(self) -> Any:
        return self.upper_bonus + self.yahtzee_bonus

    @property
    def state(self) -> tuple[int, int, int]:
        """The state after as (mask, upper, yahtzee_50) integers (one-state outcomes)."""
        return int(self.mask), int(self.upper), int(self.yahtzee_50)


def score_box(tables: ScoreTables, box: int, mask: Any, upper: Any, yahtzee_50: Any,
              points: Any, joker: Any = False) -> Outcome:
    """Score ``points`` in ``box`` of columns in states (mask, upper, yahtzee_50).

    Plain integers give one state's outcome; NumPy arrays broadcast (the solver passes every
    state of a chunk and every score a box can give at once). ``joker``: the roll is a five of
    a kind played under the Joker rule (:meth:`ScoreTables.joker_on`).
    """
    rs = tables.ruleset
    # Written with arithmetic that means the same on integers and on arrays (True is 1).
    yahtzee_bonus = rs.yahtzee_bonus * ((yahtzee_50 == 1) & joker)
    upper_bonus: Any = 0
    if tables.upper_face[box]:
        total = upper + points
        upper_bonus = rs.upper_bonus * ((upper < tables.threshold) & (total >= tables.threshold))
        upper = (np.minimum(UPPER_CAP, total).astype(np.intp) if isinstance(total, np.ndarray)
                 else min(UPPER_CAP, int(total)))
    if box == tables.yahtzee_box:
        yahtzee_50 = yahtzee_50 | (points > 0)  # 50 here turns the Yahtzee bonus on
    return Outcome(points, upper_bonus, yahtzee_bonus, mask | 1 << box, upper, yahtzee_50)


#: The face index (0-5) of each five-of-a-kind roll, -1 for the other rolls.
FACE_OF_ROLL = np.full(len(ROLLS), -1, dtype=np.intp)
FACE_OF_ROLL[YAHTZEE_ROLLS] = np.arange(6)


def score_roll(tables: ScoreTables, box: int, mask: Any, upper: Any, yahtzee_50: Any,
               roll: Any) -> tuple[Outcome, Any]:
    """Scoring roll number ``roll`` (an index of ``ROLLS``) in ``box``: the outcome, and whether
    the Joker rule lets the box take it (the caller knows the box is open). Arrays broadcast."""
    face = FACE_OF_ROLL[roll]
    joker = (face >= 0) & tables.joker_on(mask)
    points = tables.base[roll, box]
    legal: Any = True
    if tables.joker_legal is not None and tables.joker_points is not None:
        face = np.maximum(face, 0)
        legal = np.logical_not(joker) | tables.joker_legal[mask, face, box]
        points = np.where(joker, tables.joker_points[mask, face, box], points)
    return score_box(tables, box, mask, upper, yahtzee_50, points, joker), legal


def roll_outcome(tables: ScoreTables, box: int, mask: int, upper: int, yahtzee_50: int,
                 roll: int) -> Outcome | None:
    """:func:`score_roll` for one state, in plain integers; None where the Joker forbids it."""
    out, legal = score_roll(tables, box, mask, upper, yahtzee_50, roll)
    if not legal:
        return None
    return Outcome(int(out.points), int(out.upper_bonus), int(out.yahtzee_bonus), *out.state)


def solver_ruleset(rules: str | Ruleset, joker: JokerRule | None = None) -> Ruleset:
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


def _column_rules(r: Ruleset) -> tuple[object, ...]:
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
    base = np.array([[box.score(r) for box in boxes] for r in _five(ROLLS)], dtype=np.float64)
    upper_face = np.array(
        [FACES[ruleset.upper_boxes.index(b)] if b.section == "upper" else 0 for b in boxes],
        dtype=np.intp,
    )
    point_values = tuple(np.unique(base[:, b]).astype(np.intp) for b in range(len(boxes)))
    point_index = np.stack([np.searchsorted(point_values[b], base[:, b])
                            for b in range(len(boxes))], axis=1).astype(np.intp)
    names = ruleset.box_names
    ybox = names.index(ruleset.yahtzee_box) if ruleset.yahtzee_box else None
    if ybox is None or ruleset.joker is None:
        return ScoreTables(ruleset, base, upper_face, ybox, None, None, point_values,
                           point_index)

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
            dice = (f, f, f, f, f)
            for slot in card.legal_slots(dice):
                b = names.index(slot.box)
                joker_legal[mask, f - 1, b] = True
                joker_points[mask, f - 1, b] = card.score_for(dice, slot.box)
    return ScoreTables(ruleset, base, upper_face, ybox, joker_points, joker_legal, point_values,
                       point_index)


def _five(rolls: tuple[tuple[int, ...], ...]) -> list[Dice]:
    """The rolls as the rules engine's five-dice type."""
    return [validate_dice(r) for r in rolls]
