"""Plays with a taste for risk (game.ai.risk): their certainty equivalents and distributions
against brute force over real scorecards, the best of the plays at a turn's end, the tables on
disk, and the bot without them."""

from __future__ import annotations

import random

import numpy as np
import pytest
from django.core.management import CommandError, call_command

from game.ai import CardState, advisor, risk, score_table, to_win
from game.ai.advice import Advisor
from game.ai.solver import solve
from game.ai.to_win import WinWeights
from game.rules import Game, Scorecard

from .brute import FIRST, KEEPS, ROLLS, _key, _thrown, after_scoring, keep_matrix
from .positions import END_GAMES, card

RISKS = (-0.03, 0.04)


def _certain(values: np.ndarray, weights: np.ndarray, taste: float) -> np.ndarray:
    """Each row of ``weights``' certainty equivalent of ``values``."""
    top = values.max()
    return np.log(weights @ np.exp(taste * (values - top))) / taste + top


_memo: dict[tuple, float] = {}


def brute_certainty(c: Scorecard, taste: float) -> float:
    """log E[exp(taste × points to come)] / taste under the play that maximises it."""
    if c.is_full:
        return 0.0
    key = (_key(c), taste)
    if key not in _memo:
        values = np.array([max(points + brute_certainty(child, taste) for points, child in (
            after_scoring(c, dice, slot.box) for slot in c.legal_slots(dice)))
            for dice in ROLLS])
        keeps, first_keep = keep_matrix()
        for _ in range(2):
            values = np.maximum.reduceat(_certain(values, keeps, taste), first_keep)
        _memo[key] = float(_certain(values, np.asarray(FIRST)[None, :], taste)[0])
    return _memo[key]


_dist_memo: dict[tuple, np.ndarray] = {}


def brute_distribution(c: Scorecard, taste: float) -> np.ndarray:
    """The chance of each number of points to come under that play (the first best box; on
    equal values the larger hold)."""
    if c.is_full:
        return np.ones(1)
    key = (_key(c), taste)
    if key not in _dist_memo:
        rows = []
        for dice in ROLLS:
            options = [(g + brute_certainty(child, taste), g, child) for g, child in (
                after_scoring(c, dice, slot.box) for slot in c.legal_slots(dice))]
            best = max(o[0] for o in options)
            v, g, child = next(o for o in options if o[0] > best - 1e-9)
            rows.append((v, np.concatenate([np.zeros(int(g)), brute_distribution(child, taste)])))
        matrix, _ = keep_matrix()
        for _ in range(2):
            values = iter(_certain(np.array([r[0] for r in rows]), matrix, taste))
            new = []
            for i in range(len(ROLLS)):
                keeps = [(next(values), 5 - _thrown(keep), keep) for keep in KEEPS[i]]
                best = max(k[0] for k in keeps)
                largest = max(k[1] for k in keeps if k[0] > best - 1e-9)
                v, _, keep = next(k for k in keeps if k[0] > best - 1e-9 and k[1] == largest)
                new.append((v, _mixed([(p, rows[j][1]) for p, j in keep])))
            rows = new
        _dist_memo[key] = _mixed([(p, r[1]) for p, r in zip(FIRST, rows, strict=True)])
    return _dist_memo[key]


def _mixed(parts: list[tuple[float, np.ndarray]]) -> np.ndarray:
    out = np.zeros(max(len(d) for _, d in parts))
    for weight, d in parts:
        out[:len(d)] += weight * d
    return out


@pytest.fixture(scope="module")
def plays(yahtzee_table, yatzy_table):
    """The plays of RISKS for the states with up to two boxes open, and their distributions."""
    found = {}
    for rules in ("yahtzee", "yatzy"):
        tables = advisor(rules).tables
        for taste in RISKS:
            solution = solve(tables, risk=taste, max_open=2)
            # Kept whole for one box open only: two open are quantiles, which the bot plays
            # out one turn (RiskPlay.futures) over the states after them.
            table, _ = score_table.build(solution, exact_levels=1, max_open=2)
            found[rules, taste] = risk.RiskPlay(Advisor(solution), table)
    return found


@pytest.mark.parametrize("taste", RISKS)
@pytest.mark.parametrize(("rules", "filled"), END_GAMES)
def test_certainty_equivalents_and_distributions_match_brute_force(plays, rules, filled,
                                                                    taste):
    c = card(rules, filled)
    play = plays[rules, taste]
    key = CardState.of(c).key
    assert play.adv.solution.values[key] == pytest.approx(brute_certainty(c, taste), abs=1e-9)
    want = brute_distribution(c, taste)
    (lo, probs), = play.futures([key])
    got = np.zeros(max(len(want), lo + len(probs)))
    got[lo:lo + len(probs)] = probs
    assert np.abs(got[:len(want)] - want).max() < 1e-6
    assert got[len(want):].sum() < 1e-6
    assert play.futures([key])[0][1] is probs  # kept
    # The distribution is the play's: its certainty equivalent is the value solved.
    k = np.arange(len(want))
    assert np.log(want @ np.exp(taste * k)) / taste == pytest.approx(
        play.adv.solution.values[key], abs=1e-6)
    # Read from the table alone: whole with one box open, quantiles with two, near it.
    (lo, probs), = play.read([key])
    read = np.zeros(len(got))
    read[lo:lo + len(probs)] = probs[:len(got) - lo]
    assert play.table.is_exact(key) == (len(c.ruleset.boxes) - key[0].bit_count() == 1)
    assert np.abs(np.cumsum(read) - np.cumsum(got)).max() < 0.05


@pytest.mark.parametrize(("rules", "filled"), END_GAMES)
def test_a_taste_for_risk_moves_the_spread_its_way(plays, rules, filled):
    """Seeking risk never narrows the spread below points play's, avoiding it never widens it;
    and neither play expects more points than points play."""
    c = card(rules, filled)
    key = CardState.of(c).key
    points = advisor(rules).solution
    sds = {}
    for taste in RISKS:
        d = brute_distribution(c, taste)
        k = np.arange(len(d))
        mean = d @ k
        sds[taste] = np.sqrt(d @ (k - mean) ** 2)
        assert mean <= points.values[key] + 1e-9
    sd = points.spread(*key)[0]
    assert sds[min(RISKS)] <= sd + 1e-9 <= sds[max(RISKS)] + 2e-9


def test_the_best_play_decides_each_turn_end():
    """RiskEnds: for every total the play with the mover's best chance, every player's
    chance from that play; within the tie the first play (points) is kept."""
    weights = WinWeights(100, np.array([np.linspace(0, 1, 50), 1 - np.linspace(0, 1, 50)]))
    narrow = [(10, np.array([1.0]))]
    wide = [(0, np.array([0.5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0.5]))]
    ends = risk.RiskEnds(weights, 0, [lambda keys: narrow * len(keys),
                                      lambda keys: wide * len(keys)])
    totals = np.array([95, 110, 130])
    got = ends([(0, 0, 0)], [totals])[0]
    for j, total in enumerate(totals):
        first = weights.chances(np.array([total + 10]), np.ones(1))[:, 0]
        second = weights.of((total, wide[0][1]))
        want = second if second[0] > first[0] + risk.TIE else first
        assert got[:, j] == pytest.approx(want, abs=1e-12)
    # Behind (95 + 10 is near the low end) the wide play is worth more, ahead the narrow one.
    assert got[0, 0] > weights.chances(np.array([105]), np.ones(1))[0, 0]
    assert got[0, 2] == pytest.approx(weights.chances(np.array([140]), np.ones(1))[0, 0])
    # Another play is taken only for more than the margin above points play's chance.
    gain = got[0, 0] - weights.chances(np.array([105]), np.ones(1))[0, 0]
    for margin, taken in ((gain - 1e-9, True), (gain + 1e-9, False)):
        kept = risk.RiskEnds(weights, 0, ends.plays, margin)([(0, 0, 0)], [totals])[0]
        assert bool(kept[0, 0] == got[0, 0]) is taken
    # Two plays alike: the first is kept.
    same = risk.RiskEnds(weights, 0, [lambda keys: wide * len(keys)] * 2)
    assert np.array_equal(same([(0, 0, 0)], [totals])[0],
                          weights.chances(totals, wide[0][1]))


def test_the_tables_on_disk(yahtzee_table, tmp_path):
    """Saved (a table of the states near the end is enough to check the file), read back
    equal, refused under another taste for risk, cut short or missing."""
    tables = advisor("yahtzee").tables
    solution = solve(tables, risk=0.02, max_open=1)
    table, _ = score_table.build(solution, max_open=1)
    path = tmp_path / "play.npz"
    risk.save(path, risk.RiskPlay(Advisor(solution), table))
    read = risk.load(path, tables, 0.02)
    assert read is not None
    assert np.array_equal(read.adv.solution.values, solution.values, equal_nan=True)
    assert read.adv.solution.risk == 0.02
    assert np.array_equal(read.table.exact_probs, table.exact_probs)
    assert risk.load(path, tables, 0.01) is None
    path.write_bytes(path.read_bytes()[:1000])
    assert risk.load(path, tables, 0.02) is None
    assert risk.load(tmp_path / "missing.npz", tables, 0.02) is None


@pytest.mark.parametrize("bad", ["0", "abc", "0.5", "-1"])
def test_the_command_refuses_a_bad_taste(bad):
    with pytest.raises(CommandError):
        call_command("build_risk", "--rules", "yahtzee", "--risk", bad, "--no-progress")


def test_without_its_tables_it_plays_as_the_to_win_bot(yahtzee_table):
    """No plays on disk: every move the to-win bot's, over a whole seeded heads-up game."""
    assert risk.loaded(advisor("yahtzee").solution) == ()
    game = Game("yahtzee", ["a", "b"], rng=random.Random(7))
    moves = 0
    while not game.is_over:
        if game.dice is None:
            game.roll(())
            continue
        mine = risk.choose(game)
        assert mine == to_win.choose(game)
        moves += 1
        game.play(mine)
    assert moves > 26
