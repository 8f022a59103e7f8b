"""The luck-adjusted rating: the comparison, anchors, several players, provisional ratings."""

from __future__ import annotations

import pytest

from game.ratings import (
    ANCHORS,
    PROVISIONAL_RD,
    Rating,
    Seat,
    adjusted_score,
    anchor,
    is_provisional,
    rate_game,
    update,
)


def test_a_player_whose_luck_was_zero_is_compared_on_their_final_score():
    me, them = Seat(final=250, luck=0.0), Seat(final=231, luck=0.0)
    assert me.adjusted == 250
    after = rate_game("yahtzee", [me, them])
    assert after[0] == update(Rating(), [(Rating(), adjusted_score(250, 231))])
    assert after[0].rating > 1500 > after[1].rating


def test_swapping_luck_between_two_players_can_flip_the_result():
    # The winner on the card was lucky and the loser unlucky: with the luck out, the loser
    # played better. Swap their luck and the winner is ahead again.
    winner, loser = Seat(final=250, luck=30.0), Seat(final=240, luck=-10.0)
    after = rate_game("yahtzee", [winner, loser])
    assert after[0].rating < 1500 < after[1].rating

    swapped = [Seat(final=250, luck=-10.0), Seat(final=240, luck=30.0)]
    after = rate_game("yahtzee", swapped)
    assert after[0].rating > 1500 > after[1].rating


def test_equal_play_scores_a_half_whatever_the_dice_did():
    lucky, unlucky = Seat(final=300, luck=50.0), Seat(final=200, luck=-50.0)
    assert lucky.adjusted == unlucky.adjusted
    after = rate_game("yatzy", [lucky, unlucky])
    assert after[0].rating == pytest.approx(1500)
    assert after[1].rating == pytest.approx(1500)
    assert after[0].rd < 350  # a game was still played: the rating is surer


def test_the_score_grows_with_the_adjusted_lead():
    scores = [adjusted_score(lead, 0) for lead in (-40, -5, 0, 5, 40)]
    assert scores == sorted(scores)
    assert scores[2] == 0.5
    assert adjusted_score(5, 0) + adjusted_score(0, 5) == pytest.approx(1)


@pytest.mark.parametrize("rules", ["yahtzee", "yatzy"])
def test_computer_players_keep_their_anchor_whatever_happens(rules):
    # The bot played far worse than a newcomer (and an anchor would fall if it were rated).
    person = Seat(final=280, luck=0.0, rating=Rating())
    bot = Seat(final=150, luck=20.0, bot="optimal")
    after = rate_game(rules, [person, bot])
    assert after[1] == anchor(rules, "optimal")
    assert after[1].rating == ANCHORS[rules]["optimal"]
    assert after[0].rating > 1500


def test_anchors_are_ordered_by_the_bots_strength():
    for levels in ANCHORS.values():
        assert levels["optimal"] > levels["medium"] > levels["easy"]


def test_a_game_of_several_players_rates_each_against_every_other():
    seats = [Seat(final=260, luck=5.0, rating=Rating(1600, 120)),
             Seat(final=240, luck=-5.0, rating=Rating(1500, 200)),
             Seat(final=230, luck=0.0, bot="medium")]
    after = rate_game("yahtzee", seats)
    opponents = [(Rating(1600, 120), adjusted_score(245, 255)),
                 (anchor("yahtzee", "medium"), adjusted_score(245, 230))]
    assert after[1] == update(Rating(1500, 200), opponents)
    assert after[2] == anchor("yahtzee", "medium")


def test_a_person_alone_keeps_their_rating():
    mine = Rating(1720, 90, 0.061)
    assert rate_game("yahtzee", [Seat(final=300, luck=40.0, rating=mine)]) == [mine]


def test_a_newcomer_is_provisional_until_enough_games_settle_the_rating():
    rating = Rating()
    assert is_provisional(rating)
    games = 0
    while is_provisional(rating):
        me = Seat(final=240, luck=0.0, rating=rating)
        rating = rate_game("yahtzee", [me, Seat(final=240, luck=0.0, bot="medium")])[0]
        games += 1
    assert 3 < games < 60
    assert rating.rd <= PROVISIONAL_RD
    assert not is_provisional(Rating(1500, PROVISIONAL_RD))
    assert is_provisional(Rating(1500, PROVISIONAL_RD + 0.1))


def test_triple_is_not_rated():
    with pytest.raises(ValueError, match="not rated"):
        rate_game("triple", [Seat(final=500, luck=0.0), Seat(final=400, luck=0.0)])


def test_an_unknown_bot_level_is_refused():
    with pytest.raises(ValueError, match="No anchor"):
        rate_game("yahtzee", [Seat(final=200, luck=0.0), Seat(final=100, luck=0.0, bot="god")])


def test_every_bot_level_has_an_anchor_in_every_rated_ruleset():
    from game.ai.actions import LEVELS
    from game.ratings import RATED_RULES

    for rules in RATED_RULES:
        assert set(ANCHORS[rules]) == set(LEVELS)


def test_two_ratings_of_one_person_combine_into_a_surer_one_between_them():
    from game.ratings import Rating, combine

    sure, unsure = Rating(1700.0, 60.0, 0.05), Rating(1500.0, 200.0, 0.07)
    both = combine(sure, unsure)
    assert 1500.0 < both.rating < 1700.0
    assert both.rating > 1680.0  # the surer one weighs more
    assert both.rd < 60.0
    assert both.volatility == 0.05
    # A newcomer's rating adds nothing: the prior is counted once.
    alone = combine(sure, Rating())
    assert alone.rating == pytest.approx(1700.0) and alone.rd == pytest.approx(60.0)
