"""Each player's chance to win, from the expectation, spread and skewness of each final score.

Players' remaining scores are independent (the dice of one do not touch another's, and the
optimal policy plays each scorecard for its own expectation). Each final score is modelled by
a distribution with its first three moments — a normal one when no skewness is given, else a
shifted gamma (Pearson type III: the same mean, standard deviation and skewness; Yahtzee
scores lean right, towards bonuses and Yahtzees) — put on whole numbers (what a scorecard
holds), so equal scores have a chance and a tie is shared evenly between the players in it.

For player i with final score X_i (probability p_i(k) of k, P_i(<k) of less):

    P(i wins) = Σ_k p_i(k) · ∫₀¹ Π_{j≠i} (P_j(<k) + p_j(k)·z) dz

— the integral is the expected share 1/(1 + number of others at k), everyone else below k.
It is a polynomial in z of degree (players − 1), integrated exactly by Gauss-Legendre.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from .scoring import FloatArray

_NODES, _WEIGHTS = np.polynomial.legendre.leggauss(4)  # exact up to degree 7 (8 players)
_NODES, _WEIGHTS = (_NODES + 1) / 2, _WEIGHTS / 2  # on [0, 1]
SPAN = 10.0  # standard deviations either side of a mean that count
STEPS = 10  # density samples per whole number
NORMAL_BELOW = 0.02  # a skewness this small is taken as a normal distribution


def win_chances(expected: Sequence[float], sd: Sequence[float],
                skew: Sequence[float] | None = None) -> list[float]:
    """The chance each player wins (ties shared), in the players' order; they sum to 1.

    ``expected[i]``: player i's expected final score (what is banked included); ``sd[i]``: its
    standard deviation (0 for a finished scorecard: the score is known); ``skew[i]``: its
    skewness (None: normal distributions). ``Advisor.estimate`` and friends give all three.
    """
    skews = [0.0] * len(expected) if skew is None else list(skew)
    if not expected or not len(expected) == len(sd) == len(skews):
        raise ValueError("One expected score, one standard deviation (and skewness) each.")
    if len(expected) > 2 * len(_NODES):
        raise ValueError(f"At most {2 * len(_NODES)} players.")
    lo = math.floor(min(m - SPAN * s for m, s in zip(expected, sd, strict=True))) - 1
    hi = math.ceil(max(m + SPAN * s for m, s in zip(expected, sd, strict=True))) + 1
    k = np.arange(lo, hi + 1, dtype=np.float64)
    return shares(np.stack([score_distribution(k, m, s, g)
                            for m, s, g in zip(expected, sd, skews, strict=True)]))


def shares(at: FloatArray) -> list[float]:
    """Each player's chance to win, ``at[i, k]`` being the chance that player i ends on the
    k-th of the same consecutive whole numbers for everyone."""
    n = len(at)
    if n > 2 * len(_NODES):
        raise ValueError(f"At most {2 * len(_NODES)} players.")
    below = np.cumsum(at, axis=1) - at
    if n == 2:  # the integral of a line: the other below k, or level with it half the time
        return [float(at[0] @ (below[1] + at[1] / 2)), float(at[1] @ (below[0] + at[0] / 2))]
    # At every node z, each player's factor P_j(<k) + p_j(k)·z, then for each i the product
    # of everyone else's: the products of the players before i and of those after it.
    factors = below[None, :, :] + at[None, :, :] * _NODES[:, None, None]
    before = np.ones_like(factors)
    after = np.ones_like(factors)
    if n > 1:
        before[:, 1:] = np.cumprod(factors[:, :-1], axis=1)
        after[:, :-1] = np.cumprod(factors[:, :0:-1], axis=1)[:, ::-1]
    share = np.tensordot(_WEIGHTS, before * after, axes=1)
    return [float(c) for c in np.einsum("ik,ik->i", at, share)]


def score_distribution(k: FloatArray, mean: float, sd: float, skew: float = 0.0) -> FloatArray:
    """The chance of each whole number ``k`` (consecutive) for a score with these moments."""
    if sd <= 0:
        return np.asarray(k == round(mean), dtype=np.float64)
    # The density sampled at STEPS points across each whole number's interval [k-½, k+½).
    x = (k[:, None] - 0.5 + (np.arange(STEPS) + 0.5) / STEPS).ravel()
    z = (x - mean) / sd
    if abs(skew) < NORMAL_BELOW:
        log_density = -0.5 * z * z
    else:
        # X = mean + sd·sign·(G − a)/√a with G ~ Gamma(a), a = 4/skew²: skewness 2/√a.
        a = 4.0 / (skew * skew)
        g = a + math.copysign(1.0, skew) * z * math.sqrt(a)
        with np.errstate(divide="ignore", invalid="ignore"):
            log_density = np.where(g > 0, (a - 1) * np.log(np.maximum(g, 1e-300)) - g, -np.inf)
    density = np.exp(log_density - np.max(log_density)).reshape(len(k), STEPS).sum(axis=1)
    return np.asarray(density / density.sum())
