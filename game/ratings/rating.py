"""The players' rating: Glicko-2 fed with luck-adjusted results (points). Superseded by
``wins`` (the rating of winning), which the services are to call instead; kept while they
still call this.

The exact review splits every player's final score into ``expected_start + Σ luck − Σ loss``
(yahtzee and yatzy). Taking the luck out leaves ``final − Σ luck = expected_start − Σ loss``:
what the player's decisions alone made of an average game. Two players of a game are compared
on that, not on who won: a lucky win against a better player is then a defeat.

The comparison is graded, not won or lost: a player ahead by ``d`` adjusted points scores
``1 / (1 + 10^(−d / POINTS_PER_400))`` against the other, the shape of Glicko's own expected
score. So a rating difference of 400 means about ``POINTS_PER_400`` expected points a game
lost by the weaker player's decisions, and equal play scores ½ whatever the dice did. A game
of several players is one rating period for each, with a result against every other player.

Computer players hold fixed anchor ratings (never updated) on the same scale, calibrated by
``benchmarks/rating.py`` from the mean score the optimal bot makes against each level. The
anchors are points, not wins: the to-win bot, which gives up a few expected points a game to
win more often, sits below the optimal bot. A rating whose deviation is above
``PROVISIONAL_RD`` is provisional.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from . import glicko2
from .glicko2 import Rating

#: Luck-adjusted points that make a 400-point rating difference (see the module's docstring).
POINTS_PER_400 = 40.0
#: Above this deviation a rating is provisional (as lichess: about ten games from unrated).
PROVISIONAL_RD = 110.0
#: Rulesets rated: those whose review is exact (triple's valuation drifts between turns).
RATED_RULES = ("yahtzee", "yatzy")
#: The deviation an anchor is treated with by its opponents: its strength is known.
ANCHOR_RD = 30.0
#: Each bot level's fixed rating, per ruleset: the medium bot at a newcomer's 1500, the others
#: where the optimal bot's mean score against them puts them (``benchmarks/rating.py`` prints
#: them: 300 yahtzee and 200 yatzy games per level, at 40 points per 400). ``to_win``: placed
#: below the optimal bot's anchor from its seat of 1,000 heads-up games against the optimal
#: bot per ruleset (``--pool 1000 --strengths optimal to_win``: 5.5 points lost a game in
#: yahtzee, 48.3 ± 2.1 below; 3.6 in yatzy, 34.4 ± 1.4 below; docs/ai.md).
ANCHORS: dict[str, dict[str, float]] = {
    "yahtzee": {"optimal": 1693.0, "to_win": 1645.0, "medium": 1500.0, "easy": 1360.0},
    "yatzy": {"optimal": 1674.0, "to_win": 1640.0, "medium": 1500.0, "easy": 1222.0},
}


@dataclass(frozen=True)
class Seat:
    """One player of a finished game, as the rating sees them: the final score and the
    review's Σ luck; their rating before the game (None: never rated) or, for a computer
    player, its level."""

    final: float
    luck: float
    rating: Rating | None = None
    bot: str | None = None

    @property
    def adjusted(self) -> float:
        """The final score with the luck taken out."""
        return self.final - self.luck


def is_provisional(rating: Rating) -> bool:
    return rating.rd > PROVISIONAL_RD


def anchor(rules: str, level: str) -> Rating:
    """The fixed rating of the computer player ``level`` in ``rules``."""
    try:
        value = ANCHORS[rules][level]
    except KeyError:
        raise ValueError(f"No anchor rating for a {level!r} bot in {rules!r}.") from None
    return Rating(value, ANCHOR_RD, glicko2.Rating().volatility)


def adjusted_score(mine: float, theirs: float, points_per_400: float = POINTS_PER_400
                   ) -> float:
    """The score (0 to 1) of a luck-adjusted result ``mine`` against ``theirs``."""
    return 1 / (1 + 10 ** (-(mine - theirs) / points_per_400))


def rate_game(rules: str, seats: Sequence[Seat], points_per_400: float = POINTS_PER_400
              ) -> list[Rating]:
    """Every seat's rating after the game, in the seats' order. Computer players keep their
    anchor; a person alone (nobody to compare with) keeps their rating."""
    if rules not in RATED_RULES:
        raise ValueError(f"Games of {rules!r} are not rated.")
    before = [anchor(rules, s.bot) if s.bot is not None else s.rating or Rating()
              for s in seats]
    after = []
    for i, seat in enumerate(seats):
        results = [(before[j], adjusted_score(seat.adjusted, other.adjusted, points_per_400))
                   for j, other in enumerate(seats) if j != i]
        keep = seat.bot is not None or not results
        after.append(before[i] if keep else glicko2.update(before[i], results))
    return after


def combine(first: Rating, second: Rating) -> Rating:
    """One rating from two independent ones of the same person (two players merged into one
    account): each is a normal belief about the same strength, both grown from the newcomer's
    1500 ± 350, so their precisions (1 / RD²) add, less the prior's counted twice, and the
    ratings average weighted by precision. The volatility of the better-known one is kept."""
    prior = Rating()
    precision = 1 / first.rd ** 2 + 1 / second.rd ** 2 - 1 / prior.rd ** 2
    mean = (first.rating / first.rd ** 2 + second.rating / second.rd ** 2
            - prior.rating / prior.rd ** 2) / precision
    surer = first if first.rd <= second.rd else second
    return Rating(mean, precision ** -0.5, surer.volatility)
