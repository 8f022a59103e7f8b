"""Chances to win: their time per turn end, and their error against play-outs.

    .venv/bin/python benchmarks/ai_chances.py timing --rules yahtzee --games 20
    .venv/bin/python benchmarks/ai_chances.py accuracy --rules yatzy --playouts 20000

``timing``: seeded games of 2–6 optimal bots; after every turn, ``Standings.of`` of the game's
cards (what a room sends), timed — the score table loaded beforehand, every cache cold.
``accuracy``: positions of seeded games of 2–6 optimal bots at the start of a turn, early to
late: each player's chance from the standings against ``--playouts`` play-outs of the optimal
policy per player (the same model: independent finals), with the play-outs' standard error;
a position passes when every player is within 0.1 pp + 3 standard errors.
Run it with ``nice``: it is CPU-bound.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from game.ai import CardState, Standings, advisor, choose_action  # noqa: E402
from game.ai.actions import Roll  # noqa: E402
from game.ai.distribution import estimated_distribution, win_chances_of  # noqa: E402
from game.ai.simulation import play_out  # noqa: E402
from game.ai.storage import get_score_table  # noqa: E402
from game.rules import Game  # noqa: E402


def play(game: Game) -> None:
    action = choose_action(game, "optimal")
    if isinstance(action, Roll):
        game.roll(action.hold)
    else:
        game.score(action.box, action.column)


def timing(rules: str, games: int) -> None:
    get_score_table(rules)
    times = []
    for seed in range(games):
        players = 2 + seed % 5
        game = Game(rules, [f"p{i}" for i in range(players)], rng=random.Random(seed))
        standings = Standings(game.ruleset)
        while not game.is_over:
            turn = game.round, game.current_player
            while not game.is_over and (game.round, game.current_player) == turn:
                play(game)
            start = time.perf_counter()
            standings.of(game.scorecards)
            times.append(time.perf_counter() - start)
    ms = np.array(times) * 1000
    print(f"{rules}: {len(ms)} turn ends of {games} games (2-6 players): median "
          f"{np.median(ms):.1f} ms, p95 {np.percentile(ms, 95):.1f} ms, "
          f"max {ms.max():.1f} ms (load {os.getloadavg()[0]:.1f})")


def position(rules: str, players: int, seed: int, round_: int) -> list[CardState]:
    """Every card when player 0 is about to start turn ``round_`` of a seeded game."""
    game = Game(rules, [f"p{i}" for i in range(players)], rng=random.Random(seed))
    while not (game.round == round_ and game.current_player == 0 and game.dice is None):
        play(game)
    return [CardState.of(card) for card in game.scorecards]


def accuracy(rules: str, playouts: int, positions: int, seed0: int) -> None:
    adv = advisor(rules)
    rounds = len(adv.ruleset.boxes)
    get_score_table(rules)
    worst_excess = -math.inf
    failures = 0
    print("players seed round | standings % | fit % | play-outs % | |diff| pp (bound) exact")
    for i in range(positions):
        players = 2 + i % 5 if i % 2 else 2 + i % 3
        seed = seed0 + i
        round_ = 1 + (i * 7) % rounds
        states = position(rules, players, seed, round_)
        standings = Standings(adv.ruleset)
        chances = np.array(standings._chances(states))
        exact = all(standings._known(p, s)[1] for p, s in enumerate(states))
        fit = np.array(win_chances_of([estimated_distribution(adv, s, exact_turns=2)
                                       for s in states]))
        rng = np.random.default_rng(seed)
        finals = np.stack([play_out(adv, s, playouts, rng) for s in states])
        winners = finals == finals.max(axis=0)
        shares = winners / winners.sum(axis=0)
        simulated = shares.mean(axis=1)
        se = shares.std(axis=1, ddof=1) / math.sqrt(playouts)
        diff = np.abs(chances - simulated)
        bound = 0.001 + 3 * se
        excess = float((diff - bound).max())
        worst_excess = max(worst_excess, excess)
        failures += excess > 0
        print(f"{players} {seed} {round_:2d} | {' / '.join(f'{100 * c:.1f}' for c in chances)}"
              f" | {' / '.join(f'{100 * c:.1f}' for c in fit)}"
              f" | {' / '.join(f'{100 * c:.1f}' for c in simulated)}"
              f" | {100 * diff.max():.2f} ({100 * bound[diff.argmax()]:.2f})"
              f" fit {100 * np.abs(fit - simulated).max():.2f}"
              f" {'exact' if exact else ''}{' FAIL' if excess > 0 else ''}", flush=True)
    print(f"{rules}: {positions} positions, {failures} outside 0.1 pp + 3 SE "
          f"(worst margin {100 * worst_excess:+.2f} pp)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=("timing", "accuracy"))
    parser.add_argument("--rules", default="yahtzee", choices=("yahtzee", "yatzy"))
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--playouts", type=int, default=20_000)
    parser.add_argument("--positions", type=int, default=20)
    parser.add_argument("--seed", type=int, default=100)
    args = parser.parse_args()
    if args.what == "timing":
        timing(args.rules, args.games)
    else:
        accuracy(args.rules, args.playouts, args.positions, args.seed)


if __name__ == "__main__":
    main()
