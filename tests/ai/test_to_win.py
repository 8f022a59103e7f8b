"""Chances to win during a turn played for the win (game.ai.to_win) against brute force over
real scorecards, the review's chances chain, and the to-win bot."""

from __future__ import annotations

import itertools
import json
import math
import random
from functools import cache

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.ai import CardState, Standings, advisor, choose_action
from game.ai.distribution import final_distribution
from game.ai.review import analyse
from game.ai.to_win import PointsPlay, TurnChances, win_weights
from game.rules import Game, Scorecard, get_ruleset

from .brute import FIRST, ROLLS, after_scoring, probability
from .test_chances import random_card
from .test_review import bot_game

# --- the weights: each player's chance as a function of the mover's final score ---------------

small_dist = st.dictionaries(st.integers(0, 12), st.floats(0.05, 1.0), min_size=1, max_size=5)


def normalised(d: dict[int, float]) -> dict[int, float]:
    total = sum(d.values())
    return {k: p / total for k, p in d.items()}


def brute_shares(final: int, mover: int, others: list[dict[int, float]]) -> list[float]:
    """Each player's chance to win when the mover ends on ``final``: every combination of the
    others' scores, ties shared."""
    out = [0.0] * (len(others) + 1)
    for combo in itertools.product(*(d.items() for d in others)):
        scores = [k for k, _ in combo]
        scores.insert(mover, final)
        top = max(scores)
        winners = [i for i, s in enumerate(scores) if s == top]
        chance = math.prod(p for _, p in combo)
        for w in winners:
            out[w] += chance / len(winners)
    return out


def as_dist(d: dict[int, float]) -> tuple[int, np.ndarray]:
    lo, hi = min(d), max(d)
    probs = np.zeros(hi - lo + 1)
    for k, p in d.items():
        probs[k - lo] = p
    return lo, probs


@settings(max_examples=60, deadline=None)
@given(others=st.lists(small_dist, min_size=1, max_size=4), data=st.data())
def test_win_weights_match_every_combination(others, data):
    others = [normalised(d) for d in others]
    mover = data.draw(st.integers(0, len(others)))
    dists = [as_dist(d) for d in others]
    dists.insert(mover, (0, np.ones(1)))  # ignored
    weights = win_weights(dists, mover)
    for final in range(-2, 16):
        got = weights.of((final, np.ones(1)))
        assert got == pytest.approx(brute_shares(final, mover, others), abs=1e-12)
        assert got.sum() == pytest.approx(1.0, abs=1e-12)
    # A mixture of finals is the mixture of their chances.
    mix = (3, np.array([0.25, 0.0, 0.5, 0.25]))
    want = sum(p * np.array(brute_shares(3 + t, mover, others)) for t, p in enumerate(mix[1]))
    assert weights.of(mix) == pytest.approx(want, abs=1e-12)


def test_scores_beyond_everyone_elses_lose_or_win_for_sure():
    """(The fallback's fitted distributions reach below 0.)"""
    weights = win_weights([(0, np.ones(1)), (10, np.array([0.5, 0.5])), (8, np.ones(1))], 0)
    for far in (-400, 7, 12, 900):
        assert list(weights.of((far, np.ones(1)))) == pytest.approx(
            [0.0, 1.0, 0.0] if far < 8 else [1.0, 0.0, 0.0], abs=1e-15)


# --- a turn against brute force over real scorecards ------------------------------------------


class BruteTurn:
    """Every player's chance at every moment of the mover's turn, played for the mover's chance:
    real scorecards (``brute.after_scoring``), every keep's re-roll outcomes enumerated, plain
    Python. ``future(card)``: the points to come after the turn, as a dict."""

    def __init__(self, card: Scorecard, mover: int, others: list[dict[int, float]], future):
        self.card, self.mover, self.others, self.future = card, mover, others, future
        self.banked = CardState.of(card).banked
        self.shares = cache(lambda final: brute_shares(final, mover, others))
        self.value = cache(self._value)

    def box(self, dice: tuple[int, ...], box: str) -> list[float]:
        gain, child = after_scoring(self.card, dice, box)
        out = [0.0] * (len(self.others) + 1)
        for t, p in self.future(child).items():
            for i, s in enumerate(self.shares(self.banked + int(gain) + t)):
                out[i] += p * s
        return out

    def boxes(self, dice: tuple[int, ...]) -> dict[str, list[float]]:
        return {slot.box: self.box(dice, slot.box) for slot in self.card.legal_slots(dice)}

    def hold(self, kept: tuple[int, ...], left: int) -> list[float]:
        out = [0.0] * (len(self.others) + 1)
        for rest in itertools.combinations_with_replacement(range(1, 7), 5 - len(kept)):
            p = probability(rest)
            for i, v in enumerate(self.value(tuple(sorted(kept + rest)), left - 1)):
                out[i] += p * v
        return out

    def holds(self, dice: tuple[int, ...], left: int) -> dict[tuple[int, ...], list[float]]:
        kept = {tuple(sorted(d for i, d in enumerate(dice) if m >> i & 1)) for m in range(32)}
        return {k: self.hold(k, left) for k in kept}

    def _value(self, dice: tuple[int, ...], left: int) -> list[float]:
        options = list(self.boxes(dice).values())
        if left:
            options += [v for k, v in self.holds(dice, left).items() if len(k) < 5]
        return max(options, key=lambda v: v[self.mover])

    def start(self) -> list[float]:
        out = [0.0] * (len(self.others) + 1)
        for p, dice in zip(FIRST, ROLLS, strict=True):
            for i, v in enumerate(self.value(dice, 2)):
                out[i] += p * v
        return out


def finished(_: Scorecard) -> dict[int, float]:
    return {0: 1.0}


def check_turn(card, mover, others, future_dict, future_keys, rng):
    adv = advisor(card.ruleset)
    state = CardState.of(card)
    dists = [as_dist(d) for d in others]
    dists.insert(mover, (0, np.ones(1)))
    turn = TurnChances(adv, state, mover, PointsPlay(win_weights(dists, mover), future_keys))
    brute = BruteTurn(card, mover, others, future_dict)
    assert turn.start == pytest.approx(brute.start(), abs=1e-9)
    assert turn.start.sum() == pytest.approx(1.0, abs=1e-9)
    for _ in range(4):
        dice = tuple(rng.randint(1, 6) for _ in range(5))
        for left in (0, 1, 2):
            got_boxes = turn.boxes(dice)
            want_boxes = brute.boxes(dice)
            assert set(got_boxes) == set(want_boxes)
            for box, v in want_boxes.items():
                assert got_boxes[box] == pytest.approx(v, abs=1e-9)
            if left:
                got_holds = turn.holds(dice, left)
                for kept, v in brute.holds(dice, left).items():
                    assert got_holds[kept] == pytest.approx(v, abs=1e-9)
            # The position's chances are its best option's; the best option is one of them.
            best = brute.value(tuple(sorted(dice)), left)
            assert turn.after_roll(dice, left) == pytest.approx(best, abs=1e-9)
            option = turn.best(dice, left)
            value = got_boxes[option] if isinstance(option, str) else got_holds[option]
            assert value[mover] == pytest.approx(best[mover], abs=1e-9)


def opponent(data: st.DataObject, around: int) -> dict[int, float]:
    """A final-score distribution near ``around``: ties and near things happen."""
    d = data.draw(st.dictionaries(st.integers(around - 10, around + 50), st.floats(0.05, 1.0),
                                  min_size=1, max_size=4))
    return normalised(d)


@settings(max_examples=6, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data(), rules=st.sampled_from(("yahtzee", "yatzy")),
       players=st.sampled_from((2, 3)))
def test_the_last_turn_matches_brute_force(data, rules, players, yahtzee_table, yatzy_table):
    card = random_card(rules, data, 1)
    banked = CardState.of(card).banked
    mover = data.draw(st.integers(0, players - 1))
    others = [opponent(data, banked) for _ in range(players - 1)]

    def futures(keys):
        assert all(k[0] == advisor(rules).tables.full for k in keys)
        return [(0, np.ones(1)) for _ in keys]

    check_turn(card, mover, others, finished, futures, random.Random(data.draw(st.integers())))


def test_a_turn_before_the_last_matches_brute_force(yahtzee_table):
    """Two boxes open: the turn leads to cards with one, whose points to come are the exact
    end game's (``final_distribution``, itself checked against brute force)."""
    ruleset = get_ruleset("yahtzee")
    filled = {b: 0 for b in ruleset.box_names if b not in ("fours", "full_house")}
    filled.update(sixes=24, fives=20, threes=9, yahtzee=50, chance=22, large_straight=40)
    card = Scorecard(ruleset)
    for box, points in filled.items():
        card.fill(box, 0, points)
    adv = advisor("yahtzee")
    banked = CardState.of(card).banked

    def future_dict(child: Scorecard) -> dict[int, float]:
        if child.is_full:
            return {0: 1.0}
        s = CardState.of(child)
        lo, probs = final_distribution(adv, CardState(s.mask, s.upper, s.yahtzee_50))
        return {lo + t: float(p) for t, p in enumerate(probs) if p > 0}

    def futures(keys):
        return [(0, np.ones(1)) if k[0] == adv.tables.full
                else final_distribution(adv, CardState(k[0], k[1], bool(k[2]))) for k in keys]

    others = [{banked + 30: 0.5, banked + 45: 0.3, banked + 70: 0.2}]
    check_turn(card, 1, others, future_dict, futures, random.Random(7))


# --- in a game: the standings, the review, the bot --------------------------------------------


def test_a_box_scored_stands_as_the_standings_say(yahtzee_table):
    """Once a box is scored, its chances are the live standings' (the same distributions)."""
    game = Game("yahtzee", ["a", "b", "c"], rng=random.Random(5))
    standings = Standings(game.ruleset)
    live = Standings(game.ruleset)
    while not game.is_over:
        states = [CardState.of(c) for c in game.scorecards]
        weights = win_weights([standings.distribution(p, s) for p, s in enumerate(states)],
                              game.current_player)
        turn = TurnChances(standings.adv, states[game.current_player], game.current_player,
                           PointsPlay(weights, standings.points_to_come))
        # The mover's chance before the turn is at least what playing it for points gives,
        # where both are exact (before, the two may come from different estimates: the
        # session has no score table, so the standings fit the mover's whole distribution).
        before = live.of(game.scorecards)[game.current_player]
        if before.exact:
            assert turn.start[game.current_player] >= before.chance - 1e-7
        while True:
            action = choose_action(game, "optimal")
            if not hasattr(action, "box"):
                game.roll(action.hold)
                continue
            scored = turn.boxes(tuple(game.dice))[action.box]
            game.score(action.box)
            break
        after = [s.chance for s in live.of(game.scorecards)]
        assert scored == pytest.approx(after, abs=1e-6)


@pytest.mark.parametrize(("rules", "lineup", "seed"), [
    ("yahtzee", ("easy", "optimal"), 3),
    ("yatzy", ("optimal", "medium", "easy"), 4),
])
def test_the_review_chain_in_chances(rules, lineup, seed, yahtzee_table, yatzy_table):
    """Per player: start + luck − loss + others + drift = the outcome (1, 0 or a tie's share);
    every decision's chance loss ≥ 0; between turns the chain stands where the live standings
    do (the review's turn-start series)."""
    game, by = bot_game(rules, lineup, seed)
    analysis = analyse(game.events, by)
    winners = set(game.winners)
    for p, summary in enumerate(analysis.players):
        c = summary.chance
        outcome = 1 / len(winners) if p in winners else 0.0
        assert c.final == pytest.approx(outcome, abs=1e-9)
        assert c.start + c.luck - c.loss + c.others + c.drift == pytest.approx(outcome, abs=1e-9)
        assert c.start == pytest.approx(1 / len(lineup), abs=1e-9)
        assert c.loss == pytest.approx(sum(d.chance.chosen - d.chance.best for d in
                                           analysis.decisions if d.player == p) * -1, abs=1e-9)
    assert all(d.chance.loss >= 0 for d in analysis.decisions)
    # The optimal bot plays for points: its chance loss is small but need not be 0.
    assert sum(d.chance.loss for d in analysis.decisions) > 0
    # The turn-start series (the live standings) sum to 1 and start even.
    for _, cs in analysis.chances:
        assert sum(cs) == pytest.approx(1.0, abs=1e-9)
    data = json.loads(json.dumps(analysis.to_dict()))
    for p in data["players"]:
        c = p["chance"]
        assert c["start"] + c["luck"] - c["loss"] + c["others"] + c["drift"] == pytest.approx(
            c["final"], abs=6e-6)
    for d in data["decisions"]:
        assert d["chance_loss"] == pytest.approx(d["chance_best"] - d["chance_chosen"], abs=2e-6)
        assert "best_to_win" in d
    assert all("chance_luck" in r for r in data["rolls"])


def test_no_chances_alone_or_in_triple(yahtzee_table):
    for rules, lineup in (("yahtzee", ("easy",)), ("triple", ("easy", "easy"))):
        game, by = bot_game(rules, lineup, 2)
        data = analyse(game.events, by).to_dict()
        assert all(p["chance"] is None for p in data["players"])
        assert not any("chance_loss" in d for d in data["decisions"])


def test_the_to_win_bot_plays_legal_games(yahtzee_table, yatzy_table):
    for rules in ("yahtzee", "yatzy", "triple"):
        game, _ = bot_game(rules, ("to_win", "optimal"), 8)
        assert game.is_over
    # Alone it has nobody to beat: it plays for points, as the optimal bot does.
    alone, _ = bot_game("yahtzee", ("to_win",), 9)
    optimal, _ = bot_game("yahtzee", ("optimal",), 9)
    assert [c.total for c in alone.scorecards] == [c.total for c in optimal.scorecards]
