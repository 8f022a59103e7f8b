"""Where each player of a game stands: the final score they can expect under optimal play, its
spread, their chance to win (ties shared) and how their final score is spread — for the review
and for live rooms alike.

A chance needs each player's whole final-score distribution. Every player maximises their own
expected score, so the finals are independent and each depends on the player's own card only:
the score table (``score_table.py``, built once beside the strategy table) gives it — exact
while the rest of a card's game is at most ``EXACT_LEVELS`` + 1 turns, elsewhere one exact
turn over quantiles of the states after it (docs/ai.md: the error measured). Until that table
is built (it is never built here: ``manage.py build_strategy`` builds it), the exact end game
for at most ``EXACT_TURNS`` turns to play and a shifted gamma with the card's three moments
before. A card changes once per turn, so the distributions are kept per card.
Single-column rulesets only: triple has no exact table.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from game.rules import Ruleset, Scorecard

from .advice import CardState, advisor
from .distribution import (
    EXACT_TURNS,
    Distribution,
    estimated_distribution,
    is_exact,
    table_distribution,
    table_futures,
    win_chances_of,
)
from .score_table import ScoreTable
from .storage import loaded_score_table

#: States whose points to come a game's standings keep (a turn leads to a few dozen).
FUTURES_KEPT = 2048
#: The percentiles of the final score a standing carries.
PERCENTILES = (10, 50, 90)


@dataclass(frozen=True)
class Standing:
    expected: float  # final score expected under optimal play from here
    sd: float  # its standard deviation (0 for a full card)
    chance: float  # of winning, ties shared (1 for a player alone)
    #: The final score's 10th, 50th and 90th percentiles (the least whole number reached with
    #: at least that chance).
    percentiles: tuple[int, ...] = ()
    #: Whether this player's final-score distribution is exact (else estimated: docs/ai.md).
    exact: bool = False


def supported(ruleset: Ruleset) -> bool:
    return ruleset.columns == 1


def above(dist: Distribution, points: float) -> float:
    """The chance that a final score distributed as ``dist`` ends above ``points``."""
    lo, probs = dist
    first = int(np.floor(points)) + 1 - lo  # the first whole number above ``points``
    return float(min(1.0, max(0.0, probs[max(0, first):].sum())))


def percentile(dist: Distribution, q: float) -> int:
    """The least whole number the final score reaches with at least chance ``q``/100."""
    lo, probs = dist
    at = int(np.searchsorted(np.cumsum(probs), q / 100 - 1e-12))
    return lo + min(at, len(probs) - 1)


class Standings:
    """The standings of one game's players, turn after turn (one instance per game)."""

    def __init__(self, ruleset: Ruleset) -> None:
        if not supported(ruleset):
            raise ValueError(f"No standings for {ruleset.name}: it has no exact table.")
        self.adv = advisor(ruleset)
        self.ruleset = ruleset
        self.table: ScoreTable | None = None
        self.cards: dict[int, tuple[CardState, Distribution, bool]] = {}
        self.futures: dict[tuple[int, int, int], Distribution] = {}

    def _score_table(self) -> ScoreTable | None:
        """The score table once it is built (loaded, never built here)."""
        if self.table is None:
            self.table = loaded_score_table(self.ruleset)
        return self.table

    def _known(self, player: int, state: CardState) -> tuple[Distribution, bool]:
        known = self.cards.get(player)
        if known is None or known[0] != state:
            known = self.cards[player] = (state, *self._computed(state))
        return known[1], known[2]

    def _computed(self, state: CardState) -> tuple[Distribution, bool]:
        """A card's final-score distribution between turns, and whether it is exact."""
        table = self._score_table()
        if state.mask == self.adv.tables.full:
            return (state.banked, np.ones(1)), True
        if table is not None:
            return table_distribution(self.adv, table, state), is_exact(self.adv, table, state)
        return (estimated_distribution(self.adv, state, exact_turns=EXACT_TURNS),
                self.adv.tables.n_boxes - state.mask.bit_count() <= EXACT_TURNS)

    def points_to_come(self, keys: Sequence[tuple[int, int, int]]) -> list[Distribution]:
        """The distributions of the points still to come from the states ``keys`` between
        turns (what :meth:`distribution` gives a card in one, less what it has banked),
        computed together and kept for the states a game's turns lead to (``to_win``)."""
        missing = [k for k in dict.fromkeys(keys) if k not in self.futures]
        table = self._score_table()
        full = self.adv.tables.full
        if table is not None:
            played = [k for k in missing if k[0] != full]
            for k in played:
                self.adv.check(CardState(k[0], k[1], bool(k[2])))
            self.futures.update(zip(played, table_futures(self.adv, table, played),
                                    strict=True))
        for mask, upper, y in missing:
            if (mask, upper, y) not in self.futures:
                state = CardState(mask, upper, bool(y))
                self.futures[mask, upper, y] = self._computed(state)[0]
        found = [self.futures[k] for k in keys]
        while len(self.futures) > FUTURES_KEPT:
            del self.futures[next(iter(self.futures))]
        return found

    def distribution(self, player: int, state: CardState) -> Distribution:
        """Player ``player``'s final-score distribution when their card is ``state``."""
        return self._known(player, state)[0]

    def chances(self, cards: Sequence[Scorecard]) -> list[float]:
        """Each player's chance to win from the start of a turn (clipped: the integration
        leaves float noise around 0 and 1)."""
        return self._chances([CardState.of(card) for card in cards])

    def _chances(self, states: list[CardState]) -> list[float]:
        if len(states) == 1:
            return [1.0]
        dists = [self.distribution(p, state) for p, state in enumerate(states)]
        return [min(1.0, max(0.0, c)) for c in win_chances_of(dists)]

    def finishes_above(self, cards: Sequence[Scorecard], player: int, points: float) -> float:
        """The chance that ``player`` finishes above ``points`` ("Ann finishes above 250 in
        46 % of games")."""
        return above(self.distribution(player, CardState.of(cards[player])), points)

    def of(self, cards: Sequence[Scorecard]) -> list[Standing]:
        states = [CardState.of(card) for card in cards]
        out = []
        for p, (state, chance) in enumerate(zip(states, self._chances(states), strict=True)):
            dist, exact = self._known(p, state)
            shape = tuple(percentile(dist, q) for q in PERCENTILES)
            if state.mask == self.adv.tables.full:  # the score is known
                out.append(Standing(float(state.banked), 0.0, chance, shape, True))
            else:
                estimate = self.adv.estimate(state)
                out.append(Standing(estimate.expected, estimate.sd, chance, shape, exact))
        return out
