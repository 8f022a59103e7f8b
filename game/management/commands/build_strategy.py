"""Solve and store the optimal strategy table(s).

    python manage.py build_strategy --rules yahtzee
    python manage.py build_strategy --rules all
    python manage.py build_strategy --rules yahtzee --joker free   # the published 254.5896
    python manage.py build_strategy --missing --progress-lines     # what `make run` does

A progress bar on stderr shows how far each build has come (``--progress-lines``: a line every
10 %, for a terminal shared with a server's log). ``--missing`` skips the tables already built.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from django.core.management.base import BaseCommand, CommandParser
from tqdm import tqdm

from game.ai import build_table, get_solution, table_path
from game.ai.scoring import score_tables, solver_ruleset
from game.ai.solver import Solution, count_states
from game.ai.storage import load_table

from .advise import SOLVED_RULES, OneLineErrors, bad


class Command(OneLineErrors, BaseCommand):
    help = "Build the optimal-strategy table for yahtzee and/or yatzy into STRATEGY_DIR."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--rules", default="all", choices=(*SOLVED_RULES, "all"))
        parser.add_argument("--joker", choices=("forced", "free"),
                            help="yahtzee only: the Joker rule (default: the game's, forced)")
        parser.add_argument("--no-progress", action="store_true", help="no progress bar")
        parser.add_argument("--progress-lines", action="store_true",
                            help="a line on stderr every 10%% instead of a bar")
        parser.add_argument("--missing", action="store_true",
                            help="only the tables not built yet")

    def handle(self, *args: Any, **opts: Any) -> None:
        names = SOLVED_RULES if opts["rules"] == "all" else (opts["rules"],)
        if opts["joker"] and "yatzy" in names:
            if opts["rules"] == "yatzy":
                raise bad("--joker only applies to yahtzee.")
            names = ("yahtzee",)
        for name in names:
            joker = opts["joker"] if name == "yahtzee" else None
            tables = score_tables(solver_ruleset(name, joker))
            if opts["missing"] and load_table(table_path(tables.ruleset), tables) is not None:
                continue
            total = count_states(tables)
            # --missing: if a server is building this table meanwhile, wait for it (reporting
            # its progress) and load it, rather than build it a second time.
            make = self._ensure if opts["missing"] else build_table
            if opts["progress_lines"]:
                solution, seconds = make(name, joker, progress=self._lines(name, total))
            else:
                with tqdm(total=total, unit="state", unit_scale=True,
                          desc=f"{name}", disable=opts["no_progress"],
                          file=self.stderr._out) as bar:
                    solution, seconds = make(name, joker, progress=bar.update)
            self.stdout.write(
                f"{name} ({tables.ruleset.joker or 'no'} Joker): expected score "
                f"{solution.value(0, 0):.4f}, {'ready' if opts['missing'] else 'built'} in "
                f"{seconds:.1f} s -> "
                f"{table_path(tables.ruleset)}")

    @staticmethod
    def _ensure(name: str, joker: Any, progress: Callable[[int], None]) -> tuple[Solution, float]:
        start = time.perf_counter()
        return get_solution(name, joker, progress=progress), time.perf_counter() - start

    def _lines(self, name: str, total: int) -> Callable[[int], None]:
        self.stderr.write(f"Building the {name} strategy table of the optimal computer player "
                          "(once; later runs load it)...")
        done = 0
        told = 0

        def step(n: int) -> None:
            nonlocal done, told
            done += n
            percent = 100 * done // total
            if percent >= told + 10:
                told = percent - percent % 10
                self.stderr.write(f"  {name} strategy table: {told} %")

        return step
