"""``python -m game.rules``: score a roll, list the boxes, and refuse bad input clearly."""

import subprocess
import sys

import pytest

from game.rules import RULESETS


def cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "game.rules", *args],
                          capture_output=True, text=True, timeout=30)


def test_score_prints_the_points_and_nothing_else():
    result = cli("score", "--rules", "yatzy", "1,1,2,4,4", "fours")
    assert (result.returncode, result.stdout, result.stderr) == (0, "8\n", "")


def test_score_defaults_to_the_standard_game():
    assert cli("score", "5,2,5,5,2", "full_house").stdout == "25\n"


@pytest.mark.parametrize(("rules", "dice", "typed", "points"), [
    ("yahtzee", "2,2,5,5,5", "full house", "25"),
    ("yahtzee", "2,2,5,5,5", "FH", "25"),
    ("yahtzee", "2,2,5,5,5", "9", "25"),
    ("yahtzee", "2,3,4,5,1", "Sm. str.", "30"),
    ("yahtzee", "3,3,3,1,2", "3 of a kind", "12"),
    ("yahtzee", "6,6,1,2,3", "6s", "12"),
    ("yatzy", "1,1,2,2,3", "2p", "6"),
    ("yatzy", "4,4,4,4,4", "yahtzee", "50"),
    ("triple", "4,4,4,4,4", "Yahtzee", "50"),
])
def test_score_takes_boxes_as_people_type_them(rules, dice, typed, points):
    result = cli("score", "--rules", rules, dice, typed)
    assert (result.returncode, result.stdout) == (0, points + "\n"), result.stderr


@pytest.mark.parametrize("rules", sorted(RULESETS))
def test_categories_in_scorecard_order(rules):
    result = cli("categories", "--rules", rules)
    assert result.returncode == 0
    assert result.stdout.split() == list(RULESETS[rules].box_names)


@pytest.mark.parametrize(("args", "says"), [
    (("score", "1,2,3,4", "chance"), "five whole numbers"),
    (("score", "1,2,3,4,7", "chance"), "five whole numbers"),
    (("score", "1,2,x,4,5", "chance"), "five numbers"),
    (("score", "--rules", "poker", "1,2,3,4,5", "chance"), "Unknown ruleset"),
    (("score", "1,2,3,4,5", "pair"), "'pair' is neither a box nor a number from 1 to 13"),
    (("score", "1,2,3,4,5", "14"), "'14' is neither a box nor a number from 1 to 13"),
    (("categories", "--rules", ""), "Unknown ruleset"),
    (("roll",), "invalid choice"),
    ((), "required"),
])
def test_bad_input_exits_2_with_one_clear_line(args, says):
    result = cli(*args)
    assert result.returncode == 2
    assert result.stdout == ""
    assert says in result.stderr and result.stderr.count("\n") == 1
