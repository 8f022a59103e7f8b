"""Positions the solver and the score table are checked on: cards built by hand and end games
with one or two boxes open."""

from __future__ import annotations

from game.rules import Scorecard, get_ruleset


def card(rules: str, filled: dict[str, int], yahtzee_bonus: int = 0) -> Scorecard:
    c = Scorecard(get_ruleset(rules))
    for box, points in filled.items():
        c.fill(box, 0, points)
    if c.upper_bonus_earned():
        c.add_bonus("upper", 0, c.ruleset.upper_bonus)
    return c


YAHTZEE = get_ruleset("yahtzee").box_names
YATZY = get_ruleset("yatzy").box_names

END_GAMES = [
    # (rules, filled boxes and their points) — everything else open
    ("yahtzee", {b: 0 for b in YAHTZEE if b != "chance"}),
    ("yahtzee", {b: 0 for b in YAHTZEE if b != "yahtzee"}),
    # The Yahtzee bonus is on and only the upper box of a face is open: the forced Joker.
    ("yahtzee", {**{b: 0 for b in YAHTZEE if b not in ("sixes", "full_house")},
                 "yahtzee": 50, "fives": 25, "fours": 20}),
    # Yahtzee box scratched: Jokers still fill a straight with 40, no bonus.
    ("yahtzee", {b: 0 for b in YAHTZEE if b not in ("large_straight", "threes")}),
    # Two short of the upper bonus with ones and a lower box open.
    ("yahtzee", {**{b: 0 for b in YAHTZEE if b not in ("ones", "small_straight")},
                 "sixes": 30, "fives": 25, "fours": 8, "yahtzee": 50}),
    ("yatzy", {b: 0 for b in YATZY if b not in ("one_pair", "two_pairs")}),
    ("yatzy", {**{b: 0 for b in YATZY if b not in ("sixes", "yatzy")},
               "fives": 25, "fours": 20, "threes": 12}),
]
