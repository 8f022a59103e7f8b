"""Ruleset.to_dict: the one description of a ruleset that the pages' JavaScript reads."""

import json

import pytest

from game.rules import RULESETS, TRIPLE, YAHTZEE, YATZY


@pytest.mark.parametrize("ruleset", RULESETS.values(), ids=lambda r: r.name)
def test_the_data_is_json_and_lists_every_box_in_scorecard_order(ruleset):
    data = ruleset.to_dict()
    assert json.loads(json.dumps(data)) == data
    assert [b["name"] for b in data["boxes"]] == list(ruleset.box_names)
    assert [b["section"] for b in data["boxes"]][:6] == ["upper"] * 6
    assert {b["section"] for b in data["boxes"][6:]} == {"lower"}
    assert data["columns"] == len(data["multipliers"]) == ruleset.columns


def test_yahtzee_bonuses_and_joker():
    data = YAHTZEE.to_dict()
    assert data["name"] == "yahtzee" and data["title"] == "Yahtzee"
    assert (data["upper_bonus"], data["upper_bonus_threshold"]) == (35, 63)
    assert (data["yahtzee_box"], data["yahtzee_bonus"], data["joker"]) == ("yahtzee", 100,
                                                                            "forced")
    full_house = next(b for b in data["boxes"] if b["name"] == "full_house")
    assert full_house == {"name": "full_house", "label": "Full house", "section": "lower",
                          "max_points": 25, "joker_points": 25}


def test_yatzy_has_no_yahtzee_bonus_nor_joker():
    data = YATZY.to_dict()
    assert (data["upper_bonus"], data["upper_bonus_threshold"]) == (50, 63)
    assert (data["yahtzee_box"], data["yahtzee_bonus"], data["joker"]) == (None, 0, None)
    assert len(data["boxes"]) == 15 and data["multipliers"] == [1]


def test_triple_is_three_weighted_yahtzee_columns():
    data = TRIPLE.to_dict()
    assert (data["title"], data["columns"], data["multipliers"]) == ("Triple Yahtzee", 3,
                                                                     [1, 2, 3])
    assert data["boxes"] == YAHTZEE.to_dict()["boxes"]
