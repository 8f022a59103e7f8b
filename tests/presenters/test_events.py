"""The admin's event log lines: whole sentences, boxes and rulesets by their labels."""

from game.presenters import describe

PLAYERS = ["Ann", "Bo"]


def test_a_box_is_named_by_its_label_with_its_column_and_joker():
    assert describe("scored", {"player": 1, "box": "full_house", "points": 25},
                    PLAYERS) == "Bo scored 25 in Full house"
    assert describe("scored", {"player": 0, "box": "full_house", "points": 25, "column": 2,
                               "joker": True}, PLAYERS) == \
        "Ann scored 25 in Full house (column 3, Joker)"
    assert describe("scored", {"player": 0, "box": "new_box", "points": 1}, PLAYERS) == \
        "Ann scored 1 in new_box"


def test_bonuses_rulesets_and_totals_read_as_sentences():
    assert describe("bonus", {"player": 0, "bonus": "upper", "points": 35}, PLAYERS) == \
        "Ann earned the upper bonus: 35"
    assert describe("bonus", {"player": 0, "bonus": "yahtzee", "points": 100, "column": 1},
                    PLAYERS) == "Ann earned the Yahtzee bonus: 100 (column 2)"
    assert describe("game_started", {"rules": "triple", "players": PLAYERS}, PLAYERS) == \
        "Game of Triple Yahtzee started: Ann, Bo"
    assert describe("game_finished", {"winners": [1], "totals": [180, 250]}, PLAYERS) == \
        "Game over. Won by Bo — totals 180, 250"
