"""Solve and store the optimal strategy table(s).

    python manage.py build_strategy --rules yahtzee
    python manage.py build_strategy --rules all
    python manage.py build_strategy --rules yahtzee --joker free   # the published 254.5896
    python manage.py build_strategy --missing --progress-lines     # what `make run` does
    python manage.py build_strategy --rules yahtzee --no-scores    # the strategy table alone

Each strategy table is followed by its score table (every state's whole distribution of the
points to come, for the chances to win: ``game/ai/score_table.py``), unless ``--no-scores``.

A progress bar on stderr shows how far each build has come (``--progress-lines``: a line every
10 %, for a terminal shared with a server's log). ``--missing`` skips the tables already built.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from django.core.management.base import BaseCommand, CommandParser
from tqdm import tqdm

from game.ai import build_table, get_solution, score_table, table_path
from game.ai.scoring import score_tables, solver_ruleset
from game.ai.solver import Solution, count_states
from game.ai.storage import (
    build_score_table,
    get_score_table,
    load_score_table,
    load_table,
    score_table_path,
)

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
        parser.add_argument("--no-scores", action="store_true",
                            help="not the score distributions (the chances to win) that follow "
                                 "each strategy table")

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
                if not opts["no_scores"]:
                    self._scores(name, joker, get_solution(name, joker), opts)
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
            if not opts["no_scores"]:
                self._scores(name, joker, solution, opts)

    def _scores(self, name: str, joker: Any, solution: Solution, opts: dict[str, Any]) -> None:
        """The score table (each state's whole distribution, for chances to win), after the
        strategy table it is computed from."""
        ruleset = solution.tables.ruleset
        path = score_table_path(ruleset)
        if opts["missing"] and load_score_table(path, solution.tables) is not None:
            return
        total = score_table.count_states(solution)
        label = f"{name} score distributions"
        start = time.perf_counter()
        if opts["progress_lines"]:
            progress = self._lines(name, total, label)
            table = (get_score_table(name, joker, progress=progress) if opts["missing"]
                     else build_score_table(name, joker, progress=progress)[0])
        else:
            with tqdm(total=total, unit="state", unit_scale=True, desc=label,
                      disable=opts["no_progress"], file=self.stderr._out) as bar:
                table = (get_score_table(name, joker, progress=bar.update) if opts["missing"]
                         else build_score_table(name, joker, progress=bar.update)[0])
        self.stdout.write(
            f"{name} score distributions: {'ready' if opts['missing'] else 'built'} in "
            f"{time.perf_counter() - start:.1f} s, {table.nbytes / 1e6:.0f} MB in memory, "
            f"{path.stat().st_size / 1e6:.0f} MB on disk -> {path}")

    @staticmethod
    def _ensure(name: str, joker: Any, progress: Callable[[int], None]) -> tuple[Solution, float]:
        start = time.perf_counter()
        return get_solution(name, joker, progress=progress), time.perf_counter() - start

    def _lines(self, name: str, total: int, label: str = "") -> Callable[[int], None]:
        what = (f"the {label} of the chances to win" if label else
                f"the {name} strategy table of the optimal computer player")
        label = label or f"{name} strategy table"
        self.stderr.write(f"Building {what} (once; later runs load it)...")
        done = 0
        told = 0

        def step(n: int) -> None:
            nonlocal done, told
            done += n
            percent = 100 * done // total
            if percent >= told + 10:
                told = percent - percent % 10
                self.stderr.write(f"  {label}: {told} %")

        return step
