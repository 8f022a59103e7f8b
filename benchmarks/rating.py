"""Benchmark of the rating (``game.ratings``; not a test): how many games a population of
computer players of known strength needs before its ratings are in the true order, for the
luck-adjusted rating and for plain Glicko-2 on wins and losses.

    STRATEGY_DIR=var/strategy nice -n 19 .venv/bin/python benchmarks/rating.py --pool-only
    STRATEGY_DIR=var/strategy nice -n 19 .venv/bin/python benchmarks/rating.py \
        --populations 1000 --rounds 600 --points 10 20 40
    STRATEGY_DIR=var/strategy .venv/bin/python benchmarks/rating.py --rules yatzy \
        --pool 200 --strengths optimal medium easy --sizes 2       # yatzy's anchors
    STRATEGY_DIR=var/strategy nice -n 19 .venv/bin/python benchmarks/rating.py --rules yatzy \
        --pool 1000 --strengths optimal to_win --sizes 2   # to_win's, beside optimal's anchor

The pool takes ~20 minutes of a loaded machine once; the populations take seconds after.

Strengths: the optimal bot; the optimal bot with decision noise (each decision drawn from a
softmax over the options' expected final scores at temperature T points); medium; easy; the
to-win bot. In yahtzee and yatzy the dice and choices of a bot playing for its own score do
not depend on the other players, so a heads-up game is two independent solitaire games: the
pool is one set of solitaire games per strength, played once and cached in ``var/rating/``,
and each simulated game draws one game of each player's strength from it. The to-win bot
plays against its opponents' standings (alone it plays as the optimal bot): its pooled games
are its seat of heads-up games against the optimal bot, first and last in turn. Each pooled
game carries the review's numbers — final score, Σ luck, Σ loss — computed while playing from
the same valuation as ``game.ai.review`` (``--check`` replays a few through
``review.analyse`` and compares).

A population: players of distinct strengths, all starting unrated, paired at random each
round (every player plays one heads-up game per round), rated after every game. The true
order is by the pool's mean final score. Reported: the number of games per player after which
the ratings' order equals the true order in at least 95 % of the populations (and stays so to
the end of the horizon).
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
                  phi_o: np.ndarray, score: np.ndarray, tau: float = glicko2.TAU
                  ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Glicko-2 after one game against one opponent, elementwise (Glicko-2's own units)."""
    g = 1 / np.sqrt(1 + 3 * phi_o ** 2 / math.pi ** 2)
    e = 1 / (1 + np.exp(-g * (mu - mu_o)))
    v = 1 / (g * g * e * (1 - e))
    delta = v * g * (score - e)
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
    return mu + new_phi ** 2 * g * (score - e), new_phi, new_sigma


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
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.1f}; rules {args.rules}")
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


if __name__ == "__main__":
    main()
