"""Bots of every level and ruleset: always a legal move, and as strong as they should be."""

from __future__ import annotations

import random
import statistics

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.ai import LEVELS, Roll, Score, choose_action
from game.rules import Game

RULES = ("yahtzee", "yatzy", "triple")


def assert_legal(game: Game, action: Roll | Score) -> None:
    if game.dice is None:
        assert action == Roll(())
    elif isinstance(action, Roll):
        assert game.rolls_left > 0
        assert len(set(action.hold)) == len(action.hold)
        assert all(isinstance(i, int) and 0 <= i < 5 for i in action.hold)
    else:
        assert isinstance(action, Score)
        assert (action.box, action.column) in {(s.box, s.column) for s in game.legal_slots()}


def apply(game: Game, action: Roll | Score) -> None:
    if isinstance(action, Roll):
        game.roll(action.hold)
    else:
        game.score(action.box, action.column)


def random_action(game: Game, rng: random.Random) -> Roll | Score:
    if game.dice is None:
        return Roll(())
    if game.rolls_left and rng.random() < 0.5:
        return Roll(tuple(i for i in range(5) if rng.random() < 0.5))
    slot = rng.choice(game.legal_slots())
    return Score(slot.box, slot.column)


@pytest.mark.parametrize("rules", RULES)
@pytest.mark.parametrize("level", LEVELS)
@settings(max_examples=6, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32 - 1), share=st.floats(0.2, 1.0))
def test_every_bot_move_is_legal_in_random_games(rules, level, seed, share, yahtzee_table,
                                                 yatzy_table):
    """Random play mixed with bot play reaches odd states (scratches, Jokers, last boxes)."""
    rng = random.Random(seed)
    game = Game(rules, ["a", "b"], rng=rng)
    while not game.is_over:
        if rng.random() < share:
            action = choose_action(game, level, rng)
            assert_legal(game, action)
        else:
            action = random_action(game, rng)
        apply(game, action)
    assert all(card.is_full for card in game.scorecards)


class Scripted:
    """Dice that come out in a given order (a RandomSource for Game)."""

    def __init__(self, values: list[int]) -> None:
        self.values = list(values)

    def randint(self, a: int, b: int) -> int:
        return self.values.pop(0)


@pytest.mark.parametrize("level", LEVELS)
def test_the_forced_joker_is_respected(level, yahtzee_table):
    # Turn 1: a Yahtzee of twos, scored 50. Turn 2: five fives: the Joker forces "fives".
    game = Game("yahtzee", ["bot"], rng=Scripted([2] * 5 + [5] * 5 + [1, 2, 3, 4, 6]))
    game.roll()
    game.score("yahtzee")
    game.roll()
    action = choose_action(game, level)
    if isinstance(action, Roll):  # keeping all five is the same as scoring now
        assert sorted(action.hold) == [0, 1, 2, 3, 4]
        game.roll(action.hold)
        action = choose_action(game, level) if game.rolls_left else action
    while isinstance(action, Roll):
        game.roll(action.hold)
        action = choose_action(game, level)
    assert action == Score("fives")


@pytest.mark.parametrize("level", LEVELS)
def test_no_dice_yet_means_roll_all(level, yahtzee_table):
    for rules in RULES:
        assert choose_action(Game(rules, ["a"], rng=random.Random(1)), level) == Roll(())


def test_unknown_level_is_refused():
    with pytest.raises(ValueError, match="Unknown bot level"):
        choose_action(Game("yahtzee", ["a"]), "grandmaster")


def solitaire_scores(rules: str, level: str, games: int, seed: int) -> list[int]:
    rng = random.Random(seed)
    scores = []
    for _ in range(games):
        game = Game(rules, ["bot"], rng=rng)
        while not game.is_over:
            apply(game, choose_action(game, level, rng))
        scores.append(game.scorecards[0].total)
    return scores


@pytest.mark.parametrize(("rules", "expected", "games"), [
    ("yahtzee", 254.5877, 400),
    ("yatzy", 248.44, 300),
])
def test_optimal_bot_scores_its_table_value(rules, expected, games, yahtzee_table, yatzy_table):
    scores = solitaire_scores(rules, "optimal", games, seed=2026)
    mean = statistics.fmean(scores)
    stderr = statistics.stdev(scores) / games ** 0.5
    # Four standard errors: a correct bot fails this about once in 16,000 seeds.
    assert abs(mean - expected) < 4 * stderr, (mean, stderr)


def test_levels_are_ordered_by_strength(yahtzee_table):
    # The three strengths (alone, the to-win bot plays as the optimal one: test_to_win).
    means = {level: statistics.fmean(solitaire_scores("yahtzee", level, 80, seed=7))
             for level in ("easy", "medium", "optimal")}
    assert means["easy"] < means["medium"] < means["optimal"], means
