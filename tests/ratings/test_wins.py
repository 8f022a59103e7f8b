"""The rating of winning: the luck-adjusted share, several players, farming, time, anchors."""

from __future__ import annotations

import functools
import math
from datetime import UTC, datetime, timedelta

import numpy as np
import pytest

from game.ratings import glicko2, wins
from game.ratings.glicko2 import Rating
from game.ratings.wins import (
    ANCHOR_MISFIT,
    ANCHOR_WIN_RATES,
    ANCHORS,
    LEADERBOARD_AWAY_PERIODS,
    PAIR_GAMES_PER_PERIOD,
    PROVISIONAL_RD,
    Seat,
    adjusted_share,
    anchor,
    farming_weight,
    game_results,
    on_leaderboard,
    pair_score,
    pair_weight,
    periods_between,
    rate_game,
    rating_gap,
    shown,
)

# --- the luck-adjusted share, on review numbers made by hand ---------------------------------
#
# A review's chance chain per player: outcome = start + luck − loss + others + drift.

def chain_outcome(start: float, luck: float, loss: float, others: float, drift: float) -> float:
    return start + luck - loss + others + drift


def test_a_lucky_winner_who_decided_worse_scores_below_a_half():
    # Ann won on the dice (+0.56) though her decisions cost her 0.08 and Bob's only 0.02.
    ann = chain_outcome(0.5, 0.56, 0.08, 0.02, 0.0)
    bob = chain_outcome(0.5, -0.56, 0.02, 0.08, 0.0)
    assert (ann, bob) == (pytest.approx(1.0), pytest.approx(0.0))
    assert adjusted_share(1.0, 0.56) == pytest.approx(0.44)
    assert adjusted_share(0.0, -0.56) == pytest.approx(0.56)
    after = rate_game("yahtzee", [Seat(share=1.0, luck=0.56), Seat(share=0.0, luck=-0.56)])
    assert after[0].rating < 1500 < after[1].rating


def test_the_same_decisions_rate_the_same_whatever_the_dice_did():
    # Both games: Ann's decisions cost 0.03, Bob's 0.07, nothing drifted: Ann's adjusted share
    # is 0.5 − 0.03 + 0.07 = 0.54 whether she won (luck +0.46) or lost (luck −0.54).
    won = [Seat(1.0, chain_outcome(0, 0.46, 0, 0, 0)), Seat(0.0, -0.46)]
    lost = [Seat(0.0, -0.54), Seat(1.0, 0.54)]
    assert won[0].adjusted == pytest.approx(0.54) == lost[0].adjusted
    assert [x for r in rate_game("yatzy", won) for x in (r.rating, r.rd)] == pytest.approx(
        [x for r in rate_game("yatzy", lost) for x in (r.rating, r.rd)])
    # Two newcomers heads-up: one result, counted by its precision weight.
    w = wins.precision_weight(wins.NEWCOMER_LOSS, wins.NEWCOMER_LOSS)
    plain = glicko2.update(Rating(), [(Rating(), 0.54)], weights=[w])
    assert rate_game("yatzy", won)[0].rating == pytest.approx(plain.rating)


def test_an_adjusted_share_stays_within_zero_and_one():
    assert adjusted_share(1.0, -0.3) == 1.0
    assert adjusted_share(0.0, 0.2) == 0.0
    assert adjusted_share(0.5, 0.1) == pytest.approx(0.4)


def test_heads_up_the_pair_score_is_the_share_itself():
    assert pair_score(0.54, 0.46) == pytest.approx(0.54)
    assert pair_score(0.3, 0.7) + pair_score(0.7, 0.3) == pytest.approx(1)


def test_with_several_players_a_pair_scores_its_shares_ratio():
    # Luce: the chance that i beats j given that one of them wins.
    assert pair_score(0.5, 0.25) == pytest.approx(2 / 3)
    assert pair_score(0.0, 0.0) == pytest.approx(0.5)  # the floor: no 0 / 0
    assert pair_score(0.0, 0.4) < 0.01


# --- the points control ---------------------------------------------------------------------
#
# Seats with their luck-adjusted points (final − points luck) and their usual ones (the mean of
# their earlier rated games).

def test_a_lead_short_of_the_usual_one_moves_share_back_to_the_player_who_fell_short():
    # Ann's decisions lost her 10 points more than usual, Bob's as usual: her share was low in
    # part because of this game's spread, and 10 × POINTS_CONTROL of it goes back to her from
    # Bob; the two still add up to 1.
    ann = Seat(0.6, 0.1, points=240.0, usual=250.0)
    bob = Seat(0.4, -0.1, points=235.0, usual=235.0)
    assert (ann.surprise, bob.surprise) == (-10.0, 0.0)
    mine, theirs = wins.rated_shares([ann, bob])
    assert mine == pytest.approx(0.5 + 10 * wins.POINTS_CONTROL)
    assert theirs == pytest.approx(0.5 - 10 * wins.POINTS_CONTROL)
    assert mine + theirs == pytest.approx(1)
    # The same game without the control is the plain luck-adjusted share.
    assert wins.rated_shares([ann, bob], control=0.0) == pytest.approx([0.5, 0.5])
    # Only the lead's surprise counts: both short of their usual alike changes nothing.
    alike = [Seat(0.6, 0.1, points=240.0, usual=250.0), Seat(0.4, -0.1, points=225.0,
                                                              usual=235.0)]
    assert wins.rated_shares(alike) == pytest.approx([0.5, 0.5])


def test_a_game_thrown_on_purpose_gives_back_no_more_than_the_limit():
    # 200 points short of the usual (scoring nothing): the control sees SURPRISE_LIMIT only.
    thrown = [Seat(0.0, -0.05, points=50.0, usual=250.0), Seat(1.0, 0.05, points=250.0,
                                                               usual=250.0)]
    mine, theirs = wins.rated_shares(thrown)
    assert mine == pytest.approx(0.05 + wins.SURPRISE_LIMIT * wins.POINTS_CONTROL)
    assert theirs == pytest.approx(0.95 - wins.SURPRISE_LIMIT * wins.POINTS_CONTROL)
    assert theirs > 0.7


def test_a_game_that_went_as_the_players_usually_play_keeps_its_share():
    # The control only takes out the part of a share the points say was this game's chance:
    # points as usual, a share as it came.
    seats = [Seat(1.0, 0.45, points=251.0, usual=251.0), Seat(0.0, -0.45, points=231.0,
                                                                  usual=231.0)]
    assert wins.rated_shares(seats) == pytest.approx([0.55, 0.45])


def test_no_control_without_usual_points_nor_for_computer_players():
    newcomer = Seat(0.7, 0.2, points=210.0)  # no earlier game: its surprise is not known
    bot = Seat(0.3, -0.2, bot="medium", points=250.0)
    assert newcomer.surprise == 0.0 and bot.surprise == 0.0
    assert wins.rated_shares([newcomer, bot]) == pytest.approx([0.5, 0.5])
    # Against a computer a person with earlier games still has theirs taken out.
    known = Seat(0.7, 0.2, points=210.0, usual=230.0)
    assert wins.rated_shares([known, bot])[0] == pytest.approx(0.5 + 20 * wins.POINTS_CONTROL)


def test_the_control_is_heads_up_only_and_never_touches_a_forfeit():
    three = [Seat(1.0, 0.5, points=200.0, usual=250.0), Seat(0.0, -0.35, points=260.0,
                                                              usual=250.0),
             Seat(0.0, -0.15, points=250.0, usual=250.0)]
    assert wins.rated_shares(three) == pytest.approx([s.adjusted for s in three])
    two = three[:2]
    assert wins.rated_shares(two, left=[False, True]) == pytest.approx([0.5, 0.35])
    assert wins.game_results(two, left=[False, True])[0][0][1] == 1.0


def test_the_control_narrows_the_spread_of_two_games_and_keeps_their_mean():
    """The control's point: the same two players, two games. In one Ann lost 8 points more
    than usual and with them some of her chance (share 0.42), in the other 8 fewer (0.58):
    with the control the two shares sit closer together, their mean unchanged."""
    worse = [Seat(0.0, -0.42, points=242.0, usual=250.0), Seat(1.0, 0.42, points=240.0,
                                                               usual=240.0)]
    better = [Seat(1.0, 0.42, points=258.0, usual=250.0), Seat(0.0, -0.42, points=240.0,
                                                               usual=240.0)]
    plain = [g[0].adjusted for g in (worse, better)]
    rated = [wins.rated_shares(g)[0] for g in (worse, better)]
    assert plain == pytest.approx([0.42, 0.58])
    assert rated[1] - rated[0] == pytest.approx(0.16 - 16 * wins.POINTS_CONTROL)
    assert 0 < rated[1] - rated[0] < plain[1] - plain[0]
    assert sum(rated) == pytest.approx(sum(plain))
    # Rated on the share (no lean on the points), the rating moves less on the worse game than
    # without the control.
    assert (rate_game("yahtzee", worse, lean=False)[0].rating
            > rate_game("yahtzee", worse, control=0.0, lean=False)[0].rating)


# --- the precision weight --------------------------------------------------------------------

def test_a_result_between_precise_players_counts_more_than_one_between_poor_ones():
    precise = wins.precision_weight(0.0, 5.0)  # the optimal bot against a near-optimal player
    poor = wins.precision_weight(50.0, 100.0)
    assert precise == wins.MAX_PRECISION_WEIGHT  # (0.15 / 0.040)² = 14, capped
    assert poor == pytest.approx((0.15 / (0.034 + 0.00124 * 150)) ** 2)
    assert poor < 1 < wins.precision_weight(wins.NEWCOMER_LOSS, wins.NEWCOMER_LOSS) < precise
    weights = [wins.precision_weight(loss, loss) for loss in (0, 10, 20, 40, 80)]
    assert weights == sorted(weights, reverse=True)
    assert wins.precision_weight(-3.0, 0.0) == wins.precision_weight(0.0, 0.0)


def test_the_usual_loss_of_a_seat_is_its_own_a_levels_or_a_newcomers():
    assert wins.usual_loss("yahtzee", Seat(0.5, 0.0, usual_loss=12.5)) == 12.5
    assert wins.usual_loss("yahtzee", Seat(0.5, 0.0)) == wins.NEWCOMER_LOSS
    for rules in ("yahtzee", "yatzy"):
        levels = wins.BOT_LOSS[rules]
        assert [wins.usual_loss(rules, Seat(0.5, 0.0, bot=b)) for b in levels] == list(
            levels.values())
        assert levels["optimal"] == 0 < levels["to_win"] < levels["medium"] < levels["easy"]


def test_the_same_share_moves_a_rating_further_between_precise_players():
    def after(loss: float) -> Rating:
        return rate_game("yahtzee", [Seat(0.56, 0.0, rating=Rating(1500, 200), usual_loss=loss),
                                     Seat(0.44, 0.0, rating=Rating(1500, 200),
                                          usual_loss=loss)])[0]
    precise, poor = after(2.0), after(60.0)
    assert precise.rating > poor.rating > 1500
    assert precise.rd < poor.rd
    plain = rate_game("yahtzee", [Seat(0.56, 0.0, rating=Rating(1500, 200), usual_loss=2.0),
                                  Seat(0.44, 0.0, rating=Rating(1500, 200))],
                      precision=False)[0]
    assert plain.rating < precise.rating
    # Against a computer level its own usual loss counts: the easy bot's games are less sure.
    vs = [rate_game("yahtzee", [Seat(0.56, 0.0, usual_loss=2.0), Seat(0.44, 0.0, bot=b)])[0]
          for b in ("optimal", "easy")]
    assert vs[0].rd < vs[1].rd


def test_games_of_several_and_forfeits_count_without_the_precision_weight():
    three = [Seat(0.5, 0.0, usual_loss=0.0)] * 2 + [Seat(0.0, 0.0, usual_loss=0.0)]
    assert [w for r in game_results(three) for _, _, w in r] == pytest.approx([0.5] * 6)
    two = [Seat(1.0, 0.0, usual_loss=0.0), Seat(0.0, 0.0, usual_loss=0.0)]
    assert [w for r in game_results(two, left=[True, False]) for _, _, w in r] == [1.0, 1.0]
    assert [w for r in game_results(two) for _, _, w in r] == [wins.MAX_PRECISION_WEIGHT] * 2


# --- the lean on the points while a rating is uncertain ---------------------------------------

@pytest.mark.parametrize("rules", ["yahtzee", "yatzy"])
def test_the_points_scale_of_winning_stands_on_the_levels_measured_win_rates(rules):
    logit = wins.points_logit(rules)
    loss = wins.BOT_LOSS[rules]
    # The points apart of the levels that play for their own score tell their win rates to a
    # few hundredths (the logistic's misfit, as the anchors').
    for (strong, weak), (p, *_) in wins.ANCHOR_WIN_RATES[rules].items():
        if "to_win" in (strong, weak):
            continue
        assert wins.points_chance(rules, loss[weak] - loss[strong]) == pytest.approx(p, abs=0.03)
    assert wins.points_chance(rules, 0.0) == 0.5
    assert wins.points_chance(rules, 10.0) + wins.points_chance(rules, -10.0) == pytest.approx(1)
    assert 1 / (1 + math.exp(-logit * 10)) == wins.points_chance(rules, 10.0)
    # What the points cannot see: the to-win bot gives up points and wins more often. Why the
    # lean fades.
    to_win = wins.ANCHOR_WIN_RATES[rules]["to_win", "optimal"][0]
    assert wins.points_chance(rules, loss["optimal"] - loss["to_win"]) < 0.5 < to_win


def test_the_lean_is_whole_for_a_newcomer_and_small_once_the_rating_settles():
    assert wins.points_lean(Rating().rd) == 1.0
    assert wins.points_lean(175.0) == pytest.approx(0.5)
    assert wins.points_lean(50.0) == pytest.approx(1 / 7)
    assert wins.points_lean(400.0) == 1.0  # never more than all of it
    assert wins.points_lean(175.0, "yahtzee") == wins.points_lean(175.0)


def test_in_yatzy_the_lean_is_whole_while_provisional_and_a_fifth_once_settled():
    lean = functools.partial(wins.points_lean, rules="yatzy")
    assert lean(Rating().rd) == lean(wins.PROVISIONAL_RD) == 1.0
    assert lean(80.0) == pytest.approx(0.2 + 0.8 * 30 / 60)  # a straight line from 110 to 50
    assert lean(50.0) == lean(30.0) == pytest.approx(0.2)  # never below its floor
    assert lean(wins.PROVISIONAL_RD + 1) == 1.0 > lean(wins.PROVISIONAL_RD - 1)


@pytest.mark.parametrize("rules", ["yahtzee", "yatzy"])
def test_a_settled_lean_keeps_the_to_win_bot_above_the_optimal_one(rules):
    # Settled (a deviation of 60 or less), it cannot lean the to-win bot's heads-up result
    # against the optimal bot below ½: the share's edge outweighs the points' shortfall.
    edge = wins.ANCHOR_WIN_RATES[rules]["to_win", "optimal"][0]
    short = wins.points_chance(rules, -wins.BOT_LOSS[rules]["to_win"])
    assert short < 0.5 < edge  # the points alone would put it below
    for rd in (30.0, 50.0, 60.0):
        part = wins.points_lean(rd, rules)
        assert part * short + (1 - part) * edge > 0.5
    # Where yatzy's ratings rest in the benchmark's populations (a deviation of 68-70) its lean
    # is about even on this pair: the margin the settling costs (docs/ai.md).
    part = wins.points_lean(70.0, rules)
    assert (part * short + (1 - part) * edge > 0.5) == (rules == "yahtzee")


def test_a_newcomers_result_is_the_points_leads_chance_and_a_settled_ones_the_share():
    # Ann's decisions kept 12 points more than Bob's, yet her luck-adjusted share is 0.45.
    def score(rd: float | None, **options) -> float:
        rating = None if rd is None else Rating(1500, rd)
        seats = [Seat(1.0, 0.55, rating=rating, points=250.0), Seat(0.0, -0.55, points=238.0)]
        return game_results(seats, rules="yatzy", precision=False, control=0.0,
                            **options)[0][0][1]
    chance = wins.points_chance("yatzy", 12.0)
    assert chance > 0.5
    assert score(None) == pytest.approx(chance)
    assert score(wins.PROVISIONAL_RD) == pytest.approx(chance)  # yatzy: whole while provisional
    assert score(80.0) == pytest.approx(0.6 * chance + 0.4 * 0.45)
    assert score(50.0) == pytest.approx(0.2 * chance + 0.8 * 0.45)
    assert score(None, lean=False) == pytest.approx(0.45)
    # Each player leans by their own deviation: Bob, settled, mostly keeps his share.
    seats = [Seat(1.0, 0.55, points=250.0), Seat(0.0, -0.55, rating=Rating(1500, 50),
                                                 points=238.0)]
    bob = 0.2 * (1 - chance) + 0.8 * 0.55
    assert game_results(seats, rules="yatzy", precision=False)[1][0][1] == pytest.approx(bob)
    # In yahtzee the lean is the deviation's part of an unrated player's.
    seats[1] = Seat(0.0, -0.55, rating=Rating(1500, 70), points=238.0)
    ahead = wins.points_chance("yahtzee", -12.0)
    assert game_results(seats, rules="yahtzee", precision=False, control=0.0)[1][0][1] == (
        pytest.approx(0.2 * ahead + 0.8 * 0.55))


def test_nothing_leans_without_both_points_nor_for_a_forfeit():
    alone = [Seat(1.0, 0.55, points=250.0), Seat(0.0, -0.55)]  # an older result: no points
    assert game_results(alone, precision=False)[0][0][1] == pytest.approx(0.45)
    seats = [Seat(1.0, 0.55, points=250.0), Seat(0.0, -0.55, points=100.0)]
    assert game_results(seats, left=[True, False])[0][0][1] == 0.0


def test_in_a_game_of_three_each_pair_leans_on_its_own_lead():
    seats = [Seat(1.0, 0.5, points=260.0), Seat(0.0, -0.35, points=240.0),
             Seat(0.0, -0.15, points=250.0)]
    results = game_results(seats, rules="yahtzee")
    assert [s for _, s, _ in results[0]] == pytest.approx(
        [wins.points_chance("yahtzee", 20.0), wins.points_chance("yahtzee", 10.0)])
    assert sum(w for _, _, w in results[0]) == pytest.approx(1)


# --- several players ---------------------------------------------------------------------------

@pytest.mark.parametrize("n", [2, 3, 6])
def test_each_pair_counts_one_over_n_minus_one(n):
    assert pair_weight(n) == pytest.approx(1 / (n - 1))
    results = game_results([Seat(1 / n, 0.0)] * n, precision=False)
    assert all(len(r) == n - 1 for r in results)
    assert all(sum(w for _, _, w in r) == pytest.approx(1) for r in results)
    with pytest.raises(ValueError):
        pair_weight(1)


def test_a_game_of_six_tells_as_much_as_one_heads_up_game():
    # Six newcomers whose decisions were equal: every pair scores ½. Weighted pairs add up to
    # one result, so the deviation shrinks as after one heads-up game, not five.
    six = rate_game("yahtzee", [Seat(1 / 6, 0.0)] * 6)
    two = rate_game("yahtzee", [Seat(0.5, 0.0)] * 2, precision=False)
    assert six[0].rd == pytest.approx(two[0].rd)
    five_whole = glicko2.update(Rating(), [(Rating(), 0.5)] * 5)
    assert six[0].rd > five_whole.rd + 20


def test_a_game_of_three_ranks_the_players_by_their_adjusted_shares():
    seats = [Seat(1.0, 0.5), Seat(0.0, -0.35), Seat(0.0, -0.15)]  # adjusted .5, .35, .15
    after = rate_game("yatzy", seats)
    assert after[0].rating > after[1].rating > 1500 > after[2].rating
    expected = glicko2.update(Rating(), [(Rating(), 0.5 / 0.85), (Rating(), 0.5 / 0.65)],
                              weights=[0.5, 0.5])
    assert after[0] == expected


# --- farming ---------------------------------------------------------------------------------

def test_a_settled_opponent_counts_fully_until_the_pairs_cap():
    settled = Rating(1600, 60)
    assert farming_weight(settled, 0) == 1.0
    assert farming_weight(settled, PAIR_GAMES_PER_PERIOD - 1) == 1.0
    assert farming_weight(settled, PAIR_GAMES_PER_PERIOD) == 0.0
    with pytest.raises(ValueError):
        farming_weight(settled, -1)


def test_an_uncertain_opponent_proves_less():
    newcomer = Rating()  # 1500 ± 350
    assert farming_weight(newcomer, 0) == pytest.approx((PROVISIONAL_RD / 350) ** 2)
    weights = [farming_weight(Rating(1500, rd), 0) for rd in (350, 250, 150, PROVISIONAL_RD)]
    assert weights == sorted(weights)
    assert weights[-1] == 1.0


def test_farming_weights_move_the_rating_less_and_zero_keeps_it():
    me, puppet = Rating(1600, 80), Rating()  # a fresh account throws the game
    seats = [Seat(0.95, 0.0, rating=me), Seat(0.05, 0.0, rating=puppet)]
    full = rate_game("yahtzee", seats)[0]
    w = farming_weight(puppet, 0)
    weighted = rate_game("yahtzee", seats, weights=[[1.0, w], [1.0, 1.0]])[0]
    assert me.rating < weighted.rating < full.rating
    capped = rate_game("yahtzee", seats, weights=[[1.0, 0.0], [1.0, 1.0]])
    assert capped[0] == me
    assert capped[1] != puppet  # the weight is per direction: the puppet's result still counts


def test_the_precision_weight_counts_as_far_as_the_opponents_result_is_proven():
    """Its part above 1 scales with the farming weight: in full against a settled rating,
    barely against a fresh account, so fresh accounts thrown games stay a tenth of a result."""
    me = Seat(0.95, 0.0, rating=Rating(1600, 80), usual_loss=0.0)
    puppet = Seat(0.05, 0.0, rating=Rating(), usual_loss=0.0)  # the most precise pair there is
    p = wins.precision_weight(0.0, 0.0)
    assert p == wins.MAX_PRECISION_WEIGHT
    f = farming_weight(Rating(), 0)
    mine = game_results([me, puppet], weights=[[1.0, f], [1.0, 1.0]])
    assert mine[0][0][2] == pytest.approx(f * (1 + (p - 1) * f))
    assert mine[0][0][2] < 2 * f  # at most twice the plain tenth, never ten times it
    assert mine[1][0][2] == pytest.approx(p)  # the puppet's own result: a settled opponent
    unproven = game_results([me, puppet], weights=[[1.0, 0.0], [1.0, 1.0]])
    assert unproven[0][0][2] == 0.0


def test_the_site_rates_yahtzee_with_the_control_and_the_weight_and_yatzy_with_neither():
    assert wins.site_options("yahtzee") == {"control": wins.POINTS_CONTROL, "precision": True}
    assert wins.site_options("yatzy") == {"control": 0.0, "precision": False}
    with pytest.raises(ValueError, match="not rated"):
        wins.site_options("triple")


def test_a_settled_puppet_throwing_its_games_for_weeks_lifts_no_further_with_the_weight():
    """Two settled accounts of one person, the puppet scoring 0 in the five games a week that
    count: the precision weight moves the first week further, but the puppet's usual loss
    grows with every thrown game and the control keeps back what its points say, so after
    eight weeks the attacker stands lower than with the plain result."""
    def attack(options: wins.Options) -> list[float]:
        me, puppet = Rating(1600, 60, 0.06), Rating(1600, 60, 0.06)
        history = [(245.0, 5.0)] * 20  # the puppet's honest games: (points, loss)
        ratings = []
        for _week in range(8):
            for _game in range(wins.PAIR_GAMES_PER_PERIOD):
                usual = (sum(p for p, _ in history) / len(history),
                         sum(loss for _, loss in history) / len(history))
                me, puppet = rate_game("yahtzee", [
                    Seat(1.0, 0.0, rating=me, points=250.0, usual=245.0, usual_loss=5.0),
                    Seat(0.0, 0.0, rating=puppet, points=0.0, usual=usual[0],
                         usual_loss=usual[1])], **options)
                history.append((0.0, 250.0))
            ratings.append(me.rating)
        return ratings

    plain = attack({"control": 0.0, "precision": False})
    site = attack(wins.site_options("yahtzee"))
    assert site[0] > plain[0]
    assert site[-1] < plain[-1]


# --- time ------------------------------------------------------------------------------------

NOW = datetime(2026, 11, 28, 12, 0, tzinfo=UTC)


def test_periods_are_weeks_and_never_negative():
    assert periods_between(NOW - timedelta(days=21), NOW) == pytest.approx(3)
    assert periods_between(NOW - timedelta(days=3, hours=12), NOW) == pytest.approx(0.5)
    assert periods_between(NOW + timedelta(days=1), NOW) == 0


def test_the_shown_rating_widens_with_time_away():
    r = Rating(1620, 70, 0.06)
    assert shown(r, None, NOW) == r
    away = shown(r, NOW - timedelta(days=70), NOW)
    assert away.rd == pytest.approx(glicko2.idle(r, 10).rd)
    assert away.rd > r.rd and away.rating == r.rating


def test_the_leaderboard_leaves_out_the_long_away_and_the_provisional():
    r = Rating(1620, 70, 0.06)
    weeks = LEADERBOARD_AWAY_PERIODS
    assert on_leaderboard(r, NOW - timedelta(weeks=weeks - 1), NOW)
    assert not on_leaderboard(r, NOW - timedelta(weeks=weeks), NOW)
    assert not on_leaderboard(r, None, NOW)
    assert not on_leaderboard(Rating(1620, PROVISIONAL_RD + 1), NOW, NOW)
    # Settled just under the line: time away alone makes it provisional.
    edge = Rating(1620, PROVISIONAL_RD - 0.5, 0.06)
    assert on_leaderboard(edge, NOW, NOW)
    assert not on_leaderboard(edge, NOW - timedelta(weeks=2), NOW)


# --- anchors -------------------------------------------------------------------------------------

@pytest.mark.parametrize("rules", ["yahtzee", "yatzy"])
def test_anchors_are_ordered_by_winning_with_to_win_above_optimal(rules):
    a = ANCHORS[rules]
    assert a["to_win"] > a["optimal"] > a["medium"] > a["easy"]
    assert a["medium"] == 1500


@pytest.mark.parametrize("rules", ["yahtzee", "yatzy"])
def test_each_anchor_gap_stands_on_its_measured_win_rate(rules):
    rates = ANCHOR_WIN_RATES[rules]
    a = ANCHORS[rules]
    for (strong, weak), (p, low, high, games) in rates.items():
        assert low < p < high and games > 0
        gap = a[strong] - a[weak]
        # The anchors are fitted over every measured pair: each gap within the logistic
        # model's misfit of its measured rate's interval.
        assert rating_gap(low) - ANCHOR_MISFIT <= gap <= rating_gap(high) + ANCHOR_MISFIT, (
            strong, weak)
    # The to-win bot's gap stands on one measurement alone: within its interval, rounded.
    p, low, high, _ = rates["to_win", "optimal"]
    assert rating_gap(low) - 0.5 <= a["to_win"] - a["optimal"] <= rating_gap(high) + 0.5
    assert ("optimal", "medium") in rates and ("medium", "easy") in rates


def test_the_rating_gap_is_glickos_odds():
    assert rating_gap(0.5) == 0
    assert rating_gap(10 / 11) == pytest.approx(400)
    assert rating_gap(0.4) == pytest.approx(-rating_gap(0.6))
    with pytest.raises(ValueError):
        rating_gap(1.0)


def test_computer_players_keep_their_anchor_and_triple_is_not_rated():
    after = rate_game("yahtzee", [Seat(1.0, 0.2, rating=Rating()), Seat(0.0, -0.2, bot="easy")])
    assert after[1] == anchor("yahtzee", "easy")
    assert after[1].rd == pytest.approx(30)
    assert after[0].rating > 1500
    with pytest.raises(ValueError, match="not rated"):
        rate_game("triple", [Seat(1.0, 0.0), Seat(0.0, 0.0)])
    with pytest.raises(ValueError):
        anchor("yahtzee", "grandmaster")
    assert math.isfinite(after[0].volatility)


def test_a_seat_that_left_forfeits_to_those_who_stayed_whatever_the_board_said():
    """Seat 0 left (the computer played it) and won on the board; seats 1 and 2 stayed and
    lost: each wins its pair with the one who left, their own pair keeps its score."""
    seats = [wins.Seat(1.0, 0.0), wins.Seat(0.0, -0.2), wins.Seat(0.0, 0.1)]
    results = wins.game_results(seats, left=[True, False, False])
    assert [(j, s) for j, s, _ in results[0]] == [(1, 0.0), (2, 0.0)]  # the leaver loses
    assert [(j, s) for j, s, _ in results[1]][0] == (0, 1.0)  # the stayers win the forfeit
    assert results[1][1][1] == pytest.approx(wins.pair_score(0.2, 0.0))
    both = wins.game_results(seats[:2], left=[True, True])
    assert [w for mine in both for _, _, w in mine] == [0.0, 0.0]  # nobody's result
    after = wins.rate_game("yahtzee", seats[:2], left=[True, False])
    assert after[1].rating > 1500 > after[0].rating
    assert wins.rate_game("yahtzee", seats[:2], left=[True, True]) == [Rating(), Rating()]
    with pytest.raises(ValueError):
        wins.game_results(seats, left=[True])


# --- the benchmark measures what the site rates with ------------------------------------------

def test_the_prediction_tests_vectorised_shares_and_weights_are_the_modules():
    from benchmarks.rating import (
        DUEL_FIELDS,
        F,
        check_share_rules,
        controlled_shares,
        leaned_scores,
        precision_weights,
    )

    assert check_share_rules() < 1e-12
    # And they do something: a surprise moves the share, a poor pair weighs less.
    row = np.zeros(len(DUEL_FIELDS))
    row[F["share"]], row[F["c_luck"]] = 1.0, 0.4
    assert float(controlled_shares(row, np.array(-10.0), wins.POINTS_CONTROL)) == (
        pytest.approx(0.6 + 10 * wins.POINTS_CONTROL))
    weights = precision_weights(np.array([0.0, 60.0]), np.array([5.0, 90.0]))
    assert weights[0] == wins.MAX_PRECISION_WEIGHT > 1 > weights[1]
    # A newcomer's score is the points lead's chance, a settled player's the share.
    leaned = leaned_scores(np.array([0.45, 0.45]), np.array([12.0, 12.0]),
                           np.array([Rating().rd, 0.0]), wins.points_logit("yatzy"))
    assert leaned == pytest.approx([wins.points_chance("yatzy", 12.0), 0.45])


def test_the_prediction_tests_lean_shapes_are_the_modules_and_its_variants_parse():
    from benchmarks.rating import lean_parts, site_method, variant_method

    rds = np.array([350.0, 200.0, 110.0, 80.0, 50.0, 20.0])
    for rules in wins.RATED_RULES:
        assert lean_parts(rds, *wins.lean_shape(rules)) == pytest.approx(
            [wins.points_lean(float(rd), rules) for rd in rds])
        method = site_method(rules, 0.06)
        assert (method.lean_rd, method.lean_full, method.lean_floor) == wins.lean_shape(rules)
        options = wins.site_options(rules)
        assert method.control == options["control"]
        assert (method.reference is not None) == options["precision"]
    # Yahtzee's site rating is the variant the benchmark measured settling as fast as the
    # points (docs/benchmarks.md): the same method, field for field.
    measured = variant_method("lean=0,full=350,floor=0,control=0.0046,reference=0.15",
                              "yahtzee", 0.06)[1]
    assert site_method("yahtzee", 0.06) == measured
    name, method = variant_method("lean=50,full=110,floor=0.2,control=0.0046", "yatzy", 0.06)
    assert name == "winning, lean=50,full=110,floor=0.2,control=0.0046"
    assert (method.lean_rd, method.lean_full, method.lean_floor) == (50.0, 110.0, 0.2)
    assert method.logit == wins.points_logit("yatzy") and method.limit == wins.SURPRISE_LIMIT
    assert variant_method("mine:loss=40", "yahtzee", 0.06)[0] == "mine"
    for bad, says in (("lean=0,spread=3", "Unknown key 'spread'"),
                      ("lean=abc", "is not a number"), ("lean=120,full=110", "must be below")):
        with pytest.raises(SystemExit, match=says):
            variant_method(bad, "yahtzee", 0.06)
