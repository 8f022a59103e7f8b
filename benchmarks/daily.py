"""What a daily challenge's shared dice tape buys (not a test): the optimal bot against the
medium bot, on the same tape and on independent dice. Prints a table; writes JSON as it goes.

    STRATEGY_DIR=var/strategy nice -n 10 .venv/bin/python benchmarks/daily.py \\
        --rules yahtzee --days 4000 --seconds 1500 --out var/bench/daily-yahtzee.json

Each simulated day draws a day seed and both bots play that day's tape
(``game.rules.DailyDice``), deciding through ``game.ai.choose_action`` like the site's bots.
*Shared* pairs day d's optimal game with day d's medium game. *Independent* pairs day d's
optimal game with day d+1's medium game (the last with the first): a tape's faces are
uniform and independent for any one player, so two tapes are two players rolling their own
dice, and each game is used once in each comparison. Intervals are 95 % percentile bootstrap
intervals over days (a resampled day brings both of its pairs, so the intervals of the
differences between the two settings account for their sharing games).
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from game.ai import Roll, choose_action  # noqa: E402  (after the path is set)
from game.rules import DailyDice, Game  # noqa: E402
from game.rules.fairness import server_seed_from  # noqa: E402

FIRST_DAY = datetime.date(2026, 1, 1)
BOOTSTRAP = 2000


def play(dice: DailyDice, level: str) -> tuple[int, list[tuple[int, ...]]]:
    """One daily game of ``dice`` played by ``level``: its final score, and the dice (sorted)
    each turn ended on."""
    game = Game(dice.ruleset, [level], rng=dice)
    ends = []
    while not game.is_over:
        action = choose_action(game, level)
        if isinstance(action, Roll):
            game.roll(action.hold)
        else:
            ends.append(tuple(sorted(game.dice or ())))
            game.score(action.box, action.column)
    return game.scorecards[0].total, ends


def measures(diffs: np.ndarray) -> dict[str, np.ndarray]:
    """Over the last axis of score differences (better − worse): how often the better player
    wins (a tie counts half), how often they tie, the mean and the spread of the difference."""
    return {"win": ((diffs > 0) + 0.5 * (diffs == 0)).mean(axis=-1),
            "ties": (diffs == 0).mean(axis=-1), "mean": diffs.mean(axis=-1),
            "sd": diffs.std(axis=-1, ddof=1)}


def summary(better: list[int], worse: list[int]) -> dict[str, object]:
    """Each measure for both settings and their difference, with bootstrap intervals."""
    b, w = np.array(better), np.array(worse)
    n = len(b)
    resampled = np.random.default_rng(2026).integers(0, n, size=(BOOTSTRAP, n))
    out: dict[str, object] = {"days": n, "better mean": float(b.mean()),
                              "worse mean": float(w.mean())}
    found = {}
    for name, partner in (("shared", np.arange(n)), ("independent", (np.arange(n) + 1) % n)):
        point = measures(b - w[partner])
        draws = measures(b[resampled] - w[partner[resampled]])
        found[name] = (point, draws)
        for key in point:
            out[f"{name} {key}"] = interval(point[key], draws[key])
    for key in ("win", "mean", "sd"):
        out[f"shared - independent {key}"] = interval(
            found["shared"][0][key] - found["independent"][0][key],
            found["shared"][1][key] - found["independent"][1][key])
    return out


def interval(point: np.ndarray, draws: np.ndarray) -> dict[str, float]:
    low, high = np.percentile(draws, [2.5, 97.5])
    return {"value": float(point), "low": float(low), "high": float(high)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="yahtzee", choices=("yahtzee", "yatzy"))
    parser.add_argument("--days", type=int, default=4000)
    parser.add_argument("--seconds", type=float, default=1800,
                        help="start no new day after this long (the figures cover the days done)")
    parser.add_argument("--seed", default="daily-benchmark",
                        help="day d's seed is derived from this and d (reproducible runs)")
    parser.add_argument("--better", default="optimal")
    parser.add_argument("--worse", default="medium")
    parser.add_argument("--out", type=Path, help="JSON written after every 100 days and at the end")
    parser.add_argument("--resume", action="store_true",
                        help="continue the run whose scores --out holds")
    args = parser.parse_args()

    better: list[int] = []
    worse: list[int] = []
    if args.resume and args.out and args.out.exists():
        saved = json.loads(args.out.read_text())["scores"]
        better, worse = saved["better"], saved["worse"]
    turns = same_ends = 0  # on a shared tape: turns both players end on the same dice
    start = time.perf_counter()
    load = os.getloadavg()[0]
    for d in range(len(better), args.days):
        if time.perf_counter() - start > args.seconds:
            break
        dice = DailyDice(server_seed_from(f"{args.seed}:{args.rules}:{d}"), args.rules,
                         FIRST_DAY + datetime.timedelta(days=d))
        (b, b_ends), (w, w_ends) = play(dice, args.better), play(dice, args.worse)
        better.append(b)
        worse.append(w)
        turns += len(b_ends)
        same_ends += sum(x == y for x, y in zip(b_ends, w_ends, strict=True))
        if args.out and (d + 1) % 100 == 0:
            write(args, better, worse, start, load)
    result = write(args, better, worse, start, load, summary(better, worse))
    print(f"{args.rules}: {args.better} against {args.worse}, {result['days']} days, "
          f"{result['seconds']:.0f} s, load average {load:.1f} -> {os.getloadavg()[0]:.1f}")
    print(f"mean score: {args.better} {result['better mean']:.1f}, "
          f"{args.worse} {result['worse mean']:.1f}")
    if turns:
        print(f"on a shared tape, {same_ends / turns:.1%} of {turns} turns ended on the same "
              f"dice for both (this run's days)")
    for key, value in result.items():
        if isinstance(value, dict) and "value" in value:
            print(f"  {key:<28} {value['value']:8.3f}   95 % [{value['low']:.3f}, "
                  f"{value['high']:.3f}]")


def write(args: argparse.Namespace, better: list[int], worse: list[int], start: float,
          load: float, figures: dict[str, object] | None = None) -> dict[str, object]:
    result = {"rules": args.rules, "better": args.better, "worse": args.worse,
              "seed": args.seed, "seconds": time.perf_counter() - start,
              "load_before": load, **(figures or {}),
              "scores": {"better": better, "worse": worse}}
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(result))
    return result


if __name__ == "__main__":
    main()
