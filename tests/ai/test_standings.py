"""Standings: where each player of a game stands (expected final score, spread, chance)."""

from __future__ import annotations

import pytest

from game.ai import Standings
from game.rules import Game as RulesGame


def test_standings_are_the_tables_view_of_each_card(yahtzee_table):
    """Empty cards are worth the table's value to everyone, with even chances."""
    game = RulesGame("yahtzee", ["a", "b", "c"])
    standings = Standings(game.ruleset).of(game.scorecards)
    assert [round(s.expected, 4) for s in standings] == [254.5877] * 3
    assert all(s.sd == pytest.approx(59.607586, abs=1e-5) for s in standings)
    assert [s.chance for s in standings] == pytest.approx([1 / 3] * 3, abs=1e-9)


def test_full_cards_stand_at_their_totals(yahtzee_table):
    import random

    from game.ai import choose_action

    rng = random.Random(3)
    game = RulesGame("yahtzee", ["a", "b"], rng=rng)
    while not game.is_over:
        game.play(choose_action(game, "easy", rng))
    standings = Standings(game.ruleset).of(game.scorecards)
    assert [s.expected for s in standings] == pytest.approx([c.total for c in game.scorecards])
    assert [s.sd for s in standings] == [0.0, 0.0]
    shares = [1 / len(game.winners) if p in game.winners else 0.0 for p in range(2)]
    assert [s.chance for s in standings] == pytest.approx(shares, abs=1e-9)


def test_triple_has_no_standings():
    with pytest.raises(ValueError, match="no exact table"):
        Standings(RulesGame("triple", ["a", "b"]).ruleset)
