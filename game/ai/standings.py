"""Where each player of a game stands: the final score they can expect under optimal play, its
spread, and their chance to win (ties shared) — for the review and for live rooms alike.

A chance needs each player's whole final-score distribution: exact for a player with at most
``EXACT_TURNS`` turns to play (the three-moment fit is off by up to ~8 points there,
docs/ai.md), a shifted gamma with the card's three moments before. A card changes once per
turn, so the distributions are kept per card (and the exact ones' parts on the advisor, for
every game).
Single-column rulesets only: triple has no exact table.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from game.rules import Ruleset, Scorecard

from .advice import CardState, advisor
from .distribution import Distribution, estimated_distribution, win_chances_of

EXACT_TURNS = 2


@dataclass(frozen=True)
class Standing:
    expected: float  # final score expected under optimal play from here
    sd: float  # its standard deviation (0 for a full card)
    chance: float  # of winning, ties shared (1 for a player alone)


def supported(ruleset: Ruleset) -> bool:
    return ruleset.columns == 1


class Standings:
    """The standings of one game's players, turn after turn (one instance per game)."""

    def __init__(self, ruleset: Ruleset) -> None:
        if not supported(ruleset):
            raise ValueError(f"No standings for {ruleset.name}: it has no exact table.")
        self.adv = advisor(ruleset)
        self.cards: dict[int, tuple[CardState, Distribution]] = {}

    def distribution(self, player: int, state: CardState) -> Distribution:
        known = self.cards.get(player)
        if known is None or known[0] != state:
            if state.mask == self.adv.tables.full:
                dist: Distribution = (state.banked, np.ones(1))
            else:
                dist = estimated_distribution(self.adv, state, exact_turns=EXACT_TURNS)
            known = self.cards[player] = (state, dist)
        return known[1]

    def chances(self, cards: Sequence[Scorecard]) -> list[float]:
        """Each player's chance to win from the start of a turn (clipped: the integration
        leaves float noise around 0 and 1)."""
        return self._chances([CardState.of(card) for card in cards])

    def _chances(self, states: list[CardState]) -> list[float]:
        if len(states) == 1:
            return [1.0]
        dists = [self.distribution(p, state) for p, state in enumerate(states)]
        return [min(1.0, max(0.0, c)) for c in win_chances_of(dists)]

    def of(self, cards: Sequence[Scorecard]) -> list[Standing]:
        states = [CardState.of(card) for card in cards]
        out = []
        for state, chance in zip(states, self._chances(states), strict=True):
            if state.mask == self.adv.tables.full:  # the score is known
                out.append(Standing(float(state.banked), 0.0, chance))
            else:
                estimate = self.adv.estimate(state)
                out.append(Standing(estimate.expected, estimate.sd, chance))
        return out
