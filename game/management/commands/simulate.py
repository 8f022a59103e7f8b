"""Play whole solitaire games with a bot and report the score distribution.

    python manage.py simulate --rules yahtzee --strategy optimal --games 10000 --seed 1
"""

from __future__ import annotations

import json
import random
import statistics
import time
from typing import Any

from django.core.management.base import BaseCommand, CommandParser
from tqdm import tqdm

from game.ai import LEVELS, TABLE_LEVELS, Roll, choose_action
from game.rules import RULESETS, Game

from ._tables import solution_with_progress
from .advise import OneLineErrors, bad

PERCENTILES = (1, 5, 10, 25, 50, 75, 90, 95, 99)


def play_one(rules: str, level: str, rng: random.Random) -> int:
    """One solitaire game by ``level``; its final score."""
    game = Game(rules, ["bot"], rng=rng)
    while not game.is_over:
        action = choose_action(game, level, rng)
        if isinstance(action, Roll):
            game.roll(action.hold)
        else:
            game.score(action.box, action.column)
    return game.scorecards[0].total


def percentile(sorted_scores: list[int], p: float) -> float:
    """Linear interpolation between closest ranks (numpy's default)."""
    k = (len(sorted_scores) - 1) * p / 100
    lo = int(k)
    hi = min(lo + 1, len(sorted_scores) - 1)
    return sorted_scores[lo] + (sorted_scores[hi] - sorted_scores[lo]) * (k - lo)


class Command(OneLineErrors, BaseCommand):
    help = "Play whole solitaire games with a bot; print mean, stdev, percentiles, games/s."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--rules", default="yahtzee", choices=tuple(RULESETS))
        parser.add_argument("--strategy", default="optimal", choices=LEVELS)
        parser.add_argument("--games", type=int, default=1000)
        parser.add_argument("--seed", type=int, help="seed for reproducible dice")
        parser.add_argument("--json", action="store_true", help="print one JSON object")
        parser.add_argument("--no-progress", action="store_true", help="no progress bar")

    def handle(self, *args: Any, **opts: Any) -> None:
        games = opts["games"]
        if games < 1:
            raise bad(f"--games must be at least 1, not {games}.")
        rules, level = opts["rules"], opts["strategy"]
        if level in TABLE_LEVELS:
            # load (or build, with a progress bar) the table before the clock starts
            solution_with_progress(rules, None, self.stderr._out)
        rng = random.Random(opts["seed"])
        scores: list[int] = []
        start = time.perf_counter()
        for _ in tqdm(range(games), desc=f"{rules}/{level}", unit="game",
                      disable=opts["no_progress"], file=self.stderr._out):
            scores.append(play_one(rules, level, rng))
        seconds = time.perf_counter() - start
        ordered = sorted(scores)
        result = {
            "rules": rules,
            "strategy": level,
            "games": games,
            "seed": opts["seed"],
            "mean": statistics.fmean(scores),
            "stdev": statistics.stdev(scores) if games > 1 else 0.0,
            "stderr": (statistics.stdev(scores) / games ** 0.5) if games > 1 else 0.0,
            "min": ordered[0],
            "max": ordered[-1],
            "percentiles": {str(p): percentile(ordered, p) for p in PERCENTILES},
            "seconds": seconds,
            "games_per_second": games / seconds if seconds else float("inf"),
        }
        if opts["json"]:
            self.stdout.write(json.dumps(result))
            return
        pct = "  ".join(f"p{p}={v:g}" for p, v in result["percentiles"].items())
        self.stdout.write(
            f"{rules} / {level}: {games} games\n"
            f"mean   {result['mean']:.2f} (± {1.96 * result['stderr']:.2f} at 95%)\n"
            f"stdev  {result['stdev']:.2f}\n"
            f"min    {result['min']}   max {result['max']}\n"
            f"{pct}\n"
            f"{result['games_per_second']:.1f} games/s ({seconds:.1f} s)")
