"""Glicko-2 (Mark Glickman, "Example of the Glicko-2 system", glicko.net): a rating, its
deviation and its volatility, updated once per rating period from the period's results.

Written here rather than taken from PyPI: the ``glicko2`` package (2.1.0, the most used) is
untyped, mutates its players, and its volatility step uses μ² where the paper has φ² — which
the paper's example cannot show, its player having μ = 0; the others are alphas or a few weeks
old.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

#: Glicko-2's scale: a rating of 1500 is μ = 0, and 173.7178 rating points are 1 unit of μ.
SCALE = 173.7178
CENTRE = 1500.0
#: The system constant τ: how much the volatility may change in one period (0.3–1.2).
TAU = 0.5
#: Convergence tolerance of the volatility's root search (the paper's).
EPSILON = 1e-6


@dataclass(frozen=True)
class Rating:
    """A rating on the Glicko scale: unrated players start at 1500 ± 350, volatility 0.06."""

    rating: float = CENTRE
    rd: float = 350.0
    volatility: float = 0.06

    @property
    def mu(self) -> float:
        return (self.rating - CENTRE) / SCALE

    @property
    def phi(self) -> float:
        return self.rd / SCALE


def _g(phi: float) -> float:
    return 1 / math.sqrt(1 + 3 * phi * phi / math.pi ** 2)


def expected_score(player: Rating, opponent: Rating) -> float:
    """The score ``player`` is expected to make against ``opponent`` (0 to 1)."""
    return 1 / (1 + math.exp(-_g(opponent.phi) * (player.mu - opponent.mu)))


def update(player: Rating, results: Sequence[tuple[Rating, float]], tau: float = TAU,
           weights: Sequence[float] | None = None) -> Rating:
    """``player``'s rating after one period of ``results``: (opponent's rating at the start
    of the period, score in [0, 1]: 1 a win, ½ a draw, 0 a loss). No results: only the
    deviation grows.

    ``weights`` (one per result, default 1): a result of weight w counts as w results in the
    period's likelihood — it adds w·g²E(1−E) to 1/v and w·g(s−E) to the gain (a weighted
    log-likelihood; w = 1 everywhere is the paper's step). Results of weight 0 are left out;
    all of weight 0 is a period without results."""
    if weights is not None and len(weights) != len(results):
        raise ValueError("One weight per result.")
    mu, phi, sigma = player.mu, player.phi, player.volatility
    counted = [(o, s, 1.0 if weights is None else float(weights[i]))
               for i, (o, s) in enumerate(results)]
    if any(w < 0 for _, _, w in counted):
        raise ValueError("A weight is at least 0.")
    counted = [c for c in counted if c[2] > 0]
    if not counted:
        return idle(player, 1)
    inv_v = 0.0
    gain = 0.0
    for opponent, score, w in counted:
        if not 0 <= score <= 1:
            raise ValueError(f"A score is between 0 and 1, not {score}.")
        g = _g(opponent.phi)
        e = 1 / (1 + math.exp(-g * (mu - opponent.mu)))
        inv_v += w * g * g * e * (1 - e)
        gain += w * g * (score - e)
    v = 1 / inv_v
    sigma = new_volatility(phi, sigma, v, v * gain, tau)
    phi_star = math.sqrt(phi ** 2 + sigma ** 2)
    phi = 1 / math.sqrt(1 / phi_star ** 2 + 1 / v)
    mu += phi ** 2 * gain
    return Rating(CENTRE + SCALE * mu, SCALE * phi, sigma)


def idle(player: Rating, periods: float) -> Rating:
    """``player``'s rating after ``periods`` rating periods without a game (Glickman's step for
    a player who did not compete: φ* = √(φ² + σ²) per period, so √(φ² + n·σ²) after n; a
    fraction of a period grows it in proportion, as lichess does). The rating and volatility
    stay; the deviation never grows past an unrated player's (Glickman: the RD is bounded by
    that of an unrated player)."""
    if periods < 0:
        raise ValueError(f"A number of periods is at least 0, not {periods}.")
    if periods == 0:
        return player
    phi = math.sqrt(player.phi ** 2 + periods * player.volatility ** 2)
    return Rating(player.rating, min(phi * SCALE, max(Rating().rd, player.rd)),
                  player.volatility)


def volatility_equation(x: float, phi: float, sigma: float, v: float, delta: float,
                        tau: float) -> float:
    """Step 5's f(x), whose root is ln σ'²."""
    ex = math.exp(x)
    return (ex * (delta ** 2 - phi ** 2 - v - ex) / (2 * (phi ** 2 + v + ex) ** 2)
            - (x - math.log(sigma ** 2)) / tau ** 2)


def new_volatility(phi: float, sigma: float, v: float, delta: float, tau: float = TAU
                   ) -> float:
    """Step 5: σ' by the Illinois algorithm, as the paper gives it."""
    def f(x: float) -> float:
        return volatility_equation(x, phi, sigma, v, delta, tau)

    a = math.log(sigma ** 2)
    if delta ** 2 > phi ** 2 + v:
        b = math.log(delta ** 2 - phi ** 2 - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        b = a - k * tau
    fa, fb = f(a), f(b)
    while abs(b - a) > EPSILON:
        c = a + (a - b) * fa / (fb - fa)
        fc = f(c)
        if fc * fb <= 0:
            a, fa = b, fb
        else:
            fa /= 2
        b, fb = c, fc
    return math.exp(a / 2)
