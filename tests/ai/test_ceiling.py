"""The best chance to finish above a number of points (game.ai.targets) against brute force
over real scorecards, and the ceiling's arithmetic (game.ai.ceiling)."""

from __future__ import annotations

import functools

import numpy as np
import pytest

from game.ai import CardState, advisor
from game.ai.ceiling import ceiling, most_needed
from game.ai.targets import TAIL, TargetTable, solve

from .brute import future_distribution
from .brute_targets import best_chances
from .positions import END_GAMES, card

#: Targets checked: every number of points a card with two boxes open can still need.
WIDTH = 160


@pytest.fixture(scope="module")
def small_tables(yahtzee_table, yatzy_table):
    """States with up to two boxes open, by ruleset and tie convention; each solved when a
    case first asks for it (the cases ask for three of the four)."""
    # (targets beyond what a card has surely banked are never asked: room for those kept)
    @functools.cache
    def table(rules: str, tie: float) -> TargetTable:
        return solve(advisor(rules).solution, 400, tie, max_open=2)

    return table


# (END_GAMES index, the share of a win a tie counts for): one or two boxes open, the forced
# Joker with the Yahtzee bonus on, a scratched Yahtzee box, yatzy.
CASES = [(0, 0.0), (1, 0.5), (2, 0.5), (3, 0.0), (6, 0.5)]
#: Where only the yahtzee box is open, every target is played as points are: for a Yahtzee.
SAME_PLAY = {1}


@pytest.mark.parametrize(("game", "tie"), CASES)
def test_best_chances_match_brute_force(small_tables, game, tie):
    rules, filled = END_GAMES[game]
    c = card(rules, filled)
    got = small_tables(rules, tie).chances(CardState.of(c).key, WIDTH)
    want = best_chances(c, WIDTH, tie)
    # float32 rows; a row's tail past TAIL is dropped
    assert got == pytest.approx(want, abs=1e-6 + 2 * TAIL)


@pytest.mark.parametrize(("game", "tie"), CASES)
def test_playing_for_the_target_beats_playing_for_points(small_tables, game, tie):
    """For every target, at least the optimal (points) play's chance, and more needed is never
    likelier."""
    rules, filled = END_GAMES[game]
    c = card(rules, filled)
    got = small_tables(rules, tie).chances(CardState.of(c).key, WIDTH)
    dist = future_distribution(c)
    points = np.array([sum(p for k, p in dist.items() if k > n) + tie * dist.get(n, 0.0)
                       for n in range(WIDTH)])
    assert np.all(got >= points - 1e-6)
    assert np.all(np.diff(got) <= 1e-6)
    assert (got > points + 1e-3).any() != (game in SAME_PLAY)


def _one_state(values: list[float], lo: int, tie: float, most: int) -> TargetTable:
    row = np.full((2, 1, 1), np.iinfo(np.int32).min, dtype=np.int32)
    row[0, 0, 0] = 0
    return TargetTable(row, np.array([0, len(values)]), np.array([lo], dtype=np.int32),
                       np.array(values, dtype=np.float32), tie, most)


def test_a_table_row_is_one_below_its_values_and_nothing_past_them():
    table = _one_state([0.75, 0.5], lo=2, tie=0.5, most=5)
    assert list(table.chances((0, 0, 0))) == [1, 1, 0.75, 0.5, 0, 0]
    assert table.chance((0, 0, 0), -3) == 1.0
    assert table.chance((0, 0, 0), 3) == 0.5
    assert table.chance((0, 0, 0), 9) == 0.0
    with pytest.raises(ValueError):
        table.chances((1, 0, 0))


def test_the_ceiling_weights_each_final_score_by_its_chance():
    table = _one_state([0.75, 0.5], lo=2, tie=0.5, most=3)
    final = np.array([0.0, 0.5, 0.25, 0.125, 0.125])  # the last beyond ``most``: lost
    result = ceiling("yatzy", table, final, levels=15)
    assert result.share == pytest.approx(0.5 + 0.25 * 0.75 + 0.125 * 0.5)
    assert result.unplayed == pytest.approx(0.125)
    assert result.error == pytest.approx(0.125 + 15 * TAIL)


def test_the_scores_played_for_stop_where_almost_nothing_is_left():
    assert most_needed(np.array([0.5, 0.5 - 1e-10, 1e-10])) == 1
    assert most_needed(np.array([0.5, 0.25, 0.25])) == 2


@pytest.mark.parametrize("workers", ["0", "-2", "two"])
def test_the_build_command_refuses_a_bad_count_of_workers_and_builds_nothing(tmp_path, workers):
    from django.core.management import CommandError, call_command

    with pytest.raises(CommandError, match="--workers"):
        call_command("build_ceiling", "--rules", "yatzy", "--workers", workers,
                     "--out", str(tmp_path / "out"))
    assert not (tmp_path / "out").exists()
