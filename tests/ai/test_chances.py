"""The score table (each state's whole distribution of points to come) against brute force,
and the chances and percentiles the standings draw from it."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from game.ai import CardState, Standings, advisor
from game.ai import score_table as scores
from game.ai.distribution import final_distribution, is_exact, table_distribution
from game.ai.standings import above, percentile
from game.rules import Game as RulesGame
from game.rules import Scorecard, get_ruleset

from .brute import future_distribution, ties_matter
from .positions import END_GAMES, card

#: The small tables: states with up to 3 boxes open, kept whole up to 2 (quantiles at 3).
OPEN, WHOLE = 3, 2


@pytest.fixture(scope="module")
def small_tables(yahtzee_table, yatzy_table):
    return {rules: scores.build(advisor(rules).solution, exact_levels=WHOLE, max_open=OPEN)
            for rules in ("yahtzee", "yatzy")}


def as_array(dist: tuple[int, np.ndarray] | dict[int, float], size: int = 2048) -> np.ndarray:
    out = np.zeros(size)
    if isinstance(dist, dict):
        for k, p in dist.items():
            out[k] += p
    else:
        lo, probs = dist
        out[lo:lo + len(probs)] = probs
    return out


@pytest.mark.parametrize(("rules", "filled"), END_GAMES)
def test_end_game_distributions_match_brute_force(rules, filled, small_tables):
    c = card(rules, filled)
    state = CardState.of(c)
    table = small_tables[rules][0]
    brute = as_array(future_distribution(c))
    assert not ties_matter(c)
    assert brute.sum() == pytest.approx(1.0, abs=1e-12)
    kept = as_array(table.distribution(state.key))
    assert np.abs(kept - brute).max() < 1e-6  # float32
    final = as_array(table_distribution(advisor(rules), table, state))  # banked included
    assert np.abs(final - np.roll(brute, c.total)).max() < 1e-6
    assert is_exact(advisor(rules), table, state)


def random_card(rules: str, data: st.DataObject, open_boxes: int) -> Scorecard:
    """A card with ``open_boxes`` open, the others filled with points they could hold."""
    ruleset = get_ruleset(rules)
    names = list(ruleset.box_names)
    still = set(data.draw(st.permutations(names))[:open_boxes])
    c = Scorecard(ruleset)
    for box in ruleset.boxes:
        if box.name in still:
            continue
        dice = data.draw(st.tuples(*[st.integers(1, 6)] * 5))
        c.fill(box.name, 0, box.score(dice))
    if c.upper_bonus_earned():
        c.add_bonus("upper", 0, ruleset.upper_bonus)
    return c


@settings(max_examples=12, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data(), rules=st.sampled_from(("yahtzee", "yatzy")))
def test_small_cards_match_brute_force(data, rules, small_tables):
    _matches_brute_force(random_card(rules, data, 1), small_tables)


# Two open boxes: up to a minute of brute force each, so one a run (and END_GAMES above).
@settings(max_examples=1, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data(), rules=st.sampled_from(("yahtzee", "yatzy")))
def test_a_card_with_two_boxes_open_matches_brute_force(data, rules, small_tables):
    _matches_brute_force(random_card(rules, data, 2), small_tables)


def _matches_brute_force(c: Scorecard, small_tables) -> None:
    assume(not ties_matter(c))  # else the distribution depends on how ties are broken
    table = small_tables[c.ruleset.name][0]
    kept = as_array(table.distribution(CardState.of(c).key))
    assert np.abs(kept - as_array(future_distribution(c))).max() < 1e-6


@settings(max_examples=10, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data(), rules=st.sampled_from(("yahtzee", "yatzy")))
def test_a_turn_over_whole_distributions_is_exact(data, rules, small_tables):
    """One box more than the table keeps whole: the turn played out exactly over the states
    it leads to gives the exact distribution (the end-game recursion's), not the quantiles —
    to 0.1 pp in every cumulative chance: the table breaks ties between holds of equal value
    (up to float noise) as the strategy table does, the recursion as the bot ranks them, and
    only the distribution, not the value, may depend on that."""
    adv = advisor(rules)
    table = small_tables[rules][0]
    state = CardState.of(random_card(rules, data, WHOLE + 1))
    assert not table.is_exact(state.key) and is_exact(adv, table, state)
    got = as_array(table_distribution(adv, table, state))
    want = as_array(final_distribution(adv, state))
    points = np.arange(len(got))
    assert float(points @ got) == pytest.approx(float(points @ want), abs=1e-4)
    assert np.abs(np.cumsum(got) - np.cumsum(want)).max() < 1e-3
    # The quantiles alone are near it.
    alone = np.cumsum(np.roll(as_array(table.distribution(state.key)), state.banked))
    assert np.abs(alone - np.cumsum(want)).max() < 0.1


def test_the_build_measures_its_quantiles(small_tables):
    for _, stats in small_tables.values():
        assert 0 < stats["mean_ks"] <= stats["max_ks"] < 0.1
        assert [level["open"] for level in stats["levels"]] == [1, 2, 3]


@pytest.mark.parametrize("probs", [
    np.full(40, 1 / 40),  # even: the quantiles' straight lines are exact
    np.array([0.0, 0.0, 1.0]),  # a sure number of points
])
def test_quantiles_of_simple_distributions_are_exact(probs):
    levels = scores.quantile_levels()
    q = scores.to_quantiles(probs[None, :], levels)[0]
    lo, back = scores.from_quantiles(scores.decode(scores.encode(q)), levels)
    assert np.abs(as_array((lo, back), 64) - as_array((0, probs), 64)).max() < 1e-3


def test_quantiles_keep_the_shape_of_a_lumpy_distribution():
    rng = np.random.default_rng(5)
    probs = rng.random(300) ** 8
    probs /= probs.sum()
    levels = scores.quantile_levels()
    lo, back = scores.from_quantiles(scores.to_quantiles(probs[None, :], levels)[0], levels)
    gap = np.abs(np.cumsum(as_array((lo, back), 400)) - np.cumsum(as_array((0, probs), 400)))
    assert gap.max() < 0.03
    assert back.sum() == pytest.approx(1.0)


def test_percentiles_and_chances_above():
    dist = (100, np.array([0.25, 0.25, 0.5]))  # 100, 101, 102
    assert [percentile(dist, q) for q in (10, 25, 50, 90)] == [100, 100, 101, 102]
    assert above(dist, 100) == pytest.approx(0.75)
    assert above(dist, 101.5) == pytest.approx(0.5)
    assert above(dist, 99) == 1.0 and above(dist, 102) == 0.0


def test_standings_from_the_score_table_are_exact_late_and_say_so(small_tables):
    """Near the end every player's distribution comes from the table and is exact; the
    percentiles and "finishes above" come from the same distribution."""
    game = RulesGame("yahtzee", ["a", "b"])
    cards = game.scorecards
    names = list(game.ruleset.box_names)
    for i, c in enumerate(cards):
        for box in names[:-WHOLE - 1]:
            c.fill(box, 0, 3 * (i + 1) if box == "ones" else 0)
    standings = Standings(game.ruleset)
    standings.table = small_tables["yahtzee"][0]
    got = standings.of(cards)
    assert all(s.exact for s in got)
    dists = [final_distribution(advisor("yahtzee"), CardState.of(c)) for c in cards]
    for s, dist in zip(got, dists, strict=True):
        assert s.percentiles == tuple(percentile(dist, q) for q in (10, 50, 90))
        assert s.percentiles[0] <= s.percentiles[1] <= s.percentiles[2]
    assert sum(s.chance for s in got) == pytest.approx(1.0)
    assert standings.finishes_above(cards, 1, 20) == pytest.approx(above(dists[1], 20))


def test_a_room_never_builds_the_score_table(yahtzee_table, strategy_dir):
    """Missing or broken, the score table is not built by the standings: they fall back to
    the estimator (exact only for the last turns) and say the early chances are estimated."""
    from game.ai.storage import loaded_score_table, score_table_path

    path = score_table_path(get_ruleset("yahtzee"))
    assert not path.exists() and loaded_score_table("yahtzee") is None
    path.write_bytes(b"not a table")
    try:
        assert loaded_score_table("yahtzee") is None
        game = RulesGame("yahtzee", ["a", "b"])
        got = Standings(game.ruleset).of(game.scorecards)
        assert [s.exact for s in got] == [False, False]
        assert [s.chance for s in got] == pytest.approx([0.5, 0.5], abs=1e-9)
        assert path.read_bytes() == b"not a table"  # nothing built over it
        assert not path.with_suffix(".progress").exists()
    finally:
        path.unlink()
