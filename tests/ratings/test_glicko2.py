"""Glicko-2 against the worked example of Glickman's paper, and its volatility step."""

from __future__ import annotations

import math

import pytest

from game.ratings.glicko2 import Rating, expected_score, idle, new_volatility, update

EXAMPLE_OPPONENTS = [(Rating(1400, 30), 1.0), (Rating(1550, 100), 0.0),
                     (Rating(1700, 300), 0.0)]


def test_glickmans_worked_example():
    after = update(Rating(1500, 200, 0.06), EXAMPLE_OPPONENTS)
    # The paper rounds every intermediate to four decimals: hence the tolerance on the rating.
    assert after.rating == pytest.approx(1464.06, abs=0.015)
    assert after.rd == pytest.approx(151.52, abs=0.005)
    assert after.volatility == pytest.approx(0.05999, abs=0.00001)


def test_the_new_volatility_is_the_root_of_the_papers_equation_away_from_1500():
    # The paper's f(x), written out here: a player far from μ = 0, surprised by the results.
    phi, sigma, tau = 0.5, 0.06, 0.5
    v, delta = 0.8, 2.5

    def f(x: float) -> float:
        ex = math.exp(x)
        return (ex * (delta ** 2 - phi ** 2 - v - ex) / (2 * (phi ** 2 + v + ex) ** 2)
                - (x - math.log(sigma ** 2)) / tau ** 2)

    found = new_volatility(phi, sigma, v, delta, tau)
    assert found > sigma
    assert f(math.log(found ** 2)) == pytest.approx(0, abs=1e-5)


def test_an_upset_against_a_far_weaker_player_raises_the_volatility():
    strong = Rating(1900, 60, 0.06)
    after = update(strong, [(Rating(1300, 60), 0.0)] * 10)
    assert after.volatility > strong.volatility
    assert after.rating < strong.rating


def test_a_period_without_games_only_widens_the_deviation():
    before = Rating(1620, 80, 0.06)
    after = update(before, [])
    assert after.rating == before.rating
    assert after.volatility == before.volatility
    assert after.rd == pytest.approx(math.hypot(80, 0.06 * 173.7178))


def test_expected_scores_of_two_players_with_equal_deviations_add_up_to_one():
    a, b = Rating(1700, 50), Rating(1500, 50)
    assert expected_score(a, b) + expected_score(b, a) == pytest.approx(1)
    assert expected_score(a, b) > 0.5


@pytest.mark.parametrize("score", [-0.1, 1.5, math.nan])
def test_a_score_outside_zero_to_one_is_refused(score):
    with pytest.raises(ValueError, match="between 0 and 1"):
        update(Rating(), [(Rating(), score)])


def test_shifting_every_rating_alike_shifts_the_result_and_nothing_else():
    # Only differences of ratings carry meaning: the volatility step must not see where on the
    # scale the player stands (a μ² in place of φ² would).
    shift = 700.0
    here = update(Rating(1500, 200, 0.06), EXAMPLE_OPPONENTS)
    moved = update(Rating(1500 + shift, 200, 0.06),
                   [(Rating(o.rating + shift, o.rd), s) for o, s in EXAMPLE_OPPONENTS])
    assert moved.rating == pytest.approx(here.rating + shift)
    assert moved.rd == pytest.approx(here.rd)
    assert moved.volatility == pytest.approx(here.volatility, rel=1e-9)


# --- time away, and weighted results ---------------------------------------------------------

def test_a_period_away_is_glickmans_step_for_a_player_who_did_not_compete():
    # Glickman, "Example of the Glicko-2 system", step 6 for an unrated period:
    # φ* = √(φ² + σ²) on the Glicko-2 scale (φ = RD / 173.7178).
    before = Rating(1620, 80, 0.09)
    phi, sigma = 80 / 173.7178, 0.09
    after = idle(before, 1)
    assert after.rd == pytest.approx(173.7178 * math.sqrt(phi ** 2 + sigma ** 2), rel=1e-12)
    assert after.rating == before.rating
    assert after.volatility == before.volatility
    assert update(before, []) == after


def test_several_periods_away_are_the_step_repeated():
    before = Rating(1480, 60, 0.07)
    stepped = before
    for _ in range(5):
        stepped = idle(stepped, 1)
    assert idle(before, 5).rd == pytest.approx(stepped.rd, rel=1e-12)
    assert idle(before, 0) == before
    assert before.rd < idle(before, 0.5).rd < idle(before, 1).rd


def test_time_away_never_makes_a_rating_less_sure_than_a_newcomers():
    assert idle(Rating(1700, 90, 0.06), 10_000).rd == pytest.approx(350)
    assert idle(Rating(1700, 90, 0.06), 3).rd < 350
    with pytest.raises(ValueError):
        idle(Rating(), -1)


def test_a_result_of_weight_two_counts_as_the_same_result_twice():
    player = Rating(1550, 120, 0.06)
    results = [(Rating(1400, 30), 0.7), (Rating(1650, 90), 0.4)]
    twice = update(player, [results[0], results[0], results[1]])
    weighted = update(player, results, weights=[2.0, 1.0])
    assert weighted.rating == pytest.approx(twice.rating, rel=1e-12)
    assert weighted.rd == pytest.approx(twice.rd, rel=1e-12)
    assert weighted.volatility == pytest.approx(twice.volatility, rel=1e-9)
    assert update(player, results, weights=[1.0, 1.0]) == update(player, results)


def test_a_result_of_weight_zero_is_left_out_and_half_weight_moves_less():
    player = Rating(1500, 200, 0.06)
    win = (Rating(1500, 50), 1.0)
    other = (Rating(1600, 60), 0.5)
    assert update(player, [win, other], weights=[0.0, 1.0]) == update(player, [other])
    assert update(player, [win], weights=[0.0]) == idle(player, 1)
    half, whole = update(player, [win], weights=[0.5]), update(player, [win])
    assert 1500 < half.rating < whole.rating
    assert half.rd > whole.rd
    with pytest.raises(ValueError):
        update(player, [win], weights=[1.0, 1.0])
    with pytest.raises(ValueError):
        update(player, [win], weights=[-1.0])
