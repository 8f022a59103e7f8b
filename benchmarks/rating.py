"""Benchmark of the rating (``game.ratings``; not a test): the rating of winning
(``game.ratings.wins``) against today's points-based rating (``game.ratings.rating``) and
plain Glicko-2 on wins and losses — how well each predicts who wins held-out games, how many
games it needs to settle — and the computer levels' anchors.

    # the anchors: heads-up win rates of optimal, medium and easy (to_win's: benchmarks/to_win.py)
    STRATEGY_DIR=var/strategy nice -n 19 .venv/bin/python benchmarks/rating.py --anchor-games 8000
    # reviewed heads-up games, every pair of strengths (cached; stop it any time)
    STRATEGY_DIR=var/strategy nice -n 19 .venv/bin/python benchmarks/rating.py --duels 200
    # the prediction test on them (with the points control, precision weight and lean compared)
    STRATEGY_DIR=var/strategy nice -n 19 .venv/bin/python benchmarks/rating.py --predict \
        --populations 2000 --rounds 200 --sizes 2 4 6 --weights 1 --controls 0.0046 \
        --precision 0.15 --leans 0
    # the same, brief: the site's rating beside other lean shapes and options, another seed
    STRATEGY_DIR=var/strategy nice -n 19 .venv/bin/python benchmarks/rating.py --predict \
        --brief --populations 2000 --rounds 200 --sizes 2 4 6 --seed 8 \
        --variants lean=50,full=110,floor=0.2 lean=0,full=350,floor=0,control=0.0046,reference=0.15
    # the points-based rating's own benchmark (order by mean final score) and calibration
    STRATEGY_DIR=var/strategy nice -n 19 .venv/bin/python benchmarks/rating.py \
        --populations 1000 --rounds 600 --points 10 20 40

Strengths: the optimal bot; the optimal bot with decision noise (each decision drawn from a
softmax over the options' expected final scores at temperature T points); medium; easy; the
to-win bot.

**Duels** (``--duels``): the rating of winning needs every game's chances to win, decision by
decision, and those depend on both players' cards, so each game is a real heads-up game
between two strengths (both seat orders in turn), played to the end and reviewed by
``review.analyse`` itself: per seat the final score, Σ luck and Σ loss in points, the share of
the win, and the chance chain (start, luck, loss, others, drift). About 1.2–2 s of CPU a game
(the review's one ``TurnChances`` per turn, and the to-win bot's own). Cached per pair in
``var/rating/``.

**The prediction test** (``--predict``): each pair's duels are split, the first half to train,
the second held out. A population: ``size`` players of distinct strengths, all unrated,
paired at random each round (one game per player per round, drawn from the pair's training
duels), rated after every game by each method side by side; after k games per player each
method predicts every held-out duel between the population's players (Glicko's expected
score with both deviations), scored by log-loss. The rating of winning is run as the site
runs it (the plain share) and with the options of ``game.ratings.wins`` (``--controls``,
``--precision``, ``--leans``: the points control, the precision weight, the lean on the points
while a rating is uncertain; each player's usual points and loss the mean of their earlier
games in the population), to show what each does. The to-win bot's place against the optimal
bot is reported where a population holds both. Games to settle: games per
player from which 95 % of the populations have every pair whose true win rate is at least
5 % from even in the right order (true rates: ``true_win_rates``). Games of more than two
players (``--sizes`` above 2): the strengths that play for their own score, each player drawing one
seat of a training duel of its strength (a solitaire game), rated on wins or points with whole
or weighted pairs.

**The points-based benchmark** (no ``--duels``/``--predict``/``--anchor-games``): in yahtzee
and yatzy the dice and choices of a bot playing for its own score do not depend on the other
players, so a heads-up game is two independent solitaire games: the pool is one set of
solitaire games per strength, played once and cached in ``var/rating/``, and each simulated
game draws one game of each player's strength from it. The to-win bot's pooled games are its
seat of heads-up games against the optimal bot, first and last in turn. Each pooled game
carries the review's numbers — final score, Σ luck, Σ loss — computed while playing from the
same valuation as ``game.ai.review`` (``--check`` replays a few through ``review.analyse``).
The true order is by the pool's mean final score; reported: the games per player after which
the ratings' order equals it in at least 95 % of the populations (and stays so).
"""

from __future__ import annotations

import argparse
import math
import os
import random
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from game.ratings import (  # noqa: E402
    Rating,
    adjusted_score,
    glicko2,
    wins,
)
from game.ratings.rating import POINTS_PER_400  # noqa: E402

POOL_DIR = ROOT / "var" / "rating"
#: Strength name → softmax temperature (expected points) of the optimal bot's decisions;
#: None for the bots of ``game.ai`` (optimal, to_win, medium, easy).
STRENGTHS: dict[str, float | None] = {
    "optimal": None, "to_win": None, "noise-0.7": 0.7, "medium": None, "easy": None,
    "noise-2": 2.0, "noise-4": 4.0,
}
#: Strengths whose play depends on the other players: pooled as their seat of a heads-up game
#: against the optimal bot, first and last in turn (alone, the to-win bot plays as the optimal
#: one).
HEADS_UP = ("to_win",)


# --- the pool of reviewed solitaire games ---------------------------------------------------

@dataclass
class Played:
    final: int
    luck: float
    loss: float
    expected_start: float
    events: list
    seat: int = 0  # the strength's seat in ``events``


def play(rules: str, strength: str, rng: random.Random, seat: int = 0) -> Played:
    """One game at ``strength``, with its review's luck and loss: solitaire, or for a
    ``HEADS_UP`` strength its ``seat`` of a game against the optimal bot."""
    from game.ai import choose_action
    from game.ai.actions import Roll
    from game.ai.advice import CardState, advisor
    from game.ai.multisets import INDEX, best_hold_values, hold_values, positions_for, sub_holds
    from game.ai.solver import last_roll_values
    from game.rules import Game

    adv = advisor(rules)
    temperature = STRENGTHS[strength]
    names = ["bot"]
    if strength in HEADS_UP:
        names.insert(1 - seat, "optimal")
    game = Game(rules, names, rng=rng)
    start = adv.expected_score(CardState.empty())
    loss = 0.0
    while not game.is_over:
        if game.current_player != seat:
            move = choose_action(game, "optimal")
            if isinstance(move, Roll):
                game.roll(move.hold)
            else:
                game.score(move.box)
            continue
        if game.dice is None:
            game.roll()
            state = CardState.of(game.scorecard)
            # The holds' values with one and two rolls to come, as the review computes them.
            m, u, y = (np.array([v], dtype=np.intp) for v in state.key)
            one = hold_values(last_roll_values(adv.tables, adv.solution.values, m, u, y))
            levels = {1: one, 2: hold_values(best_hold_values(one))}
            continue
        dice = tuple(game.dice)
        # The options as the review values them: every box, and every hold short of all five.
        options: dict[tuple[int, ...] | str, float] = {
            c.box: c.expected for c in adv.box_choices(state, dice) if c.box is not None}
        if game.rolls_left:
            level = levels[game.rolls_left]
            options.update({h: state.banked + float(level[len(h)][INDEX[len(h)][h], 0])
                            for h in sub_holds(dice) if len(h) < 5})
        top = max(options.values())
        chosen: tuple[int, ...] | str
        if temperature is None and strength != "optimal":  # a bot of game.ai
            action = choose_action(game, strength, rng)
            if isinstance(action, Roll):
                chosen = tuple(sorted(dice[i] for i in action.hold))
            else:
                chosen = action.box
        elif temperature is None:
            chosen = max(options, key=lambda o: options[o])
        else:
            keys = list(options)
            weights = [math.exp((options[k] - top) / temperature) for k in keys]
            chosen = rng.choices(keys, weights)[0]
        loss += top - options[chosen]
        if isinstance(chosen, str):
            game.score(chosen)
        else:
            game.roll(positions_for(dice, chosen))
    final = game.scorecards[seat].total
    return Played(final, final - start + loss, loss, start, game.events, seat)


def pool(rules: str, strength: str, games: int, seed: int = 1) -> np.ndarray:
    """(games, 3): final, luck, loss of ``games`` solitaire games (cached in var/rating)."""
    path = POOL_DIR / f"{rules}-{strength}-{games}-{seed}.npy"
    if path.exists():
        return np.load(path)
    if strength == "optimal":
        from game.ai.advice import CardState, advisor
        from game.ai.simulation import play_out

        adv = advisor(rules)
        finals = play_out(adv, CardState.empty(), games, np.random.default_rng(seed))
        found = np.stack([finals, finals - adv.expected_score(CardState.empty()),
                          np.zeros(games)], axis=1)
        POOL_DIR.mkdir(parents=True, exist_ok=True)
        np.save(path, found)
        return found
    rng = random.Random(f"{rules}/{strength}/{seed}")
    rows = []
    start = time.perf_counter()
    for i in range(games):
        p = play(rules, strength, rng, i % 2 if strength in HEADS_UP else 0)
        rows.append((p.final, p.luck, p.loss))
        if (i + 1) % 50 == 0:
            print(f"  {rules} {strength}: {i + 1}/{games} games "
                  f"({time.perf_counter() - start:.0f} s)", file=sys.stderr, flush=True)
    found = np.array(rows, dtype=float)
    POOL_DIR.mkdir(parents=True, exist_ok=True)
    np.save(path, found)
    return found


def check_against_review(rules: str, games: int, strengths: list[str]) -> float:
    """Largest difference between the luck and loss computed while playing and the review's."""
    from game.ai.review import analyse

    worst = 0.0
    for strength in strengths:
        rng = random.Random(f"check/{rules}/{strength}")
        for i in range(games):
            p = play(rules, strength, rng, i % 2 if strength in HEADS_UP else 0)
            s = analyse(p.events).players[p.seat]
            assert s.final == p.final
            worst = max(worst, abs(s.luck - p.luck), abs(s.loss - p.loss),
                        abs(s.expected_start - p.expected_start))
    return worst


# --- reviewed heads-up games: every seat's chance to win, luck and decisions apart ----------
#
# The new rating needs each game's chances to win, decision by decision (``review.analyse``'s
# ``chance`` chain per player): they depend on both players' cards, so they cannot come from
# the solitaire pool. The duel pool is a set of real heads-up games per pair of strengths
# (both seat orders in turn), each played to the end and reviewed by ``review.analyse`` itself
# (no shortcut: the numbers are the ones a stored review of the game carries).

#: Per seat of a reviewed duel: final score, Σ luck and Σ loss (points), the share of the win
#: (1, 0, ½), and the chance chain's start, luck, loss, others, drift.
DUEL_FIELDS = ("final", "luck", "loss", "share", "c_start", "c_luck", "c_loss", "c_others",
               "c_drift")


def _decide(game, strength: str, rng: random.Random, turn: dict):
    """The move of ``strength`` for the player to move in ``game`` (dice rolled): a bot of
    ``game.ai``, or the optimal bot's options drawn by softmax at the strength's temperature
    (``turn`` keeps the turn's hold values)."""
    from game.ai import choose_action
    from game.ai.actions import Roll, Score
    from game.ai.advice import CardState, advisor
    from game.ai.multisets import INDEX, best_hold_values, hold_values, positions_for, sub_holds
    from game.ai.solver import last_roll_values

    temperature = STRENGTHS[strength]
    if temperature is None:
        return choose_action(game, strength, rng)
    adv = advisor(game.ruleset)
    state = CardState.of(game.scorecard)
    if turn.get("key") != (game.current_player, state.key):
        m, u, y = (np.array([v], dtype=np.intp) for v in state.key)
        one = hold_values(last_roll_values(adv.tables, adv.solution.values, m, u, y))
        turn.update(key=(game.current_player, state.key),
                    levels={1: one, 2: hold_values(best_hold_values(one))})
    dice = tuple(game.dice)
    options: dict[tuple[int, ...] | str, float] = {
        c.box: c.expected for c in adv.box_choices(state, dice) if c.box is not None}
    if game.rolls_left:
        level = turn["levels"][game.rolls_left]
        options.update({h: state.banked + float(level[len(h)][INDEX[len(h)][h], 0])
                        for h in sub_holds(dice) if len(h) < 5})
    top = max(options.values())
    keys = list(options)
    chosen = rng.choices(keys, [math.exp((options[k] - top) / temperature) for k in keys])[0]
    if isinstance(chosen, str):
        return Score(chosen)
    return Roll(positions_for(dice, chosen))


def duel(rules: str, first: str, second: str, rng: random.Random) -> np.ndarray:
    """One heads-up game, ``first`` against ``second``, reviewed: (2 seats, DUEL_FIELDS)."""
    from game.ai.actions import Roll
    from game.ai.review import analyse
    from game.rules import Game

    game = Game(rules, [first, second], rng=rng)
    strengths = (first, second)
    turn: dict = {}
    while not game.is_over:
        if game.dice is None:
            game.roll()
            continue
        assert game.current_player is not None
        move = _decide(game, strengths[game.current_player], rng, turn)
        if isinstance(move, Roll):
            game.roll(move.hold)
        else:
            game.score(move.box)
    review = analyse(game.events)
    rows = []
    for p in review.players:
        c = p.chance
        assert c is not None
        rows.append((p.final, p.luck, p.loss, c.final, c.start, c.luck, c.loss, c.others,
                     c.drift))
    return np.array(rows, dtype=float)


def duel_path(rules: str, a: str, b: str, seed: int) -> Path:
    return POOL_DIR / f"{rules}-duels-{a}-{b}-{seed}.npy"


def duels(rules: str, a: str, b: str, seed: int = 1) -> np.ndarray:
    """The reviewed duels of ``a`` against ``b`` cached so far: (games, 2, DUEL_FIELDS), ``a``
    in seat 0 of the array whichever seat it played."""
    path = duel_path(rules, a, b, seed)
    return np.load(path) if path.exists() else np.zeros((0, 2, len(DUEL_FIELDS)))


def build_duels(rules: str, strengths: list[str], games: int, seed: int = 1,
                save_every: int = 10) -> None:
    """Play and review ``games`` duels for every pair of ``strengths``, a round over all the
    pairs at a time (so a run stopped early leaves every pair about as many), ``a`` first in
    even games and second in odd ones; appended to the cache every ``save_every`` rounds."""
    pairs = [(a, b) for i, a in enumerate(strengths) for b in strengths[i + 1:]]
    found = {p: duels(rules, *p, seed) for p in pairs}
    pending: dict[tuple[str, str], list[np.ndarray]] = {p: [] for p in pairs}
    start = time.perf_counter()
    played = 0
    for r in range(games):
        for a, b in pairs:
            n = len(found[a, b]) + len(pending[a, b])
            if n >= games:
                continue
            rng = random.Random(f"duel/{rules}/{a}/{b}/{seed}/{n}")
            g = duel(rules, a, b, rng) if n % 2 == 0 else duel(rules, b, a, rng)[::-1]
            pending[a, b].append(g)
            played += 1
        if (r + 1) % save_every == 0 or r == games - 1:
            POOL_DIR.mkdir(parents=True, exist_ok=True)
            for p in pairs:
                if pending[p]:
                    found[p] = np.concatenate([found[p], np.stack(pending[p])])
                    pending[p] = []
                    np.save(duel_path(rules, *p, seed), found[p])
            print(f"  {rules} duels: {played} played, {min(len(f) for f in found.values())} "
                  f"per pair at least ({time.perf_counter() - start:.0f} s)",
                  file=sys.stderr, flush=True)


# --- the anchors: heads-up win rates of the computer levels ----------------------------------
#
# The optimal, medium and easy bots play for their own score, so heads-up they play as alone:
# the chance that level A beats level B is the chance that A's solitaire final beats B's. The
# optimal bot's final-score distribution is exact (the score table's, from the empty card);
# the medium and easy bots' are sampled (``bot_finals``). The to-win bot's rate against the
# optimal bot is ``benchmarks/to_win.py``'s (20,000 real heads-up games per ruleset).

#: ``benchmarks/to_win.py``, 26 Nov 2026 (docs/ai.md): the to-win bot's heads-up win rate
#: against the optimal bot, its 95 % interval, and the games.
TO_WIN_MEASURED = {"yahtzee": (0.5179, 0.5123, 0.5234, 20000),
                   "yatzy": (0.5202, 0.5147, 0.5256, 20000)}


def bot_finals(rules: str, level: str, games: int, seed: int = 1) -> np.ndarray:
    """Final scores of ``games`` solitaire games of the bot ``level`` or of a noisy strength
    (cached)."""
    from game.ai import choose_action
    from game.ai.actions import LEVELS, Roll
    from game.rules import Game

    path = POOL_DIR / f"{rules}-finals-{level}-{games}-{seed}.npy"
    if path.exists():
        return np.load(path)
    rng = random.Random(f"finals/{rules}/{level}/{seed}")
    out = []
    turn: dict = {}
    for _ in range(games):
        game = Game(rules, ["bot"], rng=rng)
        while not game.is_over:
            if game.dice is None:
                game.roll()
                continue
            move = (choose_action(game, level, rng) if level in LEVELS
                    else _decide(game, level, rng, turn))
            if isinstance(move, Roll):
                game.roll(move.hold)
            else:
                game.score(move.box)
        out.append(game.scorecards[0].total)
    found = np.array(out, dtype=float)
    POOL_DIR.mkdir(parents=True, exist_ok=True)
    np.save(path, found)
    return found


#: Optimal games sampled where the score table is not built (its exact distribution missing).
OPTIMAL_SAMPLE = 400_000


def optimal_distribution(rules: str) -> tuple[int, np.ndarray, str]:
    """The optimal bot's final-score distribution from the empty card: the score table's
    (exact) where it is built, else the frequencies of ``OPTIMAL_SAMPLE`` games played by
    ``simulation.play_out`` (the table's policy); and which."""
    from game.ai.advice import CardState, advisor
    from game.ai.simulation import play_out
    from game.ai.standings import Standings
    from game.ai.storage import score_table_ready
    from game.rules import RULESETS

    if score_table_ready(RULESETS[rules]):
        lo, probs = Standings(RULESETS[rules]).distribution(0, CardState.empty())
        return lo, np.asarray(probs, dtype=float) / float(np.sum(probs)), "exact"
    finals = play_out(advisor(rules), CardState.empty(), OPTIMAL_SAMPLE,
                      np.random.default_rng(11)).astype(int)
    lo = int(finals.min())
    counts = np.bincount(finals - lo).astype(float)
    return lo, counts / counts.sum(), f"{OPTIMAL_SAMPLE:,} optimal games sampled"


def beats_distribution(finals: np.ndarray, lo: int, probs: np.ndarray) -> np.ndarray:
    """Per final in ``finals``: the chance that a final drawn from (lo, probs) beats it, a tie
    counting half."""
    cdf = np.cumsum(probs)
    at = finals.astype(int) - lo
    below = np.where(at >= 0, cdf[np.clip(at, 0, len(cdf) - 1)], 0.0)  # P(X <= x)
    on = np.where((at >= 0) & (at < len(probs)), probs[np.clip(at, 0, len(probs) - 1)], 0.0)
    return 1 - below + on / 2


def win_rate_of_samples(a: np.ndarray, b: np.ndarray) -> tuple[float, float]:
    """P(a sample of ``a`` beats one of ``b``), ties half, over every pair, and its standard
    error (the two-sample U statistic's: var h_a / n_a + var h_b / n_b)."""
    b_sorted = np.sort(b)
    below = np.searchsorted(b_sorted, a, side="left")
    upto = np.searchsorted(b_sorted, a, side="right")
    h_a = (below + (upto - below) / 2) / len(b)  # per game of a: its chance against b
    a_sorted = np.sort(a)
    above = len(a) - np.searchsorted(a_sorted, b, side="right")
    ties = np.searchsorted(a_sorted, b, side="right") - np.searchsorted(a_sorted, b, side="left")
    h_b = (above + ties / 2) / len(a)  # per game of b: the chance a beats it
    p = float(h_a.mean())
    return p, math.sqrt(h_a.var(ddof=1) / len(a) + h_b.var(ddof=1) / len(b))


def measured_win_rates(rules: str, games: int) -> dict[tuple[str, str], tuple[float, float]]:
    """(stronger, weaker) → (heads-up win rate, standard error) for optimal, medium and easy
    (``games`` sampled games of each of medium and easy), and to_win against optimal."""
    lo, probs, how = optimal_distribution(rules)
    print(f"the optimal bot's distribution: {how}")
    medium, easy = bot_finals(rules, "medium", games), bot_finals(rules, "easy", games)
    found = {}
    for name, finals in (("medium", medium), ("easy", easy)):
        per = beats_distribution(finals, lo, probs)
        # The sampled distribution's own error (where it is sampled) is ~1/√OPTIMAL_SAMPLE of
        # the game's spread: small beside the bots' sample, and left out.
        found["optimal", name] = (float(per.mean()),
                                  float(per.std(ddof=1) / math.sqrt(len(per))))
    found["medium", "easy"] = win_rate_of_samples(medium, easy)
    p, low, high, _ = TO_WIN_MEASURED[rules]
    found["to_win", "optimal"] = (p, (high - low) / (2 * 1.96))
    return found


def fitted_anchors(rates: dict[tuple[str, str], tuple[float, float]]
                   ) -> dict[str, tuple[float, float]]:
    """Each level's anchor and its standard error: medium at 1500, optimal and easy by least
    squares over the three measured gaps between them (each weighted by its variance), the
    to-win bot at optimal + its measured gap."""
    from game.ratings.wins import rating_gap

    def gap(p: float, se: float) -> tuple[float, float]:
        return rating_gap(p), 400 / math.log(10) * se / (p * (1 - p))

    (g_om, s_om), (g_oe, s_oe), (g_me, s_me) = (gap(*rates[k]) for k in (
        ("optimal", "medium"), ("optimal", "easy"), ("medium", "easy")))
    # Unknowns x = (optimal − 1500, 1500 − easy): g_om = x0, g_oe = x0 + x1, g_me = x1.
    a = np.array([[1.0, 0.0], [1.0, 1.0], [0.0, 1.0]])
    w = np.diag([1 / s_om ** 2, 1 / s_oe ** 2, 1 / s_me ** 2])
    cov = np.linalg.inv(a.T @ w @ a)
    x = cov @ a.T @ w @ np.array([g_om, g_oe, g_me])
    g_to, s_to = gap(*rates["to_win", "optimal"])
    optimal = 1500 + x[0]
    return {"to_win": (optimal + g_to, math.sqrt(cov[0, 0] + s_to ** 2)),
            "optimal": (optimal, math.sqrt(cov[0, 0])), "medium": (1500.0, 0.0),
            "easy": (1500 - x[1], math.sqrt(cov[1, 1]))}


# --- rating populations ---------------------------------------------------------------------
#
# Thousands of populations are rated side by side: every player of every population plays one
# game a round, so one round is one Glicko-2 update of arrays (population, player), the same
# arithmetic as ``game.ratings.glicko2.update`` for a period of one game (``check_vectorised``
# compares them).

Scores = Callable[[np.ndarray, np.ndarray], np.ndarray]


def plain_scores(mine: np.ndarray, theirs: np.ndarray) -> np.ndarray:
    """Plain Glicko-2's result: a win, a draw or a loss on the final scores."""
    return (np.sign(mine[..., 0] - theirs[..., 0]) + 1) / 2


def adjusted_wins(mine: np.ndarray, theirs: np.ndarray) -> np.ndarray:
    """A win, a draw or a loss on the luck-adjusted results (not graded)."""
    lead = (mine[..., 0] - mine[..., 1]) - (theirs[..., 0] - theirs[..., 1])
    return (np.sign(np.round(lead, 6)) + 1) / 2


def adjusted_scores(points_per_400: float) -> Scores:
    """The luck-adjusted result of ``game.ratings.adjusted_score``."""
    def scores(mine: np.ndarray, theirs: np.ndarray) -> np.ndarray:
        lead = (mine[..., 0] - mine[..., 1]) - (theirs[..., 0] - theirs[..., 1])
        return 1 / (1 + 10 ** (-lead / points_per_400))
    return scores


def update_arrays(mu: np.ndarray, phi: np.ndarray, sigma: np.ndarray, mu_o: np.ndarray,
                  phi_o: np.ndarray, score: np.ndarray, tau: float = glicko2.TAU,
                  weight: np.ndarray | float = 1.0
                  ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Glicko-2 after one game against one opponent, elementwise (Glicko-2's own units); the
    result counted ``weight`` times (``glicko2.update``'s weights; > 0)."""
    return update_many(mu, phi, sigma, mu_o[..., None], phi_o[..., None], score[..., None],
                       tau, np.broadcast_to(weight, np.shape(score))[..., None])


def update_many(mu: np.ndarray, phi: np.ndarray, sigma: np.ndarray, mu_o: np.ndarray,
                phi_o: np.ndarray, score: np.ndarray, tau: float = glicko2.TAU,
                weight: np.ndarray | float = 1.0
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Glicko-2 after one period of several results (the last axis of ``mu_o``, ``phi_o``,
    ``score`` and ``weight``), elementwise over the others."""
    g = 1 / np.sqrt(1 + 3 * phi_o ** 2 / math.pi ** 2)
    e = 1 / (1 + np.exp(-g * (mu[..., None] - mu_o)))
    v = 1 / np.sum(weight * g * g * e * (1 - e), axis=-1)
    gain = np.sum(weight * g * (score - e), axis=-1)
    delta = v * gain
    a = np.log(sigma ** 2)

    def f(x: np.ndarray) -> np.ndarray:
        ex = np.exp(x)
        return (ex * (delta ** 2 - phi ** 2 - v - ex) / (2 * (phi ** 2 + v + ex) ** 2)
                - (x - a) / tau ** 2)

    big = delta ** 2 > phi ** 2 + v
    b = np.where(big, np.log(np.where(big, delta ** 2 - phi ** 2 - v, 1.0)), a - tau)
    k = np.ones_like(a)
    while True:
        short = ~big & (f(a - k * tau) < 0)
        if not short.any():
            break
        k += short
    b = np.where(big, b, a - k * tau)
    lo, hi = a.copy(), b
    f_lo, f_hi = f(lo), f(hi)
    active = np.abs(hi - lo) > glicko2.EPSILON
    while active.any():
        c = lo + (lo - hi) * f_lo / (f_hi - f_lo)
        ex = np.exp(c)
        f_c = (ex * (delta ** 2 - phi ** 2 - v - ex) / (2 * (phi ** 2 + v + ex) ** 2)
               - (c - a) / tau ** 2)
        swap = f_c * f_hi <= 0
        lo = np.where(active & swap, hi, lo)
        f_lo = np.where(active, np.where(swap, f_hi, f_lo / 2), f_lo)
        hi = np.where(active, c, hi)
        f_hi = np.where(active, f_c, f_hi)
        active = np.abs(hi - lo) > glicko2.EPSILON
    new_sigma = np.exp(lo / 2)
    phi_star = np.sqrt(phi ** 2 + new_sigma ** 2)
    new_phi = 1 / np.sqrt(1 / phi_star ** 2 + 1 / v)
    return mu + new_phi ** 2 * gain, new_phi, new_sigma


def check_vectorised(cases: int = 500, seed: int = 3) -> float:
    """Largest difference between ``update_arrays`` and ``adjusted_scores`` and the module's
    update (rating points; volatility × 1000) and graded score."""
    rng = np.random.default_rng(seed)
    r, o = rng.uniform(800, 2400, (2, cases))
    rd, rd_o = rng.uniform(30, 350, (2, cases))
    sigma = rng.uniform(0.03, 0.2, cases)
    score = rng.choice([0.0, 0.5, 1.0, 0.3, 0.97], cases)
    mu, phi, new_sigma = update_arrays((r - 1500) / glicko2.SCALE, rd / glicko2.SCALE, sigma,
                                       (o - 1500) / glicko2.SCALE, rd_o / glicko2.SCALE,
                                       score)
    leads = rng.uniform(-120, 120, cases)
    mine = np.stack([leads, np.zeros(cases)], axis=1)
    graded = adjusted_scores(POINTS_PER_400)(mine, np.zeros((cases, 2)))
    worst = 0.0
    for i in range(cases):
        worst = max(worst, abs(graded[i] - adjusted_score(float(leads[i]), 0.0)))
        one = glicko2.update(Rating(r[i], rd[i], sigma[i]),
                             [(Rating(o[i], rd_o[i]), float(score[i]))])
        worst = max(worst, abs(one.rating - (1500 + glicko2.SCALE * mu[i])),
                    abs(one.rd - glicko2.SCALE * phi[i]),
                    1000 * abs(one.volatility - new_sigma[i]))
    return worst


def games_to_order(pools: dict[str, np.ndarray], size: int, populations: int, rounds: int,
                   methods: dict[str, Scores], volatility: float = 0.06, seed: int = 7
                   ) -> dict[str, np.ndarray]:
    """Per method, the share of populations whose ratings are in the true order after each
    round (one heads-up game per player per round)."""
    rng = np.random.default_rng(seed)
    names = list(pools)
    games = np.stack([pools[n] for n in names])  # (strength, game, [final, luck, loss])
    means = games[:, :, 0].mean(axis=1)
    members = np.argsort(rng.random((populations, len(names))), axis=1)[:, :size]
    truth = np.argsort(-means[members], axis=1)
    rows = np.arange(populations)[:, None]
    state = {m: (np.zeros((populations, size)), np.full((populations, size), 350 / glicko2.SCALE),
                 np.full((populations, size), volatility)) for m in methods}
    in_order = {m: np.zeros(rounds) for m in methods}
    for r in range(rounds):
        seats = np.argsort(rng.random((populations, size)), axis=1)
        opponent = np.empty_like(seats)
        opponent[rows, seats[:, 0::2]] = seats[:, 1::2]
        opponent[rows, seats[:, 1::2]] = seats[:, 0::2]
        played = games[members, rng.integers(games.shape[1], size=(populations, size))]
        theirs = played[rows, opponent]
        for m, scores in methods.items():
            mu, phi, sigma = state[m]
            state[m] = update_arrays(mu, phi, sigma, mu[rows, opponent], phi[rows, opponent],
                                     scores(played, theirs))
            order = np.argsort(-state[m][0], axis=1, kind="stable")
            in_order[m][r] = np.mean(np.all(order == truth, axis=1))
    return in_order


#: Games per player at which the share of populations in order is printed.
CHECKPOINTS = (5, 10, 20, 50, 100, 200, 500, 1000)


def first_settled(share: np.ndarray, target: float = 0.95) -> int | None:
    """Games per player from which the share stays at or above ``target`` (None: never)."""
    below = np.flatnonzero(share < target)
    if len(below) == 0:
        return 1
    last = int(below[-1]) + 1
    return last + 1 if last < len(share) else None


# --- the prediction test: ratings fitted on some games, the winner of others predicted -------
#
# Every game is a reviewed duel (``build_duels``): the first half of each pair's duels trains,
# the second half is held out. A population: ``size`` players of distinct strengths, all
# unrated, paired at random each round (one heads-up game per player per round, drawn from
# the training duels of the pair), rated after every game by each method side by side. After
# k games per player each method predicts every held-out duel between the population's
# players, Glicko's way: P(i beats j) = 1 / (1 + exp(−g(√(φi² + φj²)) (μi − μj))). Reported:
# the mean log-loss over the held-out games (ln 2 = 0.693 is a coin's), averaged over the
# populations; and games to settle: games per player from which at least 95 % of the
# populations have every pair whose true heads-up win rate is at least ``SETTLE_MARGIN`` from
# ½ in the right order.

#: A pair of strengths this far from an even game must be in the right order to be settled.
SETTLE_MARGIN = 0.05
F = {name: i for i, name in enumerate(DUEL_FIELDS)}


def solo_finals(rules: str, strength: str) -> np.ndarray | None:
    """The largest cached sample of ``strength``'s solitaire finals (``bot_finals``), if any."""
    found = sorted(POOL_DIR.glob(f"{rules}-finals-{strength}-*-1.npy"),
                   key=lambda p: int(p.name.split("-")[-2]))
    return np.load(found[-1]) if found else None


def true_win_rates(rules: str, strengths: list[str],
                   finals: dict[str, list[np.ndarray]]) -> tuple[np.ndarray, list[str]]:
    """``truth[a, b]``: a's heads-up win rate against b as well as it is known, and how. Two
    strengths that play for their own score: the optimal bot's exact distribution against the
    other's sampled finals, else sample against sample (``bot_finals`` where cached, else the
    finals of every duel they played). The to-win bot against the optimal bot:
    ``TO_WIN_MEASURED`` (20,000 games); against another strength x, by adding gaps on the
    logit scale (Bradley–Terry): logit p(to_win, x) = logit p(to_win, optimal) + logit
    p(optimal, x) — an assumption, its duels against x being too few to say better."""
    s = len(strengths)
    truth = np.full((s, s), 0.5)
    notes = []
    sample: dict[str, np.ndarray] = {}
    for a in strengths:
        if a == "optimal":
            continue  # its exact distribution, below
        cached = solo_finals(rules, a)
        if cached is not None:
            sample[a] = cached
            notes.append(f"{a}: {len(cached)} solitaire games")
        elif a not in HEADS_UP:
            sample[a] = np.concatenate(finals[a])
            notes.append(f"{a}: its {len(sample[a])} duels' finals")
    dist = optimal_distribution(rules)
    notes.append(f"optimal: {dist[2]}")
    for i, a in enumerate(strengths):
        for j, b in enumerate(strengths):
            if i >= j or a in HEADS_UP or b in HEADS_UP:
                continue
            if "optimal" in (a, b):
                other = sample[b if a == "optimal" else a]
                p = float(beats_distribution(other, dist[0], dist[1]).mean())
                p = p if a == "optimal" else 1 - p
            else:
                p = win_rate_of_samples(sample[a], sample[b])[0]
            truth[i, j], truth[j, i] = p, 1 - p
    if "to_win" in strengths and "optimal" in strengths:
        t, o = strengths.index("to_win"), strengths.index("optimal")
        edge = TO_WIN_MEASURED[rules][0]
        for j in range(s):
            if j == t:
                continue
            p = edge if j == o else 1 / (1 + (1 - edge) / edge * (1 - truth[o, j]) / truth[o, j])
            truth[t, j], truth[j, t] = p, 1 - p
        notes.append("to_win: its measured edge on the optimal bot, added on the logit scale")
    return truth, notes


def duel_sets(rules: str, strengths: list[str], seed: int = 1
              ) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[str]]:
    """(train, held, truth, notes): ``train[a, b, k]`` the k-th training duel of strength a
    (seat 0 of the array) against b (k < the smallest pair's half); ``held[a, b]`` a's mean
    share of the win over the held-out duels of the pair; ``truth``: ``true_win_rates``."""
    s = len(strengths)
    found = {}
    for i, a in enumerate(strengths):
        for b in strengths[i + 1:]:
            d = duels(rules, a, b, seed)
            found[a, b] = d
            found[b, a] = d[:, ::-1]
    half = min(len(d) for d in found.values()) // 2
    if half < 2:
        raise SystemExit(f"Too few reviewed duels in {rules}: build them first (--duels).")
    train = np.zeros((s, s, half, 2, len(DUEL_FIELDS)))
    held = np.full((s, s), 0.5)
    finals: dict[str, list[np.ndarray]] = {a: [] for a in strengths}
    for (a, b), d in found.items():
        i, j = strengths.index(a), strengths.index(b)
        n = len(d) // 2
        train[i, j] = d[:half]
        held[i, j] = d[n:, 0, F["share"]].mean()
        finals[a].append(d[:, 0, F["final"]])
    truth, notes = true_win_rates(rules, strengths, finals)
    return train, held, truth, notes


def share_scores(mine: np.ndarray, theirs: np.ndarray) -> np.ndarray:
    """The rating of winning's heads-up result: the luck-adjusted share of the win."""
    return np.clip(mine[..., F["share"]] - mine[..., F["c_luck"]], 0.0, 1.0)


def share_scores_without_drift(mine: np.ndarray, theirs: np.ndarray) -> np.ndarray:
    """The same with the turn-start drift taken out too (the model's, neither dice nor
    decisions; not unbiased)."""
    return np.clip(mine[..., F["share"]] - mine[..., F["c_luck"]] - mine[..., F["c_drift"]],
                   0.0, 1.0)


def controlled_shares(mine: np.ndarray, surprise: np.ndarray, control: float,
                      limit: float = math.inf) -> np.ndarray:
    """``wins.rated_shares`` heads-up, elementwise: the luck-adjusted share less ``control`` ×
    the lead's surprise (kept within ± ``limit``), kept within [0, 1]."""
    return np.clip(mine[..., F["share"]] - mine[..., F["c_luck"]]
                   - control * np.clip(surprise, -limit, limit), 0.0, 1.0)


def precision_weights(loss: np.ndarray, other_loss: np.ndarray,
                      reference: float = wins.SPREAD_REFERENCE, floor: float = 0.0,
                      line: tuple[float, float] = (wins.SPREAD_BASE, wins.SPREAD_PER_POINT)
                      ) -> np.ndarray:
    """``wins.precision_weight``, elementwise, at the reference spread ``reference``, never
    below ``floor``, the spread's ``line`` (base, per point) the module's by default."""
    spread = line[0] + line[1] * (np.maximum(loss, 0) + np.maximum(other_loss, 0))
    return np.maximum(floor, np.minimum(wins.MAX_PRECISION_WEIGHT, (reference / spread) ** 2))


def lean_parts(rd: np.ndarray, lean_rd: float = 0.0, full: float = 350.0,
               floor: np.ndarray | float = 0.0) -> np.ndarray:
    """``wins.points_lean``'s shape, elementwise: all of the result at or above the deviation
    ``full``, falling in a straight line to ``floor`` at ``lean_rd`` and below."""
    return floor + (1 - floor) * np.clip((rd - lean_rd) / (full - lean_rd), 0.0, 1.0)


def leaned_scores(score: np.ndarray, lead: np.ndarray, rd: np.ndarray, logit: float,
                  lean_rd: float = 0.0, full: float = 350.0, floor: np.ndarray | float = 0.0
                  ) -> np.ndarray:
    """``wins.game_results``' lean on the points, elementwise: ``score`` leaned on the chance
    the luck-adjusted points ``lead`` stands for (``logit`` per point) by the player's part
    at deviation ``rd`` (:func:`lean_parts`: all of it from ``full``, ``floor`` from
    ``lean_rd`` down)."""
    part = lean_parts(rd, lean_rd, full, floor)
    return part / (1 + np.exp(-logit * lead)) + (1 - part) * score


def check_share_rules(cases: int = 500, seed: int = 5) -> float:
    """Largest difference between ``controlled_shares`` and ``precision_weights`` and
    ``wins.rated_shares`` and ``wins.precision_weight`` on random games."""
    rng = np.random.default_rng(seed)
    worst = 0.0
    for _ in range(cases):
        share, luck = float(rng.choice([0.0, 0.5, 1.0])), float(rng.uniform(-0.6, 0.6))
        points, usual = rng.uniform(150, 300, 2), rng.uniform(180, 260, 2)
        loss = rng.uniform(0, 120, 2)
        seats = [wins.Seat(share, luck, points=points[0], usual=usual[0]),
                 wins.Seat(1 - share, -luck, points=points[1], usual=usual[1])]
        row = np.zeros(len(DUEL_FIELDS))
        row[F["share"]], row[F["c_luck"]] = share, luck
        surprise = (points[0] - usual[0]) - (points[1] - usual[1])
        mine = controlled_shares(row, np.array(surprise), wins.POINTS_CONTROL,
                                 wins.SURPRISE_LIMIT)
        worst = max(worst, abs(float(mine) - wins.rated_shares(seats)[0]),
                    abs(float(precision_weights(loss[:1], loss[1:])[0])
                        - wins.precision_weight(float(loss[0]), float(loss[1]))))
        rules = str(rng.choice(wins.RATED_RULES))
        rd = float(rng.uniform(30, 350))
        leaned = [wins.Seat(share, luck, rating=Rating(1500, rd), points=points[0]),
                  wins.Seat(1 - share, -luck, points=points[1])]
        found = wins.game_results(leaned, rules=rules, control=0.0, precision=False)[0][0][1]
        mine = leaned_scores(np.array(wins.pair_score(leaned[0].adjusted, leaned[1].adjusted)),
                             np.array(points[0] - points[1]),
                             np.array(rd), wins.points_logit(rules), *wins.lean_shape(rules))
        worst = max(worst, abs(float(mine) - found))
    return worst


def raw_scores(mine: np.ndarray, theirs: np.ndarray) -> np.ndarray:
    """Plain Glicko-2: the share of the win itself (1, 0, ½)."""
    return mine[..., F["share"]]


def points_scores(points_per_400: float) -> Scores:
    """Today's rating: the luck-adjusted points, graded."""
    def scores(mine: np.ndarray, theirs: np.ndarray) -> np.ndarray:
        lead = ((mine[..., F["final"]] - mine[..., F["luck"]])
                - (theirs[..., F["final"]] - theirs[..., F["luck"]]))
        return 1 / (1 + 10 ** (-lead / points_per_400))
    return scores


def predicted(mu: np.ndarray, phi: np.ndarray) -> np.ndarray:
    """(..., n, n): P(i beats j) from the ratings, both deviations counted."""
    d = mu[..., :, None] - mu[..., None, :]
    both = np.sqrt(phi[..., :, None] ** 2 + phi[..., None, :] ** 2)
    return 1 / (1 + np.exp(-d / np.sqrt(1 + 3 * both ** 2 / math.pi ** 2)))


def log_loss(p: np.ndarray, q: np.ndarray) -> np.ndarray:
    """Mean log-loss of predictions ``p`` on games whose mean outcome is ``q``."""
    p = np.clip(p, 1e-12, 1 - 1e-12)
    return -(q * np.log(p) + (1 - q) * np.log(1 - p))


@dataclass(frozen=True)
class Method:
    """A rating the prediction test runs: its result of a game, the weight of a result, every
    player's volatility and deviation at the start, and Glicko-2's τ."""

    scores: Scores
    weight: float = 1.0
    volatility: float = 0.06
    rd: float = 350.0
    tau: float = glicko2.TAU
    #: The points control variate's coefficient (share per point, ``wins.POINTS_CONTROL``):
    #: the score less ``control`` × (the luck-adjusted points lead − its expectation from the
    #: two players' mean luck-adjusted points in their earlier games); 0: none.
    control: float = 0.0
    #: The surprise is kept within ± this many points (``wins.SURPRISE_LIMIT``).
    limit: float = math.inf
    #: Each result weighted by ``wins.precision_weight`` of the two players' usual losses (the
    #: mean points loss of their earlier games; ``wins.NEWCOMER_LOSS`` before one), its
    #: reference spread this (None: no precision weight).
    reference: float | None = None
    #: The lean on the points lead (``wins.points_lean``) ends at this deviation (None: no
    #: lean), the lead's chance to win at ``logit`` per point (``wins.points_logit``).
    lean_rd: float | None = None
    logit: float = 0.0
    #: The lean is all of the result at or above this deviation, and never below ``lean_floor``
    #: (``lean_parts``).
    lean_full: float = 350.0
    lean_floor: float = 0.0
    #: Above 0: a player's lean is at least their usual loss (the mean points their decisions
    #: lost a game so far) over this many points (a poor player, whose shares are noisy and
    #: whose points tell their chances well, leans on the points for good; an exploration, not
    #: in ``game.ratings.wins``).
    lean_loss: float = 0.0
    #: The precision weight never below this.
    floor: float = 0.0
    #: The spread's line (base, per point) of the precision weight.
    line: tuple[float, float] = (wins.SPREAD_BASE, wins.SPREAD_PER_POINT)


#: Games per player at which the prediction test reports.
PREDICT_AT = (5, 10, 20, 50, 100, 200, 500)


@dataclass
class Prediction:
    loss: dict[int, float]  # games per player → mean held-out log-loss
    expected: dict[int, float]  # the same against the true win rates (the held-out games' mean)
    settled: int | None  # games per player to settle (None: not within the rounds)
    in_order: np.ndarray  # share of populations settled after each round
    rd: float  # the mean deviation at the end (rating points)
    error: float  # the root mean square error of the ratings' gaps against the truth's (end)
    #: Where populations hold both: the to-win bot's mean rating above the optimal bot's at the
    #: end, and the share of them with it above.
    to_win_lead: float | None = None
    to_win_above: float | None = None


def predict(train: np.ndarray, held: np.ndarray, truth: np.ndarray, size: int,
            populations: int, rounds: int,
            methods: dict[str, Method], seed: int = 7,
            members_from: list[int] | None = None,
            to_win: tuple[int, int] | None = None) -> dict[str, Prediction]:
    """The prediction test, heads-up (see above). ``methods``: name → how it rates;
    ``to_win``: the strengths of the to-win and the optimal bot, whose order is reported."""
    rng = np.random.default_rng(seed)
    s = train.shape[0]
    pool_ids = np.array(members_from if members_from is not None else range(s))
    members = pool_ids[np.argsort(rng.random((populations, len(pool_ids))), axis=1)[:, :size]]
    rows = np.arange(populations)[:, None]
    q = held[members[:, :, None], members[:, None, :]]
    t = truth[members[:, :, None], members[:, None, :]]
    off = ~np.eye(size, dtype=bool)[None]
    must = off & (np.abs(t - 0.5) >= SETTLE_MARGIN)
    right = t > 0.5
    sure = np.clip(t, 0.01, 0.99)
    true_gap = np.log(sure / (1 - sure))  # natural logits: Glicko's μ units (g = 1)
    state = {m: (np.zeros((populations, size)),
                 np.full((populations, size), methods[m].rd / glicko2.SCALE),
                 np.full((populations, size), methods[m].volatility)) for m in methods}
    out = {m: Prediction({}, {}, None, np.zeros(rounds), 0.0, 0.0) for m in methods}
    points_sum = np.zeros((populations, size))  # each player's luck-adjusted points so far
    loss_sum = np.zeros((populations, size))  # and the points their decisions lost
    for r in range(rounds):
        seats = np.argsort(rng.random((populations, size)), axis=1)
        opponent = np.empty_like(seats)
        opponent[rows, seats[:, 0::2]] = seats[:, 1::2]
        opponent[rows, seats[:, 1::2]] = seats[:, 0::2]
        k = rng.integers(train.shape[2], size=(populations, size))
        k = np.minimum(k, k[rows, opponent])  # both seats of one game: the same duel
        played = train[members, members[rows, opponent], k]  # (pop, size, 2, F)
        mine, theirs = played[..., 0, :], played[..., 1, :]
        points = mine[..., F["final"]] - mine[..., F["luck"]]  # luck-adjusted points
        lead = points - (theirs[..., F["final"]] - theirs[..., F["luck"]])
        # The lead's surprise: the lead less what the two players' earlier games led to expect
        # (none in a player's first game).
        expect = points_sum / max(r, 1)
        surprise = (lead - (expect - expect[rows, opponent])) if r else np.zeros_like(points)
        loss = loss_sum / r if r else np.full((populations, size), wins.NEWCOMER_LOSS)
        for m, method in methods.items():
            mu, phi, sigma = state[m]
            score = method.scores(mine, theirs)
            weight: np.ndarray | float = method.weight
            if method.reference is not None:
                weight = method.weight * precision_weights(loss, loss[rows, opponent],
                                                           method.reference, method.floor,
                                                           method.line)
            if method.control:
                score = controlled_shares(mine, surprise, method.control, method.limit)
            if method.lean_rd is not None:
                floor: np.ndarray | float = method.lean_floor
                if method.lean_loss:
                    floor = np.maximum(floor, np.minimum(1.0, loss / method.lean_loss))
                score = leaned_scores(score, lead, phi * glicko2.SCALE, method.logit,
                                      method.lean_rd, method.lean_full, floor)
            state[m] = update_arrays(mu, phi, sigma, mu[rows, opponent], phi[rows, opponent],
                                     score, method.tau, weight)
            mu = state[m][0]
            ahead = mu[:, :, None] > mu[:, None, :]
            out[m].in_order[r] = np.mean(np.all(~must | (ahead == right), axis=(1, 2)))
            if r + 1 in PREDICT_AT:
                p = predicted(mu, state[m][1])
                pairs = np.broadcast_to(off, p.shape)
                out[m].loss[r + 1] = float(log_loss(p, q)[pairs].mean())
                out[m].expected[r + 1] = float(log_loss(p, t)[pairs].mean())
        points_sum += points
        loss_sum += mine[..., F["loss"]]
    for m, pred in out.items():
        mu, phi, _ = state[m]
        pred.settled = first_settled(pred.in_order)
        pred.rd = float(np.mean(phi) * glicko2.SCALE)
        gap = mu[:, :, None] - mu[:, None, :]
        pred.error = float(np.sqrt(np.mean((gap - true_gap)[np.broadcast_to(off, gap.shape)]
                                           ** 2)) * glicko2.SCALE)
        if to_win is not None:
            t, o = ((members == x).argmax(axis=1) for x in to_win)
            both = (members == to_win[0]).any(axis=1) & (members == to_win[1]).any(axis=1)
            if both.any():
                lead = (mu[rows[:, 0], t] - mu[rows[:, 0], o])[both] * glicko2.SCALE
                pred.to_win_lead, pred.to_win_above = float(lead.mean()), float(np.mean(lead > 0))
    return out


def oracle_loss(held: np.ndarray, truth: np.ndarray) -> tuple[float, float]:
    """The held-out log-loss of the true win rates, and of the held-out rates themselves (no
    prediction from other games can beat the second), over every pair."""
    off = ~np.eye(len(held), dtype=bool)
    return (float(log_loss(truth, held)[off].mean()), float(log_loss(held, held)[off].mean()))


def predict_many(train: np.ndarray, held: np.ndarray, truth: np.ndarray, size: int,
                 populations: int, rounds: int, methods: dict[str, tuple[str, float, float]],
                 strengths: list[str], seed: int = 7) -> dict[str, Prediction]:
    """The same with games of ``size`` players (every population's players in one game a
    round), on the strengths that play for their own score: each player draws one seat of a
    training duel of its strength (a solitaire game), and each pair of the game is one result
    — a win, a draw or a loss on the finals (``"raw"``), or today's graded luck-adjusted points
    (``"points"``) — counted ``weight`` times (1: n − 1 whole results; 1/(n − 1): one result in
    all)."""
    ids = [i for i, name in enumerate(strengths) if name not in HEADS_UP]
    rng = np.random.default_rng(seed)
    solo = []
    for i in ids:  # every seat the strength played in the training duels, whoever against
        solo.append(np.concatenate([train[i, j, :, 0] for j in range(len(strengths))
                                    if j != i]))
    n_solo = min(len(x) for x in solo)
    solitaire = np.zeros((len(strengths), n_solo, len(DUEL_FIELDS)))
    for i, x in zip(ids, solo, strict=True):
        solitaire[i] = x[:n_solo]
    members = np.array(ids)[np.argsort(rng.random((populations, len(ids))), axis=1)[:, :size]]
    q = held[members[:, :, None], members[:, None, :]]
    t = truth[members[:, :, None], members[:, None, :]]
    off = ~np.eye(size, dtype=bool)[None]
    must = off & (np.abs(t - 0.5) >= SETTLE_MARGIN)
    right = t > 0.5
    sure = np.clip(t, 0.01, 0.99)
    true_gap = np.log(sure / (1 - sure))
    state = {m: (np.zeros((populations, size)), np.full((populations, size), 350 / glicko2.SCALE),
                 np.full((populations, size), methods[m][2])) for m in methods}
    out = {m: Prediction({}, {}, None, np.zeros(rounds), 0.0, 0.0) for m in methods}
    others = np.array([[j for j in range(size) if j != i] for i in range(size)])
    for r in range(rounds):
        played = solitaire[members, rng.integers(n_solo, size=(populations, size))]
        mine = played[:, :, None, :]
        theirs = played[:, others, :]  # (pop, size, size − 1, F)
        for m, (kind, weight, _) in methods.items():
            mu, phi, sigma = state[m]
            if kind == "raw":
                score = (np.sign(mine[..., F["final"]] - theirs[..., F["final"]]) + 1) / 2
            else:
                score = points_scores(POINTS_PER_400)(mine, theirs)
            state[m] = update_many(mu, phi, sigma, mu[:, others], phi[:, others], score,
                                   weight=weight)
            mu = state[m][0]
            ahead = mu[:, :, None] > mu[:, None, :]
            out[m].in_order[r] = np.mean(np.all(~must | (ahead == right), axis=(1, 2)))
            if r + 1 in PREDICT_AT:
                p = predicted(mu, state[m][1])
                pairs = np.broadcast_to(off, p.shape)
                out[m].loss[r + 1] = float(log_loss(p, q)[pairs].mean())
                out[m].expected[r + 1] = float(log_loss(p, t)[pairs].mean())
    for m, pred in out.items():
        mu, phi, _ = state[m]
        pred.settled = first_settled(pred.in_order)
        pred.rd = float(np.mean(phi) * glicko2.SCALE)
        gap = mu[:, :, None] - mu[:, None, :]
        pred.error = float(np.sqrt(np.mean((gap - true_gap)[np.broadcast_to(off, gap.shape)]
                                           ** 2)) * glicko2.SCALE)
    return out


def print_predictions(found: dict[str, Prediction], rounds: int) -> None:
    at = [k for k in PREDICT_AT if k <= rounds]
    print(f"  {'method':<34} " + " ".join(f"{k:>6}" for k in at)
          + "   settled   RD  gap error  to_win-optimal")
    for m, pred in found.items():
        settled = str(pred.settled) if pred.settled else f">{rounds}"
        order = ("" if pred.to_win_lead is None
                 else f"  {pred.to_win_lead:+5.1f} ({pred.to_win_above:.0%} above)")
        print(f"  {m:<34} " + " ".join(f"{pred.loss[k]:6.4f}" for k in at)
              + f"   {settled:>7} {pred.rd:4.0f} {pred.error:6.1f}{order}")
    print("  against the true win rates (expected log-loss on endless held-out games):")
    for m, pred in found.items():
        print(f"  {m:<34} " + " ".join(f"{pred.expected[k]:6.4f}" for k in at))
    print("  share of the populations settled (every pair 5 % from even in order):")
    for m, pred in found.items():
        print(f"  {m:<34} " + " ".join(f"{pred.in_order[k - 1]:6.1%}" for k in at))


def calibrate(pools: dict[str, np.ndarray], points_per_400: float
              ) -> dict[str, tuple[float, float]]:
    """Each strength's rating below the optimal bot's, and its standard error: from the mean
    graded score the optimal bot makes against it (adjusted results of every pair of pooled
    games; the error from the spread of the strength's games)."""
    best = pools["optimal"][:, 0] - pools["optimal"][:, 1]
    found = {}
    for name, games in pools.items():
        theirs = games[:, 0] - games[:, 1]
        # Per game of the strength: the optimal bot's mean score against it.
        per_game = np.array([np.mean([adjusted_score(float(a), float(b), points_per_400)
                                      for a in best[:200]]) for b in theirs])
        e = float(per_game.mean())
        se = float(per_game.std(ddof=1) / math.sqrt(len(per_game))) if len(per_game) > 1 else 0.0
        found[name] = (400 * math.log10(e / (1 - e)),
                       400 / math.log(10) * se / (e * (1 - e)))
    return found


def anchors(rules: str, below: dict[str, tuple[float, float]]) -> tuple[str, dict[str, float]]:
    """The bot levels' anchors from ``calibrate``: the medium bot at a newcomer's 1500 when it
    was pooled, else the optimal bot at its anchor in ``game.ratings``."""
    from game.ai.actions import LEVELS
    from game.ratings.rating import ANCHORS

    if "medium" in below:
        how, top = "medium at 1500", 1500 + below["medium"][0]
    else:
        optimal = ANCHORS[rules]["optimal"]
        how, top = f"optimal at its anchor {optimal:g}", optimal + below["optimal"][0]
    return how, {s: top - below[s][0] for s in LEVELS if s in below}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", default="yahtzee", choices=("yahtzee", "yatzy"))
    parser.add_argument("--pool", type=int, default=300, help="solitaire games per strength")
    parser.add_argument("--populations", type=int, default=400)
    parser.add_argument("--rounds", type=int, default=150, help="games per player at most")
    parser.add_argument("--sizes", type=int, nargs="+", default=[4, 6])
    parser.add_argument("--points", type=float, nargs="+", default=[POINTS_PER_400],
                        help="POINTS_PER_400 values to compare")
    parser.add_argument("--volatility", type=float, default=0.06,
                        help="every player's volatility at the start (Glicko-2's 0.06)")
    parser.add_argument("--check", type=int, default=0,
                        help="replay this many games per strength through the review first")
    parser.add_argument("--strengths", nargs="+", choices=tuple(STRENGTHS),
                        default=list(STRENGTHS), help="the strengths to pool and rate")
    parser.add_argument("--pool-only", action="store_true", help="only build the pool")
    parser.add_argument("--duels", type=int, default=0,
                        help="play and review this many heads-up games per pair of strengths "
                             "(cached; a run stopped early keeps what it played)")
    parser.add_argument("--save-every", type=int, default=10,
                        help="with --duels: append to the cache every this many rounds")
    parser.add_argument("--predict", action="store_true",
                        help="the prediction test on the cached duels (and games of --sizes)")
    parser.add_argument("--weights", type=float, nargs="+", default=[1.0, 3.0, 10.0],
                        help="result weights of the rating of winning to compare")
    parser.add_argument("--volatilities", type=float, nargs="*", default=[],
                        help="other volatilities at the start to compare in the prediction test")
    parser.add_argument("--controls", type=float, nargs="*", default=[],
                        help="points control variate coefficients (share per point) to compare")
    parser.add_argument("--limits", type=float, nargs="*", default=[],
                        help="limits of the points control's surprise (points) to compare")
    parser.add_argument("--precision", type=float, nargs="*", default=[],
                        help="reference spreads of the precision weight to compare (with the "
                             "points control of --controls' first, else wins.POINTS_CONTROL)")
    parser.add_argument("--leans", type=float, nargs="*", default=[],
                        help="deviations at which the lean on the points lead ends, to compare "
                             "(0: the deviation's part of an unrated one's, yahtzee's "
                             "wins.points_lean; --variants for other shapes)")
    parser.add_argument("--lean-logits", type=float, nargs="*", default=[],
                        help="the points' scale of winning (logit per point) to compare with "
                             "the lean (default: wins.points_logit of the ruleset)")
    parser.add_argument("--line", type=float, nargs=2, default=None,
                        help="another line of the share's spread (base, per point) for the "
                             "precision weight with the lean of --leans' first")
    parser.add_argument("--floors", type=float, nargs="*", default=[],
                        help="floors of the precision weight to compare (with the lean of "
                             "--leans' first and --precision's first)")
    parser.add_argument("--variants", nargs="*", default=[],
                        help="ratings of winning to compare, each [name:]key=value,... of "
                             "lean (the deviation where the lean reaches its floor), full (where "
                             "it is whole; default 350), floor, logit, control, limit, "
                             "reference, volatility, tau, weight, loss (see variant_method)")
    parser.add_argument("--seed", type=int, default=7,
                        help="the populations' seed of the prediction test")
    parser.add_argument("--brief", action="store_true",
                        help="the prediction test with plain Glicko-2, the points, the lean "
                             "of the site and --variants only, no games of several players")
    parser.add_argument("--taus", type=float, nargs="*", default=[],
                        help="other Glicko-2 τ to compare in the prediction test")
    parser.add_argument("--deviations", type=float, nargs="*", default=[],
                        help="other deviations at the start to compare in the prediction test")
    parser.add_argument("--anchor-games", type=int, default=0,
                        help="measure the anchors' win rates with this many medium and easy "
                             "solitaire games")
    args = parser.parse_args()
    if args.save_every < 1:
        parser.error("--save-every: at least 1")
    print(f"load average {os.getloadavg()[0]:.1f}; rules {args.rules}")
    if args.duels:
        build_duels(args.rules, args.strengths, args.duels, save_every=args.save_every)
        return
    if args.anchor_games:
        rates = measured_win_rates(args.rules, args.anchor_games)
        print(f"heads-up win rates ({args.anchor_games} medium and easy games; the optimal "
              f"bot's distribution as above; to_win: benchmarks/to_win.py):")
        for (a, b), (p, se) in rates.items():
            print(f"  {a} beats {b}: {p:.2%} (95 %: {p - 1.96 * se:.2%}-{p + 1.96 * se:.2%})")
        print("anchors (medium at 1500):")
        fitted = fitted_anchors(rates)
        for level, (v, se) in fitted.items():
            print(f"  {level:<8} {v:7.1f} ± {se:.1f}")
        from game.ratings.wins import rating_gap
        print("the anchors' gaps against the measured ones (the logistic model's misfit):")
        for (a, b), (p, _) in rates.items():
            gap = fitted[a][0] - fitted[b][0]
            print(f"  {a} - {b}: {gap:6.1f} (measured {rating_gap(p):6.1f}, "
                  f"{gap - rating_gap(p):+.1f})")
        return
    if args.predict:
        run_predict(args)
        return
    if args.check:
        worst = check_against_review(args.rules, args.check, args.strengths)
        print(f"played vs review.analyse, {args.check} games per strength: "
              f"largest difference in luck, loss or expected start {worst:.2e}")
    pools = {s: pool(args.rules, s, args.pool) for s in args.strengths}
    heads_up = [s for s in pools if s in HEADS_UP]
    print(f"\npool: {args.pool} games per strength, solitaire"
          + (f" ({', '.join(heads_up)}: heads-up against the optimal bot)" if heads_up else ""))
    print(f"{'strength':<10} {'mean':>7} {'sd':>6} {'loss':>6} {'luck sd':>7}")
    for s, g in pools.items():
        print(f"{s:<10} {g[:, 0].mean():7.1f} {g[:, 0].std():6.1f} {g[:, 2].mean():6.1f} "
              f"{g[:, 1].std():7.1f}")
    by_final = sorted(pools, key=lambda s: -pools[s][:, 0].mean())
    if by_final != sorted(pools, key=lambda s: pools[s][:, 2].mean()):
        print("warning: the pool's mean finals and mean losses order the strengths differently")
    if args.pool_only:
        return
    for p in args.points:
        below = calibrate(pools, p)
        print(f"\nat {p:g} points per 400, below the optimal bot: "
              + ", ".join(f"{s} {v:.1f} ± {se:.1f}" for s, (v, se) in below.items()))
        how, found = anchors(args.rules, below)
        print(f"  anchors, {how}: " + ", ".join(f"{s} {v:.0f}" for s, v in found.items()))
    print(f"\nvectorised Glicko-2 and graded scores vs game.ratings, 500 random games: largest "
          f"difference {check_vectorised():.1e} (rating points; volatility x 1000; score)")
    methods: dict[str, Scores] = {"plain Glicko-2": plain_scores,
                                  "adjusted, win/loss": adjusted_wins}
    methods.update({f"adjusted, {p:g} pts/400": adjusted_scores(p) for p in args.points})
    for size in args.sizes:
        start = time.perf_counter()
        shares = games_to_order(pools, size, args.populations, args.rounds, methods,
                                args.volatility)
        print(f"\npopulations of {size} (of the {len(pools)} strengths), {args.populations} "
              f"populations, volatility {args.volatility:g} at the start, "
              f"up to {args.rounds} games per player "
              f"({time.perf_counter() - start:.0f} s)")
        for m, share in shares.items():
            n = first_settled(share)
            at = ", ".join(f"{k}: {share[k - 1]:.0%}" for k in CHECKPOINTS if k <= len(share))
            print(f"  {m:<24} games to 95 % in order: {n if n else f'> {args.rounds}'}"
                  f"   ({at})")


#: ``--variants``' keys: the ``Method`` field each sets.
VARIANT_KEYS = {"lean": "lean_rd", "full": "lean_full", "floor": "lean_floor",
                "logit": "logit", "control": "control", "limit": "limit",
                "reference": "reference", "volatility": "volatility", "tau": "tau",
                "weight": "weight", "loss": "lean_loss"}


def variant_method(spec: str, rules: str, volatility: float) -> tuple[str, Method]:
    """A ``--variants`` entry, ``[name:]key=value,...``: the rating of winning with those
    ``Method`` fields (``VARIANT_KEYS``); a lean's logit ``wins.points_logit(rules)`` unless
    given, the surprise's limit ``wins.SURPRISE_LIMIT`` with a control."""
    name, _, body = spec.rpartition(":")
    fields: dict[str, float] = {}
    for item in filter(None, body.split(",")):
        key, _, value = item.partition("=")
        if key not in VARIANT_KEYS:
            raise SystemExit(f"Unknown key {key!r} in --variants {spec!r} "
                             f"(one of {', '.join(VARIANT_KEYS)}).")
        try:
            fields[VARIANT_KEYS[key]] = float(value)
        except ValueError:
            raise SystemExit(f"{key}={value!r} in --variants {spec!r} is not a number.") from None
    if fields.get("lean_rd", 0.0) >= fields.get("lean_full", 350.0):
        raise SystemExit(f"--variants {spec!r}: lean (where the lean reaches its floor) must "
                         "be below full (where it is whole).")
    if "lean_rd" in fields:
        fields.setdefault("logit", wins.points_logit(rules))
    if "control" in fields:
        fields.setdefault("limit", wins.SURPRISE_LIMIT)
    fields.setdefault("volatility", volatility)
    return name or f"winning, {body}", Method(share_scores, **fields)  # type: ignore[arg-type]


def site_method(rules: str, volatility: float) -> Method:
    """The rating of winning as ``game.services.ratings`` runs it: the lean's shape
    (``wins.lean_shape``) and the ruleset's points control and precision weight
    (``wins.site_options``)."""
    end, full, floor = wins.lean_shape(rules)
    options = wins.site_options(rules)
    control = float(options["control"])
    return Method(share_scores, volatility=volatility, lean_rd=end, lean_full=full,
                  lean_floor=floor, logit=wins.points_logit(rules), control=control,
                  limit=wins.SURPRISE_LIMIT,
                  reference=wins.SPREAD_REFERENCE if options["precision"] else None)


def run_predict(args: argparse.Namespace) -> None:
    strengths = args.strengths
    train, held, truth, notes = duel_sets(args.rules, strengths)
    print(f"\nduels: {train.shape[2]} training duels per pair of {len(strengths)} strengths "
          f"({', '.join(strengths)}), the rest of each pair's held out")
    print(f"true heads-up win rates (row beats column; {'; '.join(notes)}):")
    print("  " + " " * 10 + " ".join(f"{s[:9]:>9}" for s in strengths))
    for i, a in enumerate(strengths):
        print(f"  {a:<10}" + " ".join(f"{truth[i, j]:9.3f}" for j in range(len(strengths))))
    ideal, best = oracle_loss(held, truth)
    off = ~np.eye(len(strengths), dtype=bool)
    print(f"held-out log-loss of the true rates {ideal:.4f}, of the held-out rates themselves "
          f"{best:.4f}, of a coin {math.log(2):.4f}; the true rates' own expected log-loss "
          f"{float(log_loss(truth, truth)[off].mean()):.4f}")
    a = train[..., 0, :][np.broadcast_to(off[..., None], train.shape[:3])]
    share = np.clip(a[:, F["share"]] - a[:, F["c_luck"]], 0, 1)
    print(f"training results: luck-adjusted share sd {share.std():.4f} (the outcome's "
          f"{a[:, F['share']].std():.4f}); chance luck sd {a[:, F['c_luck']].std():.4f}")
    print("the luck-adjusted share's mean over all of a pair's duels against the true win rate "
          "(its expectation, if the luck is the dice's alone):")
    z = []
    for i, x in enumerate(strengths):
        for j in range(i + 1, len(strengths)):
            d = duels(args.rules, x, strengths[j])[:, 0]
            adj = np.clip(d[:, F["share"]] - d[:, F["c_luck"]], 0, 1)
            se = adj.std(ddof=1) / math.sqrt(len(adj))
            z.append((adj.mean() - truth[i, j]) / se)
            print(f"  {x:>9} vs {strengths[j]:<9} share {adj.mean():.3f} ± {se:.3f} "
                  f"(sd {adj.std():.3f}, outcome's {d[:, F['share']].std():.3f}), "
                  f"true {truth[i, j]:.3f}")
    rms = float(np.sqrt(np.mean(np.square(z))))
    print(f"  z-scores: mean {np.mean(z):+.2f}, root mean square {rms:.2f} (about 1 if the "
          f"shares are unbiased and the truth exact)")
    print(f"points control and precision weight vs game.ratings.wins, 500 random games: "
          f"largest difference {check_share_rules():.1e}")
    today = f"points, {POINTS_PER_400:g} pts/400 (today)"
    vol = args.volatility
    methods: dict[str, Method] = {
        "plain Glicko-2 (wins)": Method(raw_scores, volatility=vol),
        today: Method(points_scores(POINTS_PER_400), volatility=vol),
        "winning, the site's": site_method(args.rules, vol)}
    methods.update(variant_method(v, args.rules, vol) for v in args.variants)
    if args.brief:
        args.weights = args.volatilities = args.controls = args.precision = args.leans = []
        args.line, args.floors, args.taus, args.deviations = None, [], [], []
    else:
        methods.update({f"winning, luck out, weight {w:g}": Method(share_scores, w, vol)
                        for w in args.weights})
        methods["winning, luck and drift out"] = Method(share_scores_without_drift,
                                                        volatility=vol)
    for v in args.volatilities:
        methods[f"winning, luck out, σ {v:g}"] = Method(share_scores, volatility=v)
    for c in args.controls:
        methods.update({f"winning, control {c:g}/pt, weight {w:g}": Method(
            share_scores, w, vol, control=c) for w in args.weights})
        methods.update({f"winning, control {c:g}/pt, within ±{x:g}": Method(
            share_scores, 1.0, vol, control=c, limit=x) for x in args.limits})
    c = args.controls[0] if args.controls else wins.POINTS_CONTROL
    for ref in args.precision:
        methods[f"winning, control {c:g}, precision {ref:g}"] = Method(
            share_scores, 1.0, vol, control=c, limit=wins.SURPRISE_LIMIT, reference=ref)
        methods[f"winning, precision {ref:g} alone"] = Method(share_scores, 1.0, vol,
                                                              reference=ref)
    for lean in args.leans:
        for logit in args.lean_logits or [wins.points_logit(args.rules)]:
            methods[f"winning, lean to RD {lean:g}, {logit:g}/pt"] = Method(
                share_scores, 1.0, vol, lean_rd=lean, logit=logit)
            for ref in args.precision:
                methods[f"winning, c+p {ref:g}, lean {lean:g}, {logit:g}"] = Method(
                    share_scores, 1.0, vol, control=c, limit=wins.SURPRISE_LIMIT,
                    reference=ref, lean_rd=lean, logit=logit)
                methods[f"winning, p {ref:g}, lean {lean:g}, {logit:g}"] = Method(
                    share_scores, 1.0, vol, reference=ref, lean_rd=lean, logit=logit)
    if args.line:
        lean_rd = args.leans[0] if args.leans else None
        line = (args.line[0], args.line[1])
        methods[f"winning, p line {line[0]:g}+{line[1]:g}, lean {lean_rd}"] = Method(
            share_scores, 1.0, vol, reference=args.precision[0] if args.precision
            else wins.SPREAD_REFERENCE, lean_rd=lean_rd, logit=wins.points_logit(args.rules),
            line=line)
    for floor in args.floors:
        ref = args.precision[0] if args.precision else wins.SPREAD_REFERENCE
        lean_rd = args.leans[0] if args.leans else None
        methods[f"winning, c+p floor {floor:g}, lean {lean_rd}"] = Method(
            share_scores, 1.0, vol, control=c, limit=wins.SURPRISE_LIMIT, reference=ref,
            lean_rd=lean_rd, logit=wins.points_logit(args.rules), floor=floor)
    for tau in args.taus:
        methods[f"winning, luck out, τ {tau:g}"] = Method(share_scores, volatility=vol, tau=tau)
    for rd in args.deviations:
        methods[f"winning, luck out, from RD {rd:g}"] = Method(share_scores, 1.0, vol, rd)
        methods[f"plain Glicko-2 (wins), from RD {rd:g}"] = Method(raw_scores, 1.0, vol, rd)
    for size in [x for x in args.sizes if x <= len(strengths)]:
        start = time.perf_counter()
        pair = ((strengths.index("to_win"), strengths.index("optimal"))
                if {"to_win", "optimal"} <= set(strengths) else None)
        found = predict(train, held, truth, size, args.populations, args.rounds, methods,
                        seed=args.seed, to_win=pair)
        print(f"\nheads-up, populations of {size}, {args.populations} populations, seed "
              f"{args.seed} "
              f"({time.perf_counter() - start:.0f} s): held-out log-loss after k games per "
              f"player; games to settle ({SETTLE_MARGIN:.0%} from even in order in 95 %); "
              f"mean RD and RMS error of the rating gaps at the end (rating points)")
        print_predictions(found, args.rounds)
    solo = [s for s in strengths if s not in HEADS_UP]
    many: dict[str, tuple[str, float, float]] = {}
    vol = args.volatility
    for size in [x for x in args.sizes if 2 < x <= len(solo) and not args.brief]:
        many = {"wins, n-1 whole pairs (today)": ("raw", 1.0, vol),
                "wins, pairs weighted 1/(n-1)": ("raw", 1 / (size - 1), vol),
                "points, n-1 whole pairs (today)": ("points", 1.0, vol),
                "points, pairs weighted 1/(n-1)": ("points", 1 / (size - 1), vol)}
        for v in args.volatilities:
            many[f"wins, pairs weighted 1/(n-1), σ {v:g}"] = ("raw", 1 / (size - 1), v)
        start = time.perf_counter()
        found = predict_many(train, held, truth, size, args.populations, args.rounds, many,
                             strengths, seed=args.seed)
        print(f"\ngames of {size} (every player of the population in each), {args.populations}"
              f" populations ({time.perf_counter() - start:.0f} s): held-out heads-up "
              f"log-loss after k games per player")
        print_predictions(found, args.rounds)


if __name__ == "__main__":
    main()
