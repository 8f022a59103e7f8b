"""Benchmark of the game review (``game.ai.review``; not a test): how long the analysis of a
whole game takes with the tables loaded, how big its JSON is, and how much a review running
in a worker thread delays an asyncio event loop in the same process (the GIL is shared).

    STRATEGY_DIR=/work/tables .venv/bin/python benchmarks/review.py
    STRATEGY_DIR=/work/tables .venv/bin/python benchmarks/review.py --rules triple --players 3

The game: ``--players`` bots (easy, medium and optimal in turn) with seeded dice. Each timed
run starts with the Advisor's per-state cache emptied (and, for triple, the end-game solver's),
as for a game never analysed before; tables are loaded before the clock starts.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

LEVELS = ("easy", "medium", "optimal")


def bot_game(rules: str, players: int, seed: int) -> tuple[list, list[str]]:
    """A whole game of bots: its events and who acted for each."""
    from game.ai import choose_action
    from game.rules import Game

    rng = random.Random(seed)
    game = Game(rules, [f"{LEVELS[i % 3]} {i + 1}" for i in range(players)], rng=rng)
    by = ["system"] * len(game.events)
    while not game.is_over:
        mover = game.current_player
        assert mover is not None
        events = game.play(choose_action(game, LEVELS[mover % 3], rng))
        by += ["bot"] * len(events)
    return game.events, by


def cold() -> None:
    """Forget what earlier analyses computed (the tables stay loaded)."""
    from game.ai import advisor, triple

    for rules in ("yahtzee", "yatzy"):
        advisor(rules)._turn.cache_clear()
    triple._endgames.clear()


def time_analysis(events: list, by: list[str], runs: int) -> tuple[list[float], list[float]]:
    """Wall-clock and CPU seconds of each run."""
    from game.ai.review import analyse

    wall, cpu = [], []
    for _ in range(runs):
        cold()
        start, cpu_start = time.perf_counter(), time.thread_time()
        analyse(events, by)
        wall.append(time.perf_counter() - start)
        cpu.append(time.thread_time() - cpu_start)
    return wall, cpu


async def ticks_until(done: threading.Event) -> tuple[float, int]:
    """Tick every 1 ms until ``done``: (worst delay of a tick in ms, ticks)."""
    worst, ticks = 0.0, 0
    while not done.is_set():
        before = time.perf_counter()
        await asyncio.sleep(0.001)
        worst = max(worst, time.perf_counter() - before - 0.001)
        ticks += 1
    return worst * 1000, ticks


async def idle_lag(seconds: float) -> float:
    """The worst tick delay with nothing else running (the machine's own noise), in ms."""
    done = threading.Event()
    asyncio.get_running_loop().call_later(seconds, done.set)
    return (await ticks_until(done))[0]


async def loop_lag(events: list, by: list[str]) -> tuple[float, float, int]:
    """Run one analysis in a thread while the loop ticks every 1 ms: (analysis seconds,
    worst tick delay in ms, ticks)."""
    from game.ai.review import analyse

    cold()
    done = threading.Event()
    spent: list[float] = []

    def work() -> None:
        start = time.perf_counter()
        analyse(events, by)
        spent.append(time.perf_counter() - start)
        done.set()

    threading.Thread(target=work, daemon=True).start()
    worst, ticks = await ticks_until(done)
    return spent[0], worst, ticks


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="yahtzee", choices=("yahtzee", "yatzy", "triple"))
    parser.add_argument("--players", type=int, default=6)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()

    from game.ai import advisor
    from game.ai.review import analyse

    advisor(args.rules)  # load (or build) the table before any clock starts
    events, by = bot_game(args.rules, args.players, args.seed)
    turns = sum(e.kind == "scored" for e in events)
    seconds, cpu = time_analysis(events, by, args.runs)
    data = analyse(events, by).to_dict()
    compact = json.dumps(data, separators=(",", ":"))
    spent, lag, ticks = asyncio.run(loop_lag(events, by))
    idle = asyncio.run(idle_lag(max(spent, 0.2)))
    load = os.getloadavg()[0]
    print(f"{args.rules}, {args.players} players, seed {args.seed}: {len(events)} events, "
          f"{turns} turns, {len(data['decisions'])} decisions, {len(data['rolls'])} rolls")
    print(f"analysis: median {statistics.median(seconds) * 1000:.0f} ms, "
          f"best {min(seconds) * 1000:.0f} ms, worst {max(seconds) * 1000:.0f} ms "
          f"({args.runs} runs, cold caches, load average {load:.1f}); CPU median "
          f"{statistics.median(cpu) * 1000:.0f} ms")
    print(f"JSON: {len(json.dumps(data)):,} bytes as stored (json.dumps), "
          f"{len(compact):,} compact")
    print(f"in a worker thread: {spent * 1000:.0f} ms; an asyncio loop ticking every 1 ms "
          f"meanwhile was late by {lag:.1f} ms at worst ({ticks} ticks; "
          f"{idle:.1f} ms with nothing running)")


if __name__ == "__main__":
    main()
