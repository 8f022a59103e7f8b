"""The spread of the final score (second moments), and win chances, against simulated games."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

from game.ai import CardState, advisor, choose_action
from game.ai.actions import Roll
from game.ai.advice import Estimate
from game.ai.distribution import estimated_distribution, final_distribution, win_chances_of
from game.ai.multisets import ROLL_PROBABILITY, ROLLS
from game.ai.simulation import play_out
from game.ai.win_chances import win_chances
from game.rules import Game


def sample_sd_and_its_error(scores: np.ndarray) -> tuple[float, float]:
    """The sample standard deviation and its standard error (from the fourth moment)."""
    sd = float(scores.std(ddof=1))
    m4 = float(((scores - scores.mean()) ** 4).mean())
    return sd, math.sqrt((m4 - sd ** 4) / (4 * sd ** 2 * len(scores)))


def test_empty_card_spread_agrees_with_20000_simulated_games(yahtzee_table):
    adv = advisor("yahtzee")
    estimate = adv.estimate(CardState.empty())
    assert estimate.expected == pytest.approx(254.587729, abs=1e-6)
    assert estimate.sd == pytest.approx(59.6076, abs=1e-4)
    scores = play_out(adv, CardState.empty(), 20_000, np.random.default_rng(2026))
    # The play-out plays the optimal policy: its mean is the table's, within 3 standard errors.
    sd, sd_error = sample_sd_and_its_error(scores)
    assert abs(scores.mean() - estimate.expected) < 3 * sd / math.sqrt(len(scores))
    assert abs(sd - estimate.sd) < 2 * sd_error  # sd_error ≈ 0.53


def test_yatzy_has_a_spread_too(yatzy_table):
    estimate = advisor("yatzy").estimate(CardState.empty())
    assert estimate.expected == pytest.approx(248.44, abs=0.005)
    assert 30 < estimate.sd < 60


def test_estimates_at_every_moment_of_a_turn_fit_together(yahtzee_table):
    """The estimate before a throw is the mean of the estimates after it (both moments)."""
    adv = advisor("yahtzee")
    state = CardState.empty()
    after = [adv.after_roll(state, r, 2) for r in ROLLS]
    mean = sum(p * e.expected for p, e in zip(ROLL_PROBABILITY, after, strict=True))
    second = sum(p * (e.sd ** 2 + e.expected ** 2)
                 for p, e in zip(ROLL_PROBABILITY, after, strict=True))
    third = sum(p * (e.skew * e.sd ** 3 + 3 * e.expected * e.sd ** 2 + e.expected ** 3)
                for p, e in zip(ROLL_PROBABILITY, after, strict=True))
    start = adv.estimate(state)
    assert mean == pytest.approx(start.expected, abs=1e-9)
    assert math.sqrt(second - mean ** 2) == pytest.approx(start.sd, abs=1e-7)
    sd = start.sd
    assert (third - 3 * mean * second + 2 * mean ** 3) / sd ** 3 == pytest.approx(start.skew,
                                                                                 abs=1e-6)
    # After a roll with re-rolls left: the best hold's own estimate, as hold_choices reports.
    best = adv.hold_choices(state, (1, 3, 3, 5, 6), 2)[0]
    assert best.hold == (3, 3)
    assert adv.after_roll(state, (1, 3, 3, 5, 6), 2) == Estimate(best.expected, best.sd,
                                                                  best.skew)
    # After the last roll, the best box; a box's sd is the spread of the rest of the game.
    box = adv.box_choices(state, (6, 6, 6, 6, 6))[0]
    assert box.box == "yahtzee" and box.sd > 0
    assert adv.after_roll(state, (6, 6, 6, 6, 6), 0).sd == box.sd


def test_win_chances_by_formula():
    assert win_chances([250, 250], [60, 60]) == pytest.approx([0.5, 0.5])
    assert sum(win_chances([240, 255, 262], [50, 61, 40])) == pytest.approx(1.0)
    # Two players: P(X > Y) = Φ((μx − μy) / √(σx² + σy²)), ties (whole numbers) shared.
    z = (270 - 250) / math.hypot(40, 30)
    assert win_chances([270, 250], [40, 30])[0] == pytest.approx(
        0.5 * (1 + math.erf(z / math.sqrt(2))), abs=1e-4)
    assert win_chances([300, 250], [0, 0]) == [1.0, 0.0]
    assert win_chances([250, 250, 100], [0, 0, 0]) == [0.5, 0.5, 0.0]


def mid_game(players: int, seed: int, round_: int, player: int) -> list[CardState]:
    """Every player's scorecard in a seeded game of optimal bots when ``player`` is about to
    start turn ``round_``."""
    game = Game("yahtzee", [f"p{i}" for i in range(players)], rng=random.Random(seed))
    while not (game.round == round_ and game.current_player == player and game.dice is None):
        action = choose_action(game, "optimal")
        if isinstance(action, Roll):
            game.roll(action.hold)
        else:
            game.score(action.box, action.column)
    return [CardState.of(card) for card in game.scorecards]


def simulated_win_chances(states: list[CardState], games: int, seed: int) -> np.ndarray:
    adv = advisor("yahtzee")
    rng = np.random.default_rng(seed)
    finals = np.stack([play_out(adv, s, games, rng) for s in states])
    best = finals.max(axis=0)
    winners = finals == best
    return (winners / winners.sum(axis=0)).mean(axis=1)


#: (players, seed, round, player about to play): positions of real games, early to late; the
#: last ones have players within the exact turns.
POSITIONS = [(2, 11, 7, 0), (3, 5, 5, 1), (3, 9, 6, 0), (3, 13, 11, 1), (2, 4, 11, 1)]


@pytest.mark.parametrize(("players", "seed", "round_", "player"), POSITIONS)
def test_win_chances_agree_with_simulated_games(players, seed, round_, player, yahtzee_table):
    states = mid_game(players, seed, round_, player)
    adv = advisor("yahtzee")
    # The estimator without the score table, exact for the last three turns.
    chances = win_chances_of([estimated_distribution(adv, s, exact_turns=3) for s in states])
    simulated = simulated_win_chances(states, 8000, seed)
    assert np.abs(np.array(chances) - simulated).max() < 0.03, (chances, simulated)


def test_exact_distribution_has_the_tables_moments(yahtzee_table):
    adv = advisor("yahtzee")
    for state in mid_game(3, 13, 11, 1):
        lo, probs = final_distribution(adv, state)
        scores = lo + np.arange(len(probs))
        mean = float(scores @ probs)
        estimate = adv.estimate(state)
        assert probs.sum() == pytest.approx(1, abs=1e-12)
        assert mean == pytest.approx(estimate.expected, abs=1e-9)
        assert math.sqrt(float((scores - mean) ** 2 @ probs)) == pytest.approx(estimate.sd,
                                                                             abs=1e-8)
    # Mid-turn: after a roll, the distribution of the best choice.
    state = mid_game(2, 3, 12, 1)[1]
    lo, probs = final_distribution(adv, state, (6, 6, 6, 2, 1), 2)
    mean = float((lo + np.arange(len(probs))) @ probs)
    assert mean == pytest.approx(adv.after_roll(state, (6, 6, 6, 2, 1), 2).expected, abs=1e-9)


def test_end_game_distributions_are_shared_and_unchanged_by_sharing(yahtzee_table):
    """The points to come from a state depend on the state alone: a second game reaching it
    reads the advisor's copy, identical to a fresh computation, and nobody can alter it."""
    adv = advisor("yahtzee")
    states = mid_game(3, 13, 11, 1)
    adv.distributions.clear()
    fresh = [final_distribution(adv, s) for s in states]
    kept = dict(adv.distributions)
    assert kept, "the end-game states' distributions were kept"
    again = [final_distribution(adv, s) for s in states]
    assert adv.distributions.keys() == kept.keys()  # read back, nothing recomputed
    assert all(adv.distributions[key] is found for key, found in kept.items())
    for (lo, probs), (lo2, probs2) in zip(fresh, again, strict=True):
        assert lo == lo2 and np.array_equal(probs, probs2)
    adv.distributions.clear()
    for (lo, probs), state in zip(fresh, states, strict=True):
        lo2, probs2 = final_distribution(adv, state)
        assert lo == lo2 and np.array_equal(probs, probs2)
    shared = next(iter(adv.distributions.values()))[1]
    with pytest.raises(ValueError, match="read-only"):
        shared[0] = 1.0
