"""A to-win bot against the optimal (points-maximising) bot: its win rate with a 95 % interval.

    nice -n 19 .venv/bin/python benchmarks/to_win.py --rules yatzy --seeds 10000
    nice -n 19 .venv/bin/python benchmarks/to_win.py --bot ahead --seed-start 5000 \\
        --seeds 5000 --minutes 60 --out var/ahead-yatzy-2.jsonl
    .venv/bin/python benchmarks/to_win.py --pool var/ahead-*.jsonl

Seeded games (seed i: ``random.Random(i)``), played in pairs: the same seed once with the
measured bot first, once with it last, so who starts evens out. A game won counts 1, a tie
shared among the k players in it 1/k; the interval is the normal one over the pairs' means
(the two games of a pair share a seed, so they are not counted as independent). ``--minutes``
stops early, after a whole pair; a line every ``--every`` pairs shows the figure so far. Also
the time per decision of the measured bot, wall and CPU (the first of a turn solves the turn:
most of it).

The bots: ``to_win`` plays the current turn for the win (later turns for points), ``ahead`` every
turn (``game/ai/ahead.py``, ``--mix``), ``risk`` every later turn by the best of the plays with a
taste for risk (``game/ai/risk.py``, ``--margin``; ``risk_read`` reads their distributions from the
tables instead of playing a turn out); ``--against`` the opponents' level. ``--out`` appends one
JSON line per pair (seed, rules, bot, mix — the ``risk`` bots' margin —, opponents, against, the
bot's share in each game of the pair), so runs over other seeds (another process, another day) can
be pooled: ``--pool`` reads such files and prints each setting's figure over its distinct seeds,
and for two settings played on the same seeds the interval of their difference, pair by pair.

The score table must be built (``manage.py build_strategy``), for ``ahead`` the ceiling
table (``manage.py build_ceiling``), for ``risk`` its plays (``manage.py build_risk``):
without them the bots would play their fallbacks.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import sys
import time
from collections import defaultdict
from collections.abc import Iterable
from pathlib import Path
from typing import NamedTuple

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from game.ai import advisor, ceiling, choose_action, to_win  # noqa: E402
from game.ai import ahead as ahead_bot  # noqa: E402
from game.ai import risk as risk_bot  # noqa: E402
from game.ai.actions import Action, Roll  # noqa: E402
from game.ai.storage import score_table_ready  # noqa: E402
from game.rules import Game  # noqa: E402

BOTS = ("to_win", "ahead", "risk", "risk_read")


def move(game: Game, bot: str, mix: ahead_bot.Mix | None) -> Action:
    if game.dice is None:
        return Roll(())
    if bot == "ahead":
        return ahead_bot.choose(game, ahead_bot.MIX if mix is None else mix)
    if bot == "to_win":
        return to_win.choose(game)
    if bot in ("risk", "risk_read"):
        return risk_bot.choose(game, risk_bot.TIE if mix is None else float(mix),
                               played_out=bot == "risk")
    return choose_action(game, bot)


def play_game(setting: Setting, seed: int, seat: int, times: list[tuple[float, float]]
              ) -> float:
    """One game; the measured bot in ``seat``: its share of the win (and the wall and CPU
    seconds of each of its decisions in ``times``)."""
    players = setting.opponents + 1
    game = Game(setting.rules, [f"p{i}" for i in range(players)], rng=random.Random(seed))
    while not game.is_over:
        mine = game.current_player == seat
        start, cpu = time.perf_counter(), time.process_time()
        action = move(game, setting.bot if mine else setting.against, setting.mix)
        if mine:
            times.append((time.perf_counter() - start, time.process_time() - cpu))
        if isinstance(action, Roll):
            game.roll(action.hold)
        else:
            game.score(action.box, action.column)
    return 1 / len(game.winners) if seat in game.winners else 0.0


def interval(pairs: Iterable[float]) -> tuple[int, float, float]:
    """(pairs, mean, half-width of the 95 % interval) over the pairs' means."""
    values = np.array(list(pairs))
    n = len(values)
    se = float(np.std(values, ddof=1)) / math.sqrt(n) if n > 1 else math.nan
    return n, float(values.mean()), 1.96 * se


def describe(name: str, opponents: int, pairs: Iterable[float]) -> str:
    n, mean, half = interval(pairs)
    return (f"{name}: {2 * n} games, win rate {100 * mean:.2f} % (95 % interval "
            f"{100 * (mean - half):.2f}–{100 * (mean + half):.2f} %; a fair share "
            f"{100 / (opponents + 1):.2f} %)")


class Setting(NamedTuple):
    """What a pair's games measured: pairs of the same setting pool."""

    rules: str
    bot: str
    mix: ahead_bot.Mix | None
    opponents: int
    against: str

    @property
    def name(self) -> str:
        bot = (f"ahead (mix {self.mix})" if self.bot == "ahead"
               else f"{self.bot} (margin {self.mix})" if self.bot.startswith("risk")
               else self.bot)
        return f"{self.rules}, {bot} vs {self.opponents} {self.against}"


def summary(setting: Setting, pairs: list[float], times: list[tuple[float, float]]) -> str:
    """The figure so far, and the decisions' times: wall (what a player waits, which the load
    stretches) and CPU (the process's own, which it stretches much less)."""
    wall, cpu = (np.array(t) * 1000 for t in zip(*times, strict=True))
    return (describe(setting.name, setting.opponents, pairs)
            + f"; decision median {np.median(wall):.2f} ms, p95 {np.percentile(wall, 95):.1f} "
            f"ms, p99 {np.percentile(wall, 99):.0f} ms (CPU: p95 {np.percentile(cpu, 95):.1f} "
            f"ms, p99 {np.percentile(cpu, 99):.0f} ms); load {os.getloadavg()[0]:.1f}")


def pool(files: list[str]) -> None:
    """Each setting's figure over its distinct seeds, then every two settings' difference on
    the seeds they share (same rules, opponents and opponents' level)."""
    found: dict[Setting, dict[int, float]] = defaultdict(dict)
    for name in files:
        try:
            with open(name) as f:
                for number, line in enumerate(f, 1):
                    try:
                        r = json.loads(line)
                        setting = Setting(*(r[k] for k in Setting._fields))
                        seed, pair = int(r["seed"]), sum(map(float, r["shares"])) / 2
                    except (ValueError, TypeError, KeyError) as e:
                        sys.exit(f"{name}, line {number}: not a pair written by --out ({e}).")
                    if found[setting].setdefault(seed, pair) != pair:
                        sys.exit(f"{name}: seed {seed} of {setting.name} differs from an "
                                 "earlier run.")
        except OSError as e:
            sys.exit(f"{name}: cannot be read ({e.strerror}).")
    if not found:
        sys.exit("No pairs in these files.")
    settings = sorted(found, key=str)
    for setting in settings:
        print(describe(setting.name, setting.opponents, found[setting].values())
              + f"; seeds {_runs(sorted(found[setting]))}")
    for i, a in enumerate(settings):
        for b in settings[i + 1:]:
            if (a.rules, a.opponents, a.against) != (b.rules, b.opponents, b.against):
                continue
            shared = sorted(set(found[a]) & set(found[b]))
            if len(shared) < 2:
                continue
            n, mean, half = interval(found[a][s] - found[b][s] for s in shared)
            print(f"{a.name} minus {b.name}, {2 * n} games each on the same seeds: "
                  f"{100 * mean:+.2f} pp (95 % interval {100 * (mean - half):+.2f} to "
                  f"{100 * (mean + half):+.2f})")


def _runs(seeds: list[int]) -> str:
    """``0–9999, 20000–20499``: the seeds as runs of consecutive numbers."""
    out, start = [], seeds[0]
    for prev, cur in zip(seeds, [*seeds[1:], None], strict=True):
        if cur != prev + 1:
            out.append(f"{start}–{prev}" if prev != start else str(start))
            start = cur if cur is not None else start
    return ", ".join(out)


def mix_option(text: str) -> ahead_bot.Mix:
    """``--mix``: ``progress``, or a share from 0 to 1."""
    if text == ahead_bot.PROGRESS:
        return ahead_bot.PROGRESS
    try:
        share = float(text)
    except ValueError:
        share = math.nan
    if not 0 <= share <= 1:
        raise argparse.ArgumentTypeError(f"from 0 to 1, or {ahead_bot.PROGRESS!r}: {text!r}")
    return share


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="yahtzee", choices=("yahtzee", "yatzy"))
    parser.add_argument("--bot", default="to_win", choices=BOTS)
    parser.add_argument("--margin", type=float, default=risk_bot.TIE,
                        help="risk: how much more a chance another play must give than points "
                             "play's to be taken (default %(default)s)")
    parser.add_argument("--mix", type=mix_option, default=ahead_bot.MIX,
                        help="ahead: the ceiling's share of a turn's end, from 0 to 1, or "
                             f"{ahead_bot.PROGRESS!r} (the opponents' share of boxes filled; "
                             "the default)")
    parser.add_argument("--against", default="optimal", choices=("optimal", *BOTS))
    parser.add_argument("--opponents", type=int, default=1)
    parser.add_argument("--seed-start", type=int, default=0)
    parser.add_argument("--seeds", type=int, default=10_000, help="pairs of games")
    parser.add_argument("--minutes", type=float, default=math.inf)
    parser.add_argument("--every", type=int, default=50, help="pairs between progress lines")
    parser.add_argument("--out", help="append each pair's results to this JSON-lines file")
    parser.add_argument("--pool", nargs="+", metavar="FILE",
                        help="only pool the pairs of these files (from --out)")
    args = parser.parse_args()
    if not 1 <= args.opponents <= 5:
        parser.error("--opponents: 1 to 5 (a game has at most 6 players)")
    if args.seeds < 1 or args.every < 1 or args.seed_start < 0:
        parser.error("--seeds and --every: at least 1; --seed-start: at least 0")
    if args.minutes <= 0:
        parser.error("--minutes: more than 0")
    if args.pool:
        pool(args.pool)
        return
    if not score_table_ready(args.rules):
        sys.exit(f"The {args.rules} score table is not built: manage.py build_strategy first.")
    if "ahead" in (args.bot, args.against) and ceiling.loaded(
            advisor(args.rules).solution) is None:
        sys.exit(f"The {args.rules} ceiling table is not built: manage.py build_ceiling first.")
    if {"risk", "risk_read"} & {args.bot, args.against} and len(risk_bot.loaded(
            advisor(args.rules).solution)) < len(risk_bot.RISKS):
        sys.exit(f"The {args.rules} plays with a taste for risk are not all built: "
                 "manage.py build_risk first.")
    setting = Setting(args.rules, args.bot, args.mix if args.bot == "ahead"
                      else args.margin if args.bot.startswith("risk") else None,
                      args.opponents, args.against)
    players = args.opponents + 1
    deadline = time.monotonic() + 60 * args.minutes
    pairs: list[float] = []
    times: list[tuple[float, float]] = []
    out = open(args.out, "a") if args.out else None  # noqa: SIM115 (closed below)
    try:
        for seed in range(args.seed_start, args.seed_start + args.seeds):
            shares = [play_game(setting, seed, seat, times) for seat in (0, players - 1)]
            pairs.append(sum(shares) / 2)
            if out:
                out.write(json.dumps(dict(seed=seed, **setting._asdict(), shares=shares)) + "\n")
                out.flush()
            if len(pairs) % args.every == 0:
                print(summary(setting, pairs, times), flush=True)
            if time.monotonic() > deadline:
                break
    finally:
        if out:
            out.close()
    print("final:", summary(setting, pairs, times), f"seeds {args.seed_start}–{seed}", flush=True)


if __name__ == "__main__":
    main()
