"""Build the heads-up ceiling: the best chance to finish above every number of points from
every state, and how often a player who knows the optimal bot's final score beats it.

    python manage.py build_ceiling --rules yatzy
    python manage.py build_ceiling --rules all --ties both --out /tmp/ceiling

Reads the strategy table (built first if missing), computes the optimal bot's exact
final-score distribution, then one table per tie convention (``game/ai/ceiling.py``,
``targets.py``), stored beside the strategy tables (or in ``--out``). Never built by a request:
about a quarter of an hour of CPU per ruleset and table, most of an hour on a loaded machine.
"""

from __future__ import annotations

import argparse
import resource
import time
from pathlib import Path
from typing import Any

import numpy as np
from django.core.management.base import BaseCommand, CommandError, CommandParser
from tqdm import tqdm

from game.ai import ceiling, score_table
from game.ai.scoring import score_tables, solver_ruleset

from ._tables import solution_with_progress
from .advise import SOLVED_RULES, OneLineErrors

TIES = {"halves": 0.5, "lost": 0.0}


class Command(OneLineErrors, BaseCommand):
    help = "Build the heads-up ceiling tables for yahtzee and/or yatzy."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--rules", default="all", choices=(*SOLVED_RULES, "all"))
        parser.add_argument("--ties", default="halves", choices=(*TIES, "both"),
                            help="a tie as half a win (halves) or as a loss (lost)")
        parser.add_argument("--out", help="directory for the tables (default: STRATEGY_DIR)")
        parser.add_argument("--workers", type=_positive, default=1,
                            help="processes sharing each level of the programme")
        parser.add_argument("--no-progress", action="store_true", help="no progress bar")

    def handle(self, *args: Any, **opts: Any) -> None:
        names = SOLVED_RULES if opts["rules"] == "all" else (opts["rules"],)
        ties = list(TIES) if opts["ties"] == "both" else [opts["ties"]]
        for name in names:
            solution = solution_with_progress(name, None, self.stderr._out)
            ruleset = score_tables(solver_ruleset(name)).ruleset
            states = score_table.count_states(solution)
            final_path = self._path(ceiling.final_path(ruleset), opts)
            with tqdm(total=states * (1 + len(ties)), unit="state", unit_scale=True,
                      desc=f"{name} ceiling", disable=opts["no_progress"],
                      file=self.stderr._out) as bar:
                start = time.perf_counter()
                final, computed = ceiling.get_final(solution, final_path, bar.update)
                mean = float(final @ np.arange(len(final)))
                self.stdout.write(
                    f"{name}: the optimal bot's final score, exact, "
                    f"{'in %.0f s' % (time.perf_counter() - start) if computed else 'read'}: "
                    f"mean {mean:.4f} (the strategy table's {solution.value(0, 0):.4f})")
                if abs(mean - solution.value(0, 0)) > 1e-3:
                    raise CommandError("The final-score distribution misses the strategy "
                                       "table's expected score.")
                for tie_name in ties:
                    tie = TIES[tie_name]
                    table, _, seconds = ceiling.build(solution, tie, bar.update, final,
                                                      opts["workers"])
                    path = self._path(ceiling.ceiling_path(ruleset, tie), opts)
                    ceiling.save(path, solution, table, final, seconds)
                    result = ceiling.ceiling(name, table, final, len(ruleset.boxes))
                    self.stdout.write(
                        f"{name} ceiling, ties {tie_name}: {100 * result.share:.4f} % "
                        f"(low by at most {100 * result.error:.1e} pp; scores above "
                        f"{table.most} unplayed: {result.unplayed:.1e}); {seconds:.0f} s, "
                        f"{table.nbytes / 1e6:.0f} MB, {path.stat().st_size / 1e6:.0f} MB on "
                        f"disk, peak memory {_peak_mb():.0f} MB -> {path}")

    @staticmethod
    def _path(path: Path, opts: dict[str, Any]) -> Path:
        return Path(opts["out"]) / path.name if opts["out"] else path


def _peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _positive(text: str) -> int:
    """A count of worker processes: a whole number from 1."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"at least 1 worker, not {value}")
    return value
