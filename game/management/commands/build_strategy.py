"""Solve and store the optimal strategy table(s).

    python manage.py build_strategy --rules yahtzee
    python manage.py build_strategy --rules all
    python manage.py build_strategy --rules yahtzee --joker free   # the published 254.5896
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser
from tqdm import tqdm

from game.ai import build_table, table_path
from game.ai.scoring import score_tables, solver_ruleset
from game.ai.solver import count_states

from .advise import SOLVED_RULES, OneLineErrors, bad


class Command(OneLineErrors, BaseCommand):
    help = "Build the optimal-strategy table for yahtzee and/or yatzy into STRATEGY_DIR."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--rules", default="all", choices=(*SOLVED_RULES, "all"))
        parser.add_argument("--joker", choices=("forced", "free"),
                            help="yahtzee only: the Joker rule (default: the game's, forced)")
        parser.add_argument("--no-progress", action="store_true", help="no progress bar")

    def handle(self, *args: Any, **opts: Any) -> None:
        names = SOLVED_RULES if opts["rules"] == "all" else (opts["rules"],)
        if opts["joker"] and "yatzy" in names:
            if opts["rules"] == "yatzy":
                raise bad("--joker only applies to yahtzee.")
            names = ("yahtzee",)
        for name in names:
            joker = opts["joker"] if name == "yahtzee" else None
            tables = score_tables(solver_ruleset(name, joker))
            with tqdm(total=count_states(tables), unit="state", unit_scale=True,
                      desc=f"{name}", disable=opts["no_progress"],
                      file=self.stderr._out) as bar:
                solution, seconds = build_table(name, joker, progress=bar.update)
            self.stdout.write(
                f"{name} ({tables.ruleset.joker or 'no'} Joker): expected score "
                f"{solution.value(0, 0):.4f}, built in {seconds:.1f} s -> "
                f"{table_path(tables.ruleset)}")
