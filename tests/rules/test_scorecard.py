"""The scorecard: the Joker rule branch by branch, bonuses, Triple Yahtzee columns, totals."""

import itertools
from dataclasses import replace

import pytest

from game.rules import (
    TRIPLE,
    YAHTZEE,
    YATZY,
    BoxFilled,
    JokerForbids,
    Scorecard,
    Slot,
)

ALL_ROLLS = list(itertools.product(range(1, 7), repeat=5))


def card(ruleset=YAHTZEE, column=0, **filled) -> Scorecard:
    c = Scorecard(ruleset)
    for box, points in filled.items():
        c.fill(box, column, points)
    return c


@pytest.mark.parametrize("ruleset", [YAHTZEE, YATZY], ids=lambda r: r.name)
def test_every_roll_scores_within_every_boxs_range(ruleset):
    for dice in ALL_ROLLS:
        for box in ruleset.boxes:
            assert 0 <= box.score(dice) <= box.max_points, (dice, box.name)


@pytest.mark.parametrize("ruleset", [YAHTZEE, YATZY], ids=lambda r: r.name)
def test_every_box_reaches_its_maximum(ruleset):
    for box in ruleset.boxes:
        assert max(box.score(d) for d in ALL_ROLLS) == box.max_points, box.name


def test_five_of_a_kind_is_not_a_full_house_outside_the_joker():
    c = card()
    assert c.score_for((4, 4, 4, 4, 4), "full_house") == 0
    assert Slot("full_house") in c.legal_slots((4, 4, 4, 4, 4))


class TestForcedJoker:
    yahtzee = (3, 3, 3, 3, 3)

    def test_matching_upper_box_is_the_only_choice_when_open(self):
        c = card(yahtzee=50)
        assert c.joker_applies(self.yahtzee)
        assert c.legal_slots(self.yahtzee) == [Slot("threes")]
        assert c.score_for(self.yahtzee, "threes") == 15
        with pytest.raises(JokerForbids):
            c.check_can_score(self.yahtzee, "full_house")

    def test_any_open_lower_box_when_the_upper_box_is_filled(self):
        c = card(yahtzee=50, threes=9, chance=20)
        legal = c.legal_slots(self.yahtzee)
        assert legal == [Slot(b) for b in ("three_of_a_kind", "four_of_a_kind", "full_house",
                                           "small_straight", "large_straight")]
        assert c.score_for(self.yahtzee, "full_house") == 25
        assert c.score_for(self.yahtzee, "small_straight") == 30
        assert c.score_for(self.yahtzee, "large_straight") == 40
        assert c.score_for(self.yahtzee, "three_of_a_kind") == 15
        assert c.score_for(self.yahtzee, "four_of_a_kind") == 15
        with pytest.raises(JokerForbids):
            c.check_can_score(self.yahtzee, "ones")

    def test_any_open_upper_box_for_zero_when_the_lower_section_is_full(self):
        lower = {b.name: 0 for b in YAHTZEE.lower_boxes}
        lower["yahtzee"] = 50
        c = card(threes=9, fives=15, **lower)
        assert c.legal_slots(self.yahtzee) == [Slot("ones"), Slot("twos"),
                                               Slot("fours"), Slot("sixes")]
        assert all(c.score_for(self.yahtzee, s.box) == 0 for s in c.legal_slots(self.yahtzee))

    def test_a_scratched_yahtzee_box_still_brings_the_joker_but_no_bonus(self):
        c = card(yahtzee=0, threes=6)
        assert c.joker_applies(self.yahtzee)
        assert c.score_for(self.yahtzee, "large_straight") == 40
        assert c.yahtzee_bonus_due(self.yahtzee) == 0

    def test_bonus_is_due_for_a_further_yahtzee_while_the_box_holds_50(self):
        assert card(yahtzee=50).yahtzee_bonus_due(self.yahtzee) == 100
        assert card(yahtzee=50).yahtzee_bonus_due((3, 3, 3, 3, 2)) == 0

    def test_no_joker_while_the_yahtzee_box_is_open(self):
        c = card(threes=9)
        assert not c.joker_applies(self.yahtzee)
        assert c.score_for(self.yahtzee, "large_straight") == 0
        assert c.score_for(self.yahtzee, "yahtzee") == 50
        assert len(c.legal_slots(self.yahtzee)) == 12

    def test_filled_box_is_refused(self):
        c = card(chance=20)
        with pytest.raises(BoxFilled):
            c.check_can_score((1, 2, 3, 4, 6), "chance")


def test_free_choice_joker_allows_any_open_box_with_fixed_points_once_upper_is_filled():
    free = replace(YAHTZEE, joker="free")
    dice = (2, 2, 2, 2, 2)
    c = card(free, yahtzee=50)
    assert len(c.legal_slots(dice)) == 12
    assert c.score_for(dice, "full_house") == 0  # twos still open: no fixed points
    assert c.score_for(dice, "sixes") == 0
    c.fill("twos", 0, 4)
    assert len(c.legal_slots(dice)) == 11
    assert c.score_for(dice, "full_house") == 25
    assert c.score_for(dice, "large_straight") == 40


def test_yatzy_has_no_joker_and_no_yahtzee_bonus():
    c = card(YATZY, yatzy=50)
    dice = (5, 5, 5, 5, 5)
    assert not c.joker_applies(dice)
    assert c.yahtzee_bonus_due(dice) == 0
    assert c.score_for(dice, "full_house") == 0
    assert len(c.legal_slots(dice)) == 14


@pytest.mark.parametrize(("ruleset", "bonus"), [(YAHTZEE, 35), (YATZY, 50)],
                         ids=lambda v: getattr(v, "name", v))
def test_upper_subtotal_and_threshold(ruleset, bonus):
    c = card(ruleset, ones=3, twos=6, threes=9, fours=12, fives=15)
    assert c.upper_subtotal() == 45 and not c.upper_bonus_earned()
    c.fill("sixes", 0, 18)
    assert c.upper_subtotal() == 63 and c.upper_bonus_earned()
    assert ruleset.upper_bonus == bonus


class TestTriple:
    def test_three_columns_with_multipliers(self):
        c = Scorecard(TRIPLE)
        c.fill("chance", 0, 10)
        c.fill("chance", 1, 10)
        c.fill("chance", 2, 10)
        c.add_bonus("upper", 2, 35)
        assert [c.column_total(i) for i in range(3)] == [10, 10, 45]
        assert c.total == 10 + 2 * 10 + 3 * 45

    def test_joker_and_bonus_are_per_column(self):
        c = Scorecard(TRIPLE)
        c.fill("yahtzee", 0, 50)
        c.fill("yahtzee", 2, 0)
        dice = (6, 6, 6, 6, 6)
        legal = c.legal_slots(dice)
        # column 0: joker forces sixes; column 1: no joker, anything; column 2: forced sixes.
        assert [s for s in legal if s.column == 0] == [Slot("sixes", 0)]
        assert len([s for s in legal if s.column == 1]) == 13
        assert [s for s in legal if s.column == 2] == [Slot("sixes", 2)]
        assert c.yahtzee_bonus_due(dice, 0) == 100
        assert c.yahtzee_bonus_due(dice, 1) == 0
        assert c.yahtzee_bonus_due(dice, 2) == 0
        assert c.score_for(dice, "full_house", 0) == 25
        assert c.score_for(dice, "full_house", 1) == 0

    def test_open_slots_and_fullness(self):
        c = Scorecard(TRIPLE)
        assert len(c.open_slots()) == 39 and not c.is_full
        for s in c.open_slots():
            c.fill(s.box, s.column, 0)
        assert c.is_full and not c.open_slots()
