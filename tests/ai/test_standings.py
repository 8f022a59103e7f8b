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


@pytest.mark.parametrize("rules", ["yahtzee", "yatzy"])
def test_a_cards_state_reads_the_same_from_its_dict(rules):
    """The live standings read each card from the state a command returns (its dict): the
    same state as from the scorecard, at every turn of whole games (bonuses, Yahtzees)."""
    import random

    from game.ai import CardState
    from game.rules import Roll, Score

    rng = random.Random(11)
    for seed in range(12):
        game = RulesGame(rules, ["a", "b"], rng=random.Random(seed))
        while not game.is_over:
            game.play(Roll(()))
            slot = rng.choice(game.legal_slots())
            game.play(Score(slot.box, slot.column))
            state = game.to_dict()
            for card, as_dict in zip(game.scorecards, state["scorecards"], strict=True):
                assert CardState.of_dict(game.ruleset, as_dict) == CardState.of(card)


def test_kept_futures_serve_every_game_and_only_what_is_kept(yahtzee_table, monkeypatch):
    """A card's future is computed once for every game that reaches its state (what is
    banked only shifts it), and the standings of the event loop come from kept futures: the
    estimator's where there is no score table (this session builds none), never while one
    is on disk but not loaded yet."""
    import random

    from game.ai import CardState
    from game.ai import standings as standings_module
    from game.ai.standings import forget_futures, futures
    from game.rules import Roll, Score

    forget_futures()
    game = RulesGame("yahtzee", ["a", "b"], rng=random.Random(5))
    for _ in range(4):
        game.play(Roll(()))
        slot = game.legal_slots()[0]
        game.play(Score(slot.box, slot.column))
    standings = Standings(game.ruleset)
    states = [CardState.of(c) for c in game.scorecards]
    kept = futures(standings.adv, None)
    assert [kept.kept(s) for s in states] == [None, None]
    computed = standings.of_states(states)
    assert computed == standings.of(game.scorecards)
    assert all(kept.kept(s) is not None for s in states)
    assert standings.table is None and standings.kept(states) == computed
    with monkeypatch.context() as m:  # a score table built meanwhile: to be loaded first
        m.setattr(standings_module, "score_table_ready", lambda ruleset: True)
        assert standings.kept(states) is None
    before = len(kept._kept)
    other = Standings(game.ruleset)  # another game's, with the same cards banked otherwise
    shifted = [CardState(s.mask, s.upper, s.yahtzee_50, s.banked + 7) for s in states]
    got = other.of_states(shifted)
    assert len(kept._kept) == before
    assert [s.expected for s in got] == pytest.approx([s.expected + 7 for s in computed])
    assert [s.percentiles for s in got] == [tuple(q + 7 for q in s.percentiles)
                                            for s in computed]
    assert [s.chance for s in got] == pytest.approx([s.chance for s in computed], abs=1e-12)


def test_the_estimators_futures_go_once_the_score_table_is_loaded(yahtzee_table, monkeypatch):
    """The to-win bot's turns read ``points_to_come``: kept from the fallback while no score
    table is built, and dropped when the table appears, never mixed with its distributions."""
    from game.ai import CardState, standings

    bots = standings.Standings(RulesGame("yahtzee", ["a"]).ruleset)
    key = CardState.empty().key
    assert bots.points_to_come([key]) and key in bots.futures  # the estimator's
    built = object()
    monkeypatch.setattr(standings, "loaded_score_table", lambda ruleset: built)
    assert bots._score_table() is built and bots.futures == {}
