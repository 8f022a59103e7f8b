"""Every scoring example of the rule texts the project started from (four katas and challenges),
one test case each, for the ruleset it belongs to.

Examples that docs/rules.md overrules are listed at the bottom with the ruling we follow instead.
"""

import pytest

from game.rules import YAHTZEE, YATZY, parse_dice


def score(ruleset, dice: str, box: str) -> int:
    return ruleset.box(box).score(parse_dice(dice))


# The Coding Dojo wiki's KataYahtzee and a Yatzy kata's README: the Scandinavian game.
YATZY_EXAMPLES = [
    # the Coding Dojo wiki's KataYahtzee
    ("1,1,2,4,4", "fours", 8),
    ("3,3,3,4,4", "one_pair", 8),
    ("1,1,2,3,3", "two_pairs", 8),
    ("3,3,3,4,5", "three_of_a_kind", 9),
    ("2,2,2,2,5", "four_of_a_kind", 8),
    ("1,2,3,4,5", "small_straight", 15),
    ("2,3,4,5,6", "large_straight", 20),
    ("1,1,2,2,2", "full_house", 8),
    ("4,4,4,4,4", "full_house", 0),
    ("6,6,6,6,6", "yatzy", 50),
    # the Yatzy kata's README
    ("1,1,3,3,6", "chance", 14),
    ("4,5,5,6,1", "chance", 21),
    ("1,1,1,1,1", "yatzy", 50),
    ("1,1,1,2,1", "yatzy", 0),
    ("1,1,2,4,4", "fours", 8),
    ("2,3,2,5,1", "twos", 4),
    ("3,3,3,4,5", "ones", 0),
    ("5,6,5,5,2", "fives", 15),
    ("3,3,3,4,4", "one_pair", 8),
    ("1,1,6,2,6", "one_pair", 12),
    ("1,1,2,3,3", "two_pairs", 8),
    ("1,1,2,3,4", "two_pairs", 0),
    ("3,3,3,4,5", "three_of_a_kind", 9),
    ("3,3,4,5,6", "three_of_a_kind", 0),
    ("2,2,2,2,5", "four_of_a_kind", 8),
    ("2,2,2,5,5", "four_of_a_kind", 0),
    ("1,2,3,4,5", "small_straight", 15),
    ("2,3,4,5,6", "large_straight", 20),
    ("1,1,2,2,2", "full_house", 8),
    ("2,2,3,3,4", "full_house", 0),
    ("4,4,4,4,4", "full_house", 0),
]

# A step-by-step Yahtzee kata (steps 1 and 3) and the Magic Night challenge: the standard game.
YAHTZEE_EXAMPLES = [
    ("1,1,3,5,6", "ones", 2),
    ("1,3,2,2,2", "twos", 6),
    ("5,3,3,3,1", "threes", 9),
    ("4,1,2,3,4", "fours", 8),
    ("5,5,5,5,5", "fives", 25),
    ("6,5,4,3,2", "sixes", 6),
    ("4,4,4,1,2", "three_of_a_kind", 15),
    ("3,3,1,3,3", "four_of_a_kind", 13),
    ("5,2,5,5,2", "full_house", 25),
    ("1,3,4,5,6", "small_straight", 30),
    ("1,2,3,4,5", "large_straight", 40),
    ("2,2,2,2,2", "yahtzee", 50),
    ("1,6,4,3,1", "chance", 15),
    # the Magic Night challenge: "2, 3, 4 and 5 can be a Small Straight";
    # "a run of at least four dice"
    ("2,3,4,5,5", "small_straight", 30),
    ("2,3,4,5,6", "small_straight", 30),
    ("2,3,4,5,1", "large_straight", 40),
]


@pytest.mark.parametrize(("dice", "box", "points"), YATZY_EXAMPLES)
def test_yatzy_seed_example(dice, box, points):
    assert score(YATZY, dice, box) == points


@pytest.mark.parametrize(("dice", "box", "points"), YAHTZEE_EXAMPLES)
def test_yahtzee_seed_example(dice, box, points):
    assert score(YAHTZEE, dice, box) == points


# The Yatzy kata's README reads some boxes as "exactly N"; docs/rules.md follows the standard
# reading: five of a kind counts as a pair, three and four of a kind, and a full four of a kind
# still holds a pair and three of a kind. (the kata says -> we score)
OVERRULED_YATZY = [
    ("3,3,3,4,1", "one_pair", 0, 6),
    ("3,3,3,3,1", "one_pair", 0, 6),
    ("1,1,2,2,2", "two_pairs", 0, 6),
    ("3,3,3,3,1", "three_of_a_kind", 0, 9),
    ("2,2,2,2,2", "four_of_a_kind", 0, 8),
]


@pytest.mark.parametrize(("dice", "box", "seed_says", "points"), OVERRULED_YATZY)
def test_the_yatzy_katas_exactly_n_examples_are_overruled(dice, box, seed_says, points):
    assert score(YATZY, dice, box) == points != seed_says
