"""Fitting the Triple Yahtzee correction θ (``triple.Correction``) on simulated games.

Approximate policy iteration: play games with the current θ (the column bot to start), record
every turn's start position and the points the turn scored, and fit θ by least-squares
temporal differences, LSTD(λ), for the value ``V = W + θ·φ + h(turn)`` of that policy
(``h``, one weight per turn number, takes up what only depends on how far the game is; it
changes no decision, so it is fitted but not kept). Then play with the new θ and fit again.
Everything is seeded: ``manage.py fit_triple`` reproduces ``data/triple_correction.json``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass

import numpy as np

from game.rules import Game

from .actions import Roll, Score
from .advice import advisor
from .multisets import ROLL_INDEX, ROLL_PROBABILITY, best_hold_values, hold_values
from .triple import (
    N_FEATURES,
    N_TURNS,
    Correction,
    bot,
    position_features,
    position_keys,
    turn_values,
)
from .turn import play_turn


def play_game(seed: int, corr: Correction | None, explore: float = 0.0, endgame_open: int = 0
              ) -> tuple[int, list[tuple], float]:
    """One seeded triple game (``corr=None``: the column bot): its score; per turn, the
    start position's column keys and the points banked before it; and the score less the
    dice's luck (see ``luck_free``).

    ``explore``: the chance of scoring in the second or third best slot instead of the best,
    so that the data show what filling other boxes leads to (seeded too).
    """
    game = Game("triple", ["bot"], rng=random.Random(seed))
    wander = random.Random(-seed - 1)
    zero = Correction.zero()
    rv, ps = bot(corr, endgame_open)
    turns: list[tuple] = []
    luck = 0.0
    expected = 0.0
    while not game.is_over:
        if game.dice is None:
            expected = turn_expectation(rv(game))
            turns.append((position_keys(game), game.scorecard.total, expected))
            game.roll(())
            continue
        action = play_turn(game, rv, ps)
        if not isinstance(action, Roll):
            luck += float(rv(game)[ROLL_INDEX[tuple(sorted(game.dice))]]) - expected
        if not isinstance(action, Roll) and explore and wander.random() < explore:
            tv = turn_values(game, corr or zero)
            dice = tuple(game.dice)
            ranked = sorted(game.legal_slots(), key=lambda s: -tv.slot_value(game, s, dice))
            slot = wander.choice(ranked[1:3] or ranked)
            action = Score(slot.box, slot.column)
        if isinstance(action, Roll):
            game.roll(action.hold)
        else:
            game.score(action.box, action.column)
    return game.scorecards[0].total, turns, game.scorecards[0].total - luck


def turn_expectation(roll_values: np.ndarray) -> float:
    """Expected value of the end of a turn not yet rolled, holds chosen to maximise it."""
    v = roll_values.reshape(-1, 1)
    for _ in range(2):
        v = best_hold_values(hold_values(v))
    return float(ROLL_PROBABILITY @ v[:, 0])


@dataclass
class Episodes:
    """Per turn of every game: φ (features, then one-hot turn number) and δ, the TD error
    of W alone (points this turn + W(next) − W(now))."""

    phi: list[np.ndarray]
    delta: list[np.ndarray]
    scores: list[int]
    #: per turn, the expected δ given the turn's start (what the bot expected the turn to
    #: gain over W): δ without the dice's luck, for a bot that plays exactly against W.
    gain: list[np.ndarray]


def record(games: Iterable[tuple[int, list[tuple]]]) -> Episodes:
    adv = advisor("triple")
    mult = (1, 2, 3)  # the advisor's ruleset is one column: triple's multipliers here
    values = adv.solution.values
    full = (1 << adv.tables.n_boxes) - 1
    ep = Episodes([], [], [], [])
    for score, turns, *_ in games:
        n = len(turns)
        phi = np.zeros((n + 1, N_FEATURES + N_TURNS))
        w = np.zeros(n + 1)
        banked = np.array([t[1] for t in turns] + [score], dtype=np.float64)
        for i, (keys, *_) in enumerate(turns):
            phi[i, :N_FEATURES] = position_features(keys, mult)
            phi[i, N_FEATURES + i] = 1.0
            w[i] = sum(m * (0.0 if k[0] == full else float(values[k]))
                       for k, m in zip(keys, mult, strict=True))
        ep.phi.append(phi)
        ep.delta.append(np.diff(banked) + w[1:] - w[:-1])
        ep.scores.append(score)
        ep.gain.append(np.array([t[2] for t in turns]))
    return ep


def lstd(ep: Episodes, lam: float, ridge: float = 1e-3) -> np.ndarray:
    """θ (features and turn weights) solving LSTD(λ) on the episodes (the last row of each
    episode's φ is the end of the game: value 0)."""
    d = N_FEATURES + N_TURNS
    a = np.zeros((d, d))
    b = np.zeros(d)
    for phi, delta in zip(ep.phi, ep.delta, strict=True):
        z = np.zeros(d)
        for i in range(len(delta)):
            z = lam * z + phi[i]
            a += np.outer(z, phi[i] - phi[i + 1])
            b += z * delta[i]
    return np.linalg.solve(a + ridge * np.eye(d), b)


def simulate(seeds: Iterable[int], corr: Correction | None, explore: float = 0.0
             ) -> list[tuple[int, list[tuple], float]]:
    return [play_game(s, corr, explore) for s in seeds]


def fit(rounds: int, games: int, seed: int, lam: float,
        log: Callable[[str], None] = print) -> tuple[Correction, list[dict]]:
    """``rounds`` of policy iteration from the column bot, ``games`` games each."""
    corr: Correction | None = None
    history = []
    for r in range(rounds):
        seeds = range(seed + r * games, seed + (r + 1) * games)
        ep = record(simulate(seeds, corr))
        theta = lstd(ep, lam)[:N_FEATURES]
        mean = float(np.mean(ep.scores))
        history.append({"round": r, "games": games, "first_seed": seeds[0],
                        "mean_of_policy": mean})
        log(f"round {r}: policy mean {mean:.1f} over {games} games")
        corr = Correction(theta)
    assert corr is not None
    return corr, history
