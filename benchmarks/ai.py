"""Benchmarks for game.ai (not a test): table build time and peak memory, load time, decision
latency, simulated games per second. Prints a table of figures.

    .venv/bin/python benchmarks/ai.py                  # everything (a few minutes)
    .venv/bin/python benchmarks/ai.py --quick          # fewer games and decisions

Builds go to a temporary STRATEGY_DIR, each in a fresh process so that its peak memory
(ru_maxrss) is its own. The machine's load average is printed too: on a shared machine the
wall-clock figures move with it, the CPU seconds much less.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

BUILD = """
import json, resource, sys, time
from game.ai import build_table
start, cpu = time.perf_counter(), time.process_time()
solution, _ = build_table({rules!r}, {joker!r})
print(json.dumps({{"seconds": time.perf_counter() - start, "cpu": time.process_time() - cpu,
  "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
  "value": solution.value(0, 0)}}))
"""

LOAD = """
import json, time
import game.ai, game.ai.advice  # imports are not part of the load
from game.ai import get_solution
start = time.perf_counter()
get_solution({rules!r}, {joker!r})
print(json.dumps({{"seconds": time.perf_counter() - start}}))
"""


def in_fresh_process(code: str, strategy_dir: str) -> dict:
    env = {**os.environ, "STRATEGY_DIR": strategy_dir, "PYTHONPATH": str(ROOT)}
    out = subprocess.run([sys.executable, "-c", code], env=env, cwd=ROOT, check=True,
                         capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def decision_latency(rules: str, n: int) -> list[float]:
    """Seconds per optimal choose_action, over positions met in real games."""
    from game.ai import Roll, choose_action
    from game.rules import Game

    rng = random.Random(11)
    times: list[float] = []
    while len(times) < n:
        game = Game(rules, ["bot"], rng=rng)
        while not game.is_over and len(times) < n:
            start = time.perf_counter()
            action = choose_action(game, "optimal")
            times.append(time.perf_counter() - start)
            if isinstance(action, Roll):
                game.roll(action.hold)
            else:
                game.score(action.box, action.column)
    return times


def games_per_second(rules: str, level: str, games: int) -> float:
    from game.management.commands.simulate import play_one

    rng = random.Random(3)
    start = time.perf_counter()
    for _ in range(games):
        play_one(rules, level, rng)
    return games / (time.perf_counter() - start)


def triple_comparison(first_seed: int, games: int) -> list[tuple[str, str]]:
    """The triple ``optimal`` bot against the column bot on the same seeded games.

    Two estimates of each mean: the plain final score, and the luck-free score (the score
    less each turn's luck: the value of the turn's final roll, by the bot's own measure, less
    what the bot expected of the turn before rolling). Luck has mean zero, so both estimate
    the same expectation; the luck-free one has about 30 times less variance.
    """
    from game.ai.triple import ENDGAME_OPEN
    from game.ai.triple_games import play_game

    rows = []
    found: dict[str, tuple[list[float], list[float]]] = {}
    for name, k in (("column", 0), ("optimal", ENDGAME_OPEN)):
        raw, free = [], []
        start = time.perf_counter()
        for seed in range(first_seed, first_seed + games):
            score, _, luck_free = play_game(seed, endgame_open=k)
            raw.append(float(score))
            free.append(luck_free)
        seconds = time.perf_counter() - start
        found[name] = (raw, free)
        rows.append((f"triple {name}: mean (seeds {first_seed}-{first_seed + games - 1})",
                     f"{mean_se(raw)}; luck-free {mean_se(free)}; {games / seconds:.1f} games/s"))
    for i, what in enumerate(("score", "luck-free score")):
        diff = [a - b for a, b in zip(found["optimal"][i], found["column"][i], strict=True)]
        rows.append((f"triple optimal - column, paired, {what}", mean_se(diff)))
    return rows


def mean_se(xs: list[float]) -> str:
    return (f"{statistics.fmean(xs):.2f} ± {statistics.stdev(xs) / len(xs) ** 0.5:.2f} "
            f"(n={len(xs)})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--rules", default="yahtzee,yahtzee-free,yatzy")
    parser.add_argument("--triple-games", type=int, default=0,
                        help="only compare the triple bots over this many seeded games")
    parser.add_argument("--triple-seed", type=int, default=1000)
    args = parser.parse_args()
    if args.triple_games:
        comparison = triple_comparison(args.triple_seed, args.triple_games)
        width = max(len(k) for k, _ in comparison)
        for k, v in comparison:
            print(f"{k.ljust(width)}  {v}")
        return
    decisions = 500 if args.quick else 3000
    games = {"yahtzee": 100, "yatzy": 100, "triple": 10} if args.quick else {
        "yahtzee": 500, "yatzy": 500, "triple": 40}

    print(f"load average before: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    rows: list[tuple[str, str]] = []
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["STRATEGY_DIR"] = tmp
        for name in args.rules.split(","):
            rules, joker = (name.split("-") + [None])[:2]
            build = in_fresh_process(BUILD.format(rules=rules, joker=joker), tmp)
            load = in_fresh_process(LOAD.format(rules=rules, joker=joker), tmp)
            rows += [
                (f"{name}: expected score, empty card", f"{build['value']:.4f}"),
                (f"{name}: table build", f"{build['seconds']:.1f} s wall, "
                                         f"{build['cpu']:.1f} s CPU"),
                (f"{name}: build peak memory (RSS)", f"{build['peak_mb']:.0f} MB"),
                (f"{name}: table load", f"{load['seconds'] * 1000:.0f} ms"),
            ]
        from game.ai import set_strategy_dir

        set_strategy_dir(tmp)
        for rules in ("yahtzee", "yatzy", "triple"):
            if rules != "triple" and rules not in args.rules.split(","):
                continue
            lat = sorted(decision_latency(rules, decisions if rules != "triple" else
                                          decisions // 3))
            rows.append((f"{rules}: optimal decision (choose_action)",
                         f"median {statistics.median(lat) * 1000:.2f} ms, "
                         f"p99 {lat[int(len(lat) * 0.99)] * 1000:.2f} ms, n={len(lat)}"))
        for rules, n in games.items():
            if rules != "triple" and rules not in args.rules.split(","):
                continue
            for level in ("easy", "medium", "optimal"):
                rate = games_per_second(rules, level, n)
                rows.append((f"{rules}: simulated games/s, {level}", f"{rate:.1f}"))
    width = max(len(k) for k, _ in rows)
    print(f"{'measure'.ljust(width)}  figure")
    print(f"{'-' * width}  ------")
    for k, v in rows:
        print(f"{k.ljust(width)}  {v}")
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
