"""Property tests: random legal games keep every invariant; illegal actions change nothing."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from game.rules import (
    BonusAwarded,
    Game,
    RulesError,
    Scored,
    event_from_dict,
)

from .random_games import play_random_game, rulesets


@settings(max_examples=30, deadline=None)
@given(data=st.data(), rules=rulesets, players=st.integers(1, 3))
def test_random_legal_games_keep_every_invariant(data, rules, players):
    game = play_random_game(data, rules, players)
    ruleset = game.ruleset
    scored = [e for e in game.events if isinstance(e, Scored)]

    # Every box of every column of every card is filled exactly once.
    slots = [(e.player, e.column, e.box) for e in scored]
    assert len(slots) == len(set(slots)) == players * ruleset.turns
    for e in scored:
        box = ruleset.box(e.box)
        assert 0 <= e.points <= max(box.max_points, box.joker_points or 0)

    for p, card in enumerate(game.scorecards):
        assert card.is_full
        boxes = [e for e in scored if e.player == p]
        bonuses = [e for e in game.events if isinstance(e, BonusAwarded) and e.player == p]
        assert card.total == sum(
            ruleset.multipliers[e.column] * e.points for e in boxes + bonuses)
        for col in range(ruleset.columns):
            upper = [b for b in bonuses if b.column == col and b.bonus == "upper"]
            assert len(upper) == (1 if card.upper_subtotal(col) >= 63 else 0)

        # The state clients draw (to_dict) adds up to the same sums, column by column.
        shown = game.to_dict()["scorecards"][p]
        assert shown["total"] == card.total
        for col, column in enumerate(shown["columns"]):
            in_col = [e for e in boxes + bonuses if e.column == col]
            assert column["total"] == sum(e.points for e in in_col)
            assert column["upper_subtotal"] + column["lower_subtotal"] == sum(
                e.points for e in boxes if e.column == col)
            assert column["upper_bonus"] + column["yahtzee_bonus"] == sum(
                e.points for e in bonuses if e.column == col)
            assert column["boxes"] == {e.box: e.points for e in boxes if e.column == col}

    totals = [c.total for c in game.scorecards]
    assert game.winners == tuple(i for i, t in enumerate(totals) if t == max(totals))
    assert Game.from_events(event_from_dict(e.to_dict()) for e in game.events) == game


BOX_NAMES = ["chance", "yahtzee", "yatzy", "ones", "pair", "", "x" * 50]
illegal_actions = st.one_of(
    st.builds(lambda h: ("roll", {"hold": h}),
              st.lists(st.one_of(st.integers(-3, 8), st.text(max_size=2), st.none()),
                       max_size=7)),
    st.builds(lambda b, c: ("score", {"box": b, "column": c}),
              st.one_of(st.sampled_from(BOX_NAMES), st.none(), st.integers()),
              st.one_of(st.integers(-1, 3), st.text(max_size=1), st.booleans())),
    st.builds(lambda p: ("roll", {"player": p}), st.integers(-1, 6)),
    st.builds(lambda p: ("score", {"box": "chance", "player": p}), st.integers(-1, 6)),
)


@settings(max_examples=60, deadline=None)
@given(data=st.data(), rules=rulesets, actions=st.lists(illegal_actions, max_size=12))
def test_an_action_either_applies_or_changes_nothing(data, rules, actions):
    game = Game(rules, ["a", "b"], rng=random.Random(data.draw(st.integers(0, 999))))
    for name, kwargs in actions:
        before, n = game.to_dict(), len(game.events)
        try:
            getattr(game, name)(**kwargs)
        except RulesError as exc:
            assert exc.code and exc.message
            assert game.to_dict() == before and len(game.events) == n
        else:
            assert len(game.events) > n
        if game.is_over:
            break
