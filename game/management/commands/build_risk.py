"""Build the plays with a taste for risk that the ``risk`` bot chooses among (``game/ai/risk.py``).

    python manage.py build_risk --rules yahtzee
    python manage.py build_risk --rules all --risk 0.01 --risk -0.01

For each taste for risk (by default ``risk.RISKS``) the strategy table's programme with
certainty equivalents, then every state's distribution of points to come under that play,
stored beside the strategy tables. Never built by a request: a few minutes of CPU each.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from tqdm import tqdm

from game.ai import risk, score_table
from game.ai.solver import count_states

from ._tables import solution_with_progress
from .advise import SOLVED_RULES, OneLineErrors

#: Tastes for risk past this are refused: exp(risk × points) leaves float64's range.
LARGEST = 0.2


def _risk(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise CommandError(f"--risk takes a number, not {text!r}.") from None
    if not 0 < abs(value) <= LARGEST:
        raise CommandError(f"--risk must be between -{LARGEST} and {LARGEST}, and not 0.")
    return value


class Command(OneLineErrors, BaseCommand):
    help = "Build the plays with a taste for risk for yahtzee and/or yatzy."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--rules", default="all", choices=(*SOLVED_RULES, "all"))
        parser.add_argument("--risk", action="append", type=_risk,
                            help="a taste for risk per point (repeatable; default: "
                                 f"{', '.join(f'{r:+g}' for r in risk.RISKS)})")
        parser.add_argument("--no-progress", action="store_true", help="no progress bar")

    def handle(self, *args: Any, **opts: Any) -> None:
        names = SOLVED_RULES if opts["rules"] == "all" else (opts["rules"],)
        for name in names:
            solution = solution_with_progress(name, None, self.stderr._out)
            states = count_states(solution.tables) + score_table.count_states(solution)
            for taste in opts["risk"] or risk.RISKS:
                with tqdm(total=states, unit="state", unit_scale=True,
                          desc=f"{name} risk {taste:+g}", disable=opts["no_progress"],
                          file=self.stderr._out) as bar:
                    play, seconds = risk.build(name, taste, progress=bar.update)
                path = risk.risk_path(solution.tables.ruleset, taste)
                self.stdout.write(
                    f"{name} risk {taste:+g}: the empty card's certainty equivalent "
                    f"{play.adv.solution.value(0, 0):.4f} (points play "
                    f"{solution.value(0, 0):.4f}); {seconds:.0f} s, "
                    f"{path.stat().st_size / 1e6:.0f} MB -> {path}")
