"""The solver's values: the published optima, and small end games against brute force."""

from __future__ import annotations

import numpy as np
import pytest

from game.ai import CardState, advisor
from game.ai.multisets import ROLL_PROBABILITY, ROLLS

from .brute import expected_future, future_moments
from .positions import END_GAMES, YAHTZEE, card


def test_empty_yahtzee_card_under_the_forced_joker(yahtzee_table):
    assert yahtzee_table.value(0, 0, False) == pytest.approx(254.5877, abs=1e-4)


def test_empty_yahtzee_card_under_the_free_choice_joker(free_joker_table):
    assert free_joker_table.value(0, 0, False) == pytest.approx(254.5896, abs=1e-4)


def test_empty_yatzy_card(yatzy_table):
    assert yatzy_table.value(0, 0, False) == pytest.approx(248.44, abs=0.005)




@pytest.mark.parametrize(("rules", "filled"), END_GAMES)
def test_small_end_games_match_brute_force(rules, filled, yahtzee_table, yatzy_table):
    c = card(rules, filled)
    state = CardState.of(c)
    adv = advisor(rules)
    assert adv.future(state) == pytest.approx(expected_future(c), abs=1e-9)
    assert adv.expected_score(state) == pytest.approx(c.total + expected_future(c), abs=1e-9)


@pytest.mark.parametrize(("rules", "filled"), END_GAMES)
def test_small_end_games_spread_matches_brute_force(rules, filled, yahtzee_table, yatzy_table):
    c = card(rules, filled)
    mean, second, third = future_moments(c)
    assert mean == pytest.approx(expected_future(c), abs=1e-9)
    estimate = advisor(rules).estimate(CardState.of(c))
    assert estimate.expected == pytest.approx(c.total + mean, abs=1e-9)
    sd = (second - mean * mean) ** 0.5
    assert estimate.sd == pytest.approx(sd, abs=1e-7)
    assert estimate.sd > 1
    assert estimate.skew == pytest.approx((third - 3 * mean * second + 2 * mean ** 3) / sd ** 3,
                                          abs=1e-6)


def test_turn_values_are_consistent_with_the_table(yahtzee_table):
    """Averaging the best first-roll choice over all rolls gives back the state's value."""
    adv = advisor("yahtzee")
    rng = np.random.default_rng(3)
    for _ in range(5):
        mask = int(rng.integers(0, (1 << 13) - 1))
        # the smallest subtotal every filled upper box allows: 0
        state = CardState(mask, 0, False, 0)
        avg = sum(p * adv.hold_choices(state, r, 2)[0].expected
                  for p, r in zip(ROLL_PROBABILITY, ROLLS, strict=True))
        assert avg == pytest.approx(adv.future(state), abs=1e-9)
        # With one roll left, keeping all five dice is worth the best box for them.
        dice = ROLLS[int(rng.integers(0, 252))]
        keep_all = next(h for h in adv.hold_choices(state, dice, 1) if len(h.hold) == 5)
        assert keep_all.expected == pytest.approx(adv.box_choices(state, dice)[0].expected)


def test_advice_for_an_opening_roll(yahtzee_table):
    adv = advisor("yahtzee")
    holds = adv.hold_choices(CardState.empty(), (1, 3, 3, 5, 6), 2)
    assert holds[0].hold == (3, 3)
    assert holds[0].expected == pytest.approx(251.4054, abs=1e-4)
    assert len(holds) == len({h.hold for h in holds}) == 24
    assert [h.expected for h in holds] == sorted((h.expected for h in holds), reverse=True)
    boxes = adv.box_choices(CardState.empty(), (1, 2, 3, 4, 5))
    assert boxes[0].box == "large_straight"
    assert {b.box for b in boxes} == set(YAHTZEE)


def test_forced_joker_limits_the_boxes(yahtzee_table):
    c = card("yahtzee", {"yahtzee": 50, "chance": 20})
    choices = advisor("yahtzee").box_choices(CardState.of(c), (4, 4, 4, 4, 4))
    assert [ch.box for ch in choices] == ["fours"]
    legal = [s.box for s in c.legal_slots((4, 4, 4, 4, 4))]
    assert legal == ["fours"]


def test_unreachable_states_are_refused(yahtzee_table):
    adv = advisor("yahtzee")
    only_sixes = 1 << YAHTZEE.index("sixes")
    with pytest.raises(ValueError, match="cannot be made"):
        adv.future(CardState(only_sixes, 1))
    with pytest.raises(ValueError, match="full"):
        adv.future(CardState((1 << 13) - 1, 0))
