"""The to-win bot that plays every turn for the win (game.ai.ahead): its turn against brute
force over real scorecards (the ceiling's part from ``brute_targets``), the largest of the
opponents' scores, the ceiling tables mapped from disk, and the fallback without them."""

from __future__ import annotations

import itertools
import random
from functools import cache

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.ai import CardState, Standings, advisor, ceiling, to_win
from game.ai.ahead import (
    PROGRESS,
    AheadEnds,
    ahead_turn,
    best_of,
    ceiling_chances,
    ceiling_share,
)
from game.ai.ahead import choose as ahead_choose
from game.ai.distribution import final_distribution
from game.ai.targets import solve
from game.ai.to_win import PointsPlay, TurnChances, win_weights
from game.rules import Game, Scorecard

from .brute import FIRST, ROLLS, after_scoring, future_distribution, probability
from .brute_targets import best_chances
from .positions import END_GAMES, YATZY, card
from .test_to_win import as_dist, brute_shares, normalised, small_dist

#: Targets asked of the brute force: every number a card with one box open can still need.
WIDTH = 160


@pytest.fixture(scope="module")
def tables(yahtzee_table, yatzy_table):
    """Ties as halves, states with up to two boxes open (room kept for every target asked)."""
    return {rules: solve(advisor(rules).solution, 600, 0.5, max_open=2)
            for rules in ("yahtzee", "yatzy")}


@settings(max_examples=60, deadline=None)
@given(dists=st.lists(small_dist, min_size=1, max_size=3), shift=st.integers(-5, 5))
def test_the_best_of_independent_scores(dists, shift):
    dists = [normalised(d) for d in dists]
    want: dict[int, float] = {}
    for combo in itertools.product(*(d.items() for d in dists)):
        top = max(k for k, _ in combo) + shift
        want[top] = want.get(top, 0.0) + float(np.prod([p for _, p in combo]))
    lo, probs = best_of([(lo + shift, p) for lo, p in map(as_dist, dists)])
    got = {lo + k: p for k, p in enumerate(probs) if abs(p) > 1e-15}
    assert got.keys() == want.keys()
    for k, p in want.items():
        assert got[k] == pytest.approx(p, abs=1e-12)


def test_the_ceilings_chance_weighs_each_target_by_its_chance(tables):
    """Σ_T P(T) · chance(T − banked), sure below 0 and out of reach past the table."""
    table = tables["yatzy"]
    key = CardState.of(card(*END_GAMES[5])).key
    target = (30, np.array([0.25, 0.0, 0.5, 0.25]))
    banked = np.array([-700, 0, 17, 31, 33, 900])
    got = ceiling_chances(table, key, banked, target)
    want = [sum(p * table.chance(key, 30 + t - b) for t, p in enumerate(target[1]))
            for b in banked]
    assert got == pytest.approx(want, abs=1e-12)
    assert got[0] == 0.0 and got[-1] == 1.0 and 0 < got[2] < 1


class BruteAhead:
    """The mover's chance at every moment of their turn heads-up when the card a box leaves is
    worth ``mix`` × the best chance to finish above the opponent's final T (``brute_targets``,
    T as if known) + (1 − ``mix``) × the chance when the rest is played for points
    (``brute.future_distribution``, against T's distribution); plain Python over real
    scorecards, every keep's re-roll enumerated."""

    def __init__(self, c: Scorecard, target: dict[int, float], mix: float) -> None:
        self.card, self.target, self.mix = c, target, mix
        self.banked = CardState.of(c).banked
        self.value = cache(self._value)

    def box(self, dice: tuple[int, ...], box: str) -> float:
        gain, child = after_scoring(self.card, dice, box)
        total = self.banked + int(gain)
        row = np.zeros(WIDTH) if child.is_full else best_chances(child, WIDTH, 0.5)
        high = 0.0
        for t, p in self.target.items():
            need = t - total
            high += p * (1.0 if need < 0 else (0.5 if child.is_full and need == 0
                                               else row[need] if need < WIDTH else 0.0))
        low = sum(p * brute_shares(total + x, 0, [self.target])[0]
                  for x, p in future_distribution(child).items())
        return self.mix * high + (1 - self.mix) * low

    def boxes(self, dice: tuple[int, ...]) -> dict[str, float]:
        return {slot.box: self.box(dice, slot.box) for slot in self.card.legal_slots(dice)}

    def hold(self, kept: tuple[int, ...], left: int) -> float:
        return sum(probability(rest) * self.value(tuple(sorted(kept + rest)), left - 1)
                   for rest in itertools.combinations_with_replacement(range(1, 7),
                                                                       5 - len(kept)))

    def _value(self, dice: tuple[int, ...], left: int) -> float:
        options = list(self.boxes(dice).values())
        if left:
            kept = {tuple(sorted(d for i, d in enumerate(dice) if m >> i & 1))
                    for m in range(31)}
            options += [self.hold(k, left) for k in kept]
        return max(options)

    def start(self) -> float:
        return sum(p * self.value(dice, 2) for p, dice in zip(FIRST, ROLLS, strict=True))


# (END_GAMES index, the opponent's final scores relative to the mover's banked points):
# two boxes open, the yahtzee bonus on (yahtzee), two pair boxes (yatzy).
TURNS = [(4, {20: 0.3, 45: 0.5, 80: 0.2}), (5, {8: 0.6, 20: 0.4})]


@pytest.mark.parametrize(("game", "around"), TURNS)
@pytest.mark.parametrize("mix", [1.0, 0.5])
def test_a_turn_played_ahead_matches_brute_force(tables, game, around, mix):
    rules, filled = END_GAMES[game]
    c = card(rules, filled)
    adv = advisor(rules)
    state = CardState.of(c)
    target = {state.banked + t: p for t, p in around.items()}
    dists = [as_dist(target), (0, np.ones(1))]

    def futures(keys):
        return [(0, np.ones(1)) if k[0] == adv.tables.full
                else final_distribution(adv, CardState(k[0], k[1], bool(k[2]))) for k in keys]

    points = PointsPlay(win_weights(dists, 1), futures)
    turn = TurnChances(adv, state, 0, AheadEnds(tables[rules], dists[0], points, 1, mix))
    brute = BruteAhead(c, target, mix)
    assert turn.start[0] == pytest.approx(brute.start(), abs=1e-6)  # float32 rows
    rng = random.Random(game)
    for _ in range(3):
        dice = tuple(rng.randint(1, 6) for _ in range(5))
        for left in (0, 1, 2):
            got = turn.boxes(dice)
            assert {b: v[0] for b, v in got.items()} == pytest.approx(brute.boxes(dice),
                                                                       abs=1e-6)
            if left:
                holds = turn.holds(dice, left)
                for kept, v in holds.items():
                    assert v[0] == pytest.approx(brute.hold(kept, left), abs=1e-6)
            best = brute.value(tuple(sorted(dice)), left)
            assert turn.after_roll(dice, left)[0] == pytest.approx(best, abs=1e-6)
            option = turn.best(dice, left)
            chosen = got[option] if isinstance(option, str) else holds[option]
            assert chosen[0] == pytest.approx(best, abs=1e-6)


def test_the_ceiling_counts_alone_once_the_opponent_is_done(tables):
    """The opponent's final known, the turn's start is the table's own best chance (whatever
    the mix): the turn's programme over the table's rows is the table's."""
    rules, filled = END_GAMES[5]
    mine = card(rules, filled)
    theirs = card(rules, {**{b: 0 for b in mine.ruleset.box_names}, "chance": 20})
    states = [CardState.of(mine), CardState.of(theirs)]
    standings = Standings(mine.ruleset)
    table = tables[rules]
    turn = ahead_turn(standings, table, states, 0, mix=0.0)
    need = states[1].banked - states[0].banked
    assert 0 < table.chance(states[0].key, need) < 1
    assert turn.start[0] == pytest.approx(table.chance(states[0].key, need), abs=1e-6)


def test_the_ceilings_share_is_the_least_advanced_opponents_share_of_boxes_filled():
    boxes = [card("yatzy", {b: 0 for b in YATZY[:k]}) for k in (2, 9, 5)]
    states = [CardState.of(c) for c in boxes]
    n = len(YATZY)
    assert ceiling_share(PROGRESS, states, 0, n) == 5 / n  # the mover's own card left out
    assert ceiling_share(PROGRESS, states, 2, n) == 2 / n
    assert ceiling_share(PROGRESS, states[:2], 1, n) == 2 / n
    assert ceiling_share(0.25, states, 0, n) == 0.25


def test_by_default_a_turn_is_played_with_the_opponents_progress_as_the_ceilings_share(tables):
    """The default mix is the share of their boxes the opponent has filled: the turn is the one
    played with that share, and neither the points' (0) nor the ceiling's alone (1)."""
    rules, filled = END_GAMES[5]
    mine = card(rules, filled)
    names = mine.ruleset.box_names
    # Two boxes open each, all else scored 0: either can win.
    theirs = card(rules, {b: 0 for b in names if b not in ("chance", "one_pair")})
    states = [CardState.of(mine), CardState.of(theirs)]
    standings = Standings(mine.ruleset)
    table = tables[rules]
    default = ahead_turn(standings, table, states, 0).start[0]
    assert 0.05 < default < 0.95
    share = (len(names) - 2) / len(names)
    assert default == ahead_turn(standings, table, states, 0, mix=share).start[0]
    for end in (0.0, 1.0):
        assert abs(default - ahead_turn(standings, table, states, 0, mix=end).start[0]) > 1e-6


def test_a_table_is_mapped_from_its_file(tables, tmp_path, monkeypatch):
    solution = advisor("yatzy").solution
    monkeypatch.setattr(ceiling, "strategy_dir", lambda: tmp_path)
    ceiling.forget_loaded()
    assert ceiling.loaded(solution) is None  # nothing on disk
    table = tables["yatzy"]
    path = ceiling.ceiling_path(solution.tables.ruleset, 0.5)
    ceiling.save(path, solution, table, np.ones(1), 1.0)
    assert ceiling.load(path, solution, 0.0) is None  # another tie convention's fingerprint
    mapped = ceiling.loaded(solution)
    assert mapped is not None and isinstance(mapped.values, np.memmap)
    for name in ("row", "start", "lo", "values"):
        assert np.array_equal(getattr(mapped, name), getattr(table, name))
    assert (mapped.tie, mapped.most) == (table.tie, table.most)
    assert ceiling.loaded(solution) is mapped  # once per process
    ceiling.forget_loaded()
    path.write_bytes(b"not a table")
    assert ceiling.loaded(solution) is None
    ceiling.forget_loaded()


def test_without_a_table_it_plays_as_the_to_win_bot(yahtzee_table, tmp_path, monkeypatch):
    monkeypatch.setattr(ceiling, "strategy_dir", lambda: tmp_path)
    ceiling.forget_loaded()
    game = Game("yahtzee", ["a", "b"], rng=random.Random(11))
    moves = 0
    while not game.is_over:
        if game.dice is None:
            game.roll(())
            continue
        action = ahead_choose(game)
        if game.current_player == 0:
            assert action == to_win.choose(game)
            moves += 1
        else:
            action = to_win.choose(game)
        game.play(action)
    assert moves > 13
