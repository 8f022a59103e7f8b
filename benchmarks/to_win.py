"""The to-win bot against the optimal (points-maximising) bot: its win rate with a 95 % interval.

    nice -n 19 .venv/bin/python benchmarks/to_win.py --rules yatzy --games 20000
    nice -n 19 .venv/bin/python benchmarks/to_win.py --rules yahtzee --opponents 2 --minutes 60

Seeded games (seed i: ``random.Random(i)``), played in pairs: the same seed once with the to-win
bot first, once with it last, so who starts evens out. A game won counts 1, a tie shared among
the k players in it 1/k; the interval is the normal one over the pairs' means (the two games of
a pair share a seed, so they are not counted as independent). ``--minutes`` stops early, after
a whole pair; a line every ``--every`` pairs shows the figure so far. Also the time per to-win
decision (the first of a turn solves the turn: most of it). The score table must be built
(``manage.py build_strategy``): without it the chances would be the fallback estimator's.
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

from game.ai import choose_action  # noqa: E402
from game.ai.actions import Roll  # noqa: E402
from game.ai.storage import score_table_ready  # noqa: E402
from game.rules import Game  # noqa: E402


def play_game(rules: str, seed: int, seat: int, players: int, times: list[float]) -> float:
    """One game; the to-win bot in ``seat``: its share of the win."""
    game = Game(rules, [f"p{i}" for i in range(players)], rng=random.Random(seed))
    while not game.is_over:
        mine = game.current_player == seat
        start = time.perf_counter()
        action = choose_action(game, "to_win" if mine else "optimal")
        if mine:
            times.append(time.perf_counter() - start)
        if isinstance(action, Roll):
            game.roll(action.hold)
        else:
            game.score(action.box, action.column)
    return 1 / len(game.winners) if seat in game.winners else 0.0


def summary(rules: str, opponents: int, pairs: list[float], times: list[float]) -> str:
    n = len(pairs)
    mean = float(np.mean(pairs))
    se = float(np.std(pairs, ddof=1)) / math.sqrt(n) if n > 1 else math.nan
    ms = np.array(times) * 1000
    return (f"{rules}, to-win vs {opponents} optimal: {2 * n} games, win rate "
            f"{100 * mean:.2f} % (95 % interval {100 * (mean - 1.96 * se):.2f}–"
            f"{100 * (mean + 1.96 * se):.2f} %; a fair share {100 / (opponents + 1):.2f} %); "
            f"decision median {np.median(ms):.1f} ms, p95 {np.percentile(ms, 95):.0f} ms, "
            f"load {os.getloadavg()[0]:.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="yahtzee", choices=("yahtzee", "yatzy"))
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--opponents", type=int, default=1)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--minutes", type=float, default=math.inf)
    parser.add_argument("--every", type=int, default=50, help="pairs between progress lines")
    args = parser.parse_args()
    if not score_table_ready(args.rules):
        sys.exit(f"The {args.rules} score table is not built: manage.py build_strategy first.")
    players = args.opponents + 1
    deadline = time.monotonic() + 60 * args.minutes
    pairs: list[float] = []
    times: list[float] = []
    for i in range(args.games // 2):
        seed = args.seed + i
        shares = [play_game(args.rules, seed, seat, players, times) for seat in (0, players - 1)]
        pairs.append(sum(shares) / 2)
        if len(pairs) % args.every == 0:
            print(summary(args.rules, args.opponents, pairs, times), flush=True)
        if time.monotonic() > deadline:
            break
    print("final:", summary(args.rules, args.opponents, pairs, times), flush=True)


if __name__ == "__main__":
    main()
