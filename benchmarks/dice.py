"""Benchmark of fair dice (not a test): rolls per second before and after, at three depths.

    .venv/bin/python benchmarks/dice.py            # about a minute on the dev machine

1. the rules engine alone: ``Game.roll`` with the old per-command random source
   (``random.Random(f"{seed}:{game}:{seq}")`` as ``DICE_SEED`` did, and ``SystemRandom`` as
   live games did) against ``FairDice`` (HMAC-SHA256 per roll);
2. the service's whole roll command (``services.play``: lock, rules cache, store the event,
   commit) on SQLite, for a game without seeds (the old path, still used by games from
   before fair dice) and for a game with them — the same code but for the dice.

Each figure is the best of ``--repeats`` runs (the least disturbed by other processes).
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def engine_rolls_per_second(make_rng, rolls: int) -> float:
    """Roll, re-roll twice holding two dice, score chance: ``rolls`` rolls per measure."""
    from game.rules import Game

    game = Game("triple", ["a", "b"], rng=make_rng(0))
    done, start = 0, time.perf_counter()
    while done < rolls:
        if game.is_over:
            game = Game("triple", ["a", "b"], rng=make_rng(0))
        game.rng = make_rng(len(game.events))  # a fresh source per command, as the server
        game.roll(hold=[] if game.dice is None else [0, 1])
        done += 1
        if game.rolls_left == 0:
            open_slot = game.legal_slots()[0]
            game.score(open_slot.box, open_slot.column)
    return done / (time.perf_counter() - start)


def primitive(repeats: int) -> dict[str, float]:
    """One roll of five dice from a fresh source (old) or the game's fair dice, by timeit:
    the least disturbed of many short measures."""
    import timeit

    from game.rules import FairDice
    from game.rules.dice import roll_dice
    from game.rules.fairness import new_server_seed

    dice = FairDice(new_server_seed(), ["ann", "5e0b9a71"])
    system = random.SystemRandom()
    cases = {
        "old, DICE_SEED: random.Random(seed) + 5 dice": lambda: roll_dice(random.Random("x:1:5")),
        "old, live: SystemRandom, 5 dice": lambda: roll_dice(system),
        "fair: HMAC-SHA256 of roll k, 5 dice": lambda: roll_dice(dice.for_roll(7)),
        "fair: FairDice(...) made, then 5 dice": lambda: roll_dice(
            FairDice(dice.reveal(), ["ann", "5e0b9a71"]).for_roll(7)),
    }
    number = 2000
    return {name: number / min(timeit.repeat(case, number=number, repeat=repeats * 3))
            for name, case in cases.items()}


def engine(rolls: int, repeats: int) -> dict[str, float]:
    from game.rules import FairDice
    from game.rules.fairness import new_server_seed

    seed = new_server_seed()
    kept = FairDice(seed, ["ann", "5e0b9a71"])
    sources = {
        "old, DICE_SEED (random.Random per command)": lambda seq: random.Random(f"x:1:{seq}"),
        "old, live (SystemRandom)": lambda seq: random.SystemRandom(),
        "fair, FairDice made per command": lambda seq: FairDice(seed, ["ann", "5e0b9a71"]),
        "fair, FairDice kept (as the server does)": lambda seq: kept,
    }
    best = dict.fromkeys(sources, 0.0)
    for _ in range(repeats):  # interleaved: a busy moment of the machine hurts all alike
        for name, make in sources.items():
            best[name] = max(best[name], engine_rolls_per_second(make, rolls))
    return best


def service(rolls: int, repeats: int) -> dict[str, float]:
    """Whole roll commands through ``services.play`` on a fresh SQLite database."""
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0)
    from game import services
    from game.models import Game
    from game.rules import Roll, Score

    specs = [services.SeatSpec(), services.SeatSpec()]
    room = services.create_room(name="bench", rules="triple", seats=specs, host_key="h")
    services.take_seat(room.code, "h", "Ann", 0)
    services.take_seat(room.code, "g", "Bob", 1)

    def new_game(fair: bool) -> Game:
        game = services.start_game(room.code, "h")
        if not fair:  # a game from before fair dice: its dice come from dice_rng
            Game.objects.filter(pk=game.pk).update(server_seed="", commitment="")
        return game

    def run(fair: bool) -> tuple[float, float]:
        game = new_game(fair)
        guests = ["h", "g"]
        done, elapsed, cpu = 0, 0.0, 0.0
        player, rolled = 0, 0
        while done < rolls:
            if Game.objects.filter(pk=game.pk, status="finished").exists():
                game, player, rolled = new_game(fair), 0, 0
            start, start_cpu = time.perf_counter(), time.process_time()
            services.play(room.code, Roll((0, 1) if rolled else ()), guest_key=guests[player])
            elapsed += time.perf_counter() - start
            cpu += time.process_time() - start_cpu
            done += 1
            rolled += 1
            if rolled == 3:  # not timed: the score that passes the turn
                state = Game.objects.get(pk=game.pk).snapshot
                option = next(o for o in state["options"] if o["allowed"])
                services.play(room.code, Score(option["box"], option["column"]),
                              guest_key=guests[player])
                player, rolled = 1 - player, 0
        if Game.objects.filter(pk=game.pk, status="playing").exists():
            services.end_game(game.pk)  # so the next run can start one
        return done / elapsed, done / cpu

    old, fair = "old (no seeds: dice_rng)", "fair (FairDice)"
    wall: dict[str, list[float]] = {old: [], fair: []}
    cpu: dict[str, list[float]] = {old: [], fair: []}
    for i in range(repeats):  # interleaved, each first in turn: a busy moment hurts both
        for name in ((old, fair) if i % 2 == 0 else (fair, old)):
            w, c = run(name == fair)
            wall[name].append(w)
            cpu[name].append(c)
    return {f"{name}, wall": max(wall[name]) for name in wall} | {
        f"{name}, per CPU second": max(cpu[name]) for name in cpu}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rolls", type=int, default=20_000, help="engine rolls per measure")
    parser.add_argument("--service-rolls", type=int, default=300,
                        help="roll commands per service measure")
    parser.add_argument("--repeats", type=int, default=8)
    args = parser.parse_args()

    tmp = tempfile.mkdtemp(prefix="dice-bench-")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "yahtzee_site.settings")
    os.environ["DATABASE_URL"] = f"sqlite:///{tmp}/db.sqlite3"
    os.environ["DATA_DIR"] = tmp
    os.environ["DICE_SEED"] = ""
    os.environ["REDIS_URL"] = ""
    os.environ["REVIEW_ON_FINISH"] = "false"  # no analysis thread competing with the clock
    os.environ.setdefault("LOG_LEVEL", "WARNING")

    print(f"One roll (timeit, best of {args.repeats * 3} x 2000):")
    for name, rate in primitive(args.repeats).items():
        print(f"  {name:46} {rate:10,.0f} rolls/s")
    print(f"Rules engine, {args.rolls} rolls, best of {args.repeats}:")
    for name, rate in engine(args.rolls, args.repeats).items():
        print(f"  {name:46} {rate:10,.0f} rolls/s")
    print(f"services.play on SQLite, {args.service_rolls} roll commands, best of "
          f"{args.repeats}:")
    for name, rate in service(args.service_rolls, args.repeats).items():
        print(f"  {name:46} {rate:10,.0f} rolls/s")


if __name__ == "__main__":
    main()
