"""The Triple Yahtzee bot: the exact end game, and what it adds to the column bot."""

from __future__ import annotations

import random

import pytest

from game.ai import Roll, choose_action
from game.ai.advice import advisor
from game.ai.triple import ENDGAME_OPEN, EndGame, position_keys
from game.ai.triple_games import play_game
from game.rules import Game

FULL = (1 << 13) - 1
MULT = (1, 2, 3)


def weighted_sum(keys) -> float:
    values = advisor("triple").solution.values
    return sum(m * (0.0 if k[0] == FULL else float(values[k]))
               for k, m in zip(keys, MULT, strict=True))


def end_positions(seeds, open_boxes: int) -> list[tuple]:
    """Positions met in seeded games of the optimal bot when ``open_boxes`` boxes are open."""
    found = []
    for seed in seeds:
        game = Game("triple", ["bot"], rng=random.Random(seed))
        while not game.is_over:
            if game.dice is None and sum(13 - k[0].bit_count()
                                         for k in position_keys(game)) == open_boxes:
                found.append(position_keys(game))
                break
            action = choose_action(game, "optimal")
            if isinstance(action, Roll):
                game.roll(action.hold)
            else:
                game.score(action.box, action.column)
    return found


@pytest.mark.parametrize("column", [0, 1, 2])
def test_one_open_column_is_worth_its_table_value(column, yahtzee_table):
    """With the other columns full the end game is a game of yahtzee: m × the table."""
    values = advisor("triple").solution.values
    for open_boxes, upper, y50 in [((0, 5, 9), 50, 0), ((2, 7, 11), 10, 0),
                                   ((3, 12), 63, 1), ((11,), 0, 0), ((5, 6, 10, 12), 58, 1)]:
        key = (FULL & ~sum(1 << b for b in open_boxes), upper, y50)
        keys = tuple(key if c == column else (FULL, 0, 0) for c in range(3))
        assert EndGame(MULT).value(keys) == pytest.approx(MULT[column] * values[key],
                                                          rel=1e-12)


def test_exact_end_game_is_worth_at_least_the_weighted_sum(yahtzee_table):
    """Playing each column's rest on its own is one way to play, so E ≥ W; sharing turns
    between columns is worth more as soon as two columns are open."""
    positions = end_positions(range(40, 46), 5)
    assert len(positions) == 6
    eg = EndGame(MULT)
    gains = [eg.value(keys) - weighted_sum(keys) for keys in positions]
    assert min(gains) >= -1e-9
    assert max(gains) > 1.0


def test_optimal_bot_plays_whole_games(yahtzee_table):
    for seed in (1, 2):
        game = Game("triple", ["a", "b"], rng=random.Random(seed))
        while not game.is_over:
            action = choose_action(game, "optimal")  # the game refuses any illegal move
            if isinstance(action, Roll):
                game.roll(action.hold)
            else:
                game.score(action.box, action.column)
        assert all(card.is_full and card.total > 0 for card in game.scorecards)


def test_end_game_beats_the_column_bot_on_the_same_dice(yahtzee_table):
    """Same seeds: both bots play alike until ENDGAME_OPEN boxes are left; from there the
    exact bot's luck-free score (the score less every roll's luck, measured against the bot's
    own expectation) is the exact value of that position, the column bot's a sample of its
    own worse expectation. Fixed seeds: deterministic."""
    diffs = []
    for seed in range(2000, 2012):
        _, col_starts, col_free = play_game(seed, endgame_open=0)
        _, starts, free = play_game(seed, endgame_open=ENDGAME_OPEN)
        early = 39 - ENDGAME_OPEN
        assert starts[:early + 1] == col_starts[:early + 1]
        diffs.append(free - col_free)
    assert sum(diffs) / len(diffs) > 1.0
