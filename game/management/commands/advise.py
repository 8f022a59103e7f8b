"""Rank every legal choice of a turn by its expected final score (optimal play from then on).

    python manage.py advise --rules yahtzee --dice 1,3,3,5,6 --rolls-left 2
    python manage.py advise --rules yahtzee --open chance,yahtzee --upper 40 --json

Expected values are final totals of the scorecard: what is banked plus what optimal play can
expect; each comes with the standard deviation of that final total (``±``; ``"sd"`` in JSON).
The banked part is what the arguments tell: the upper subtotal (and its bonus once it
reaches the threshold) and, with ``--yahtzee-50``, the 50 in the yahtzee box; points of the
other filled lower boxes are not asked for and count 0.
"""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from game.ai import CardState, advisor
from game.rules import RulesError, get_ruleset, parse_dice

from ._tables import solution_with_progress

SOLVED_RULES = ("yahtzee", "yatzy")


class OneLineErrors:
    """Command-line mistakes: one clear line on stderr and exit status 2, nothing else."""

    def create_parser(self, prog_name: str, subcommand: str, **kwargs: Any) -> CommandParser:
        parser = super().create_parser(prog_name, subcommand, **kwargs)  # type: ignore[misc]  # a mixin: BaseCommand comes after it

        def error(message: str) -> None:
            if parser.called_from_command_line:
                parser.exit(2, f"{parser.prog}: error: {message}\n")
            raise CommandError(f"Error: {message}", returncode=2)

        parser.error = error
        return parser


def bad(message: str) -> CommandError:
    return CommandError(message, returncode=2)


class Command(OneLineErrors, BaseCommand):
    help = "Rank every legal hold or box by expected final score under optimal play."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--rules", default="yahtzee", choices=SOLVED_RULES)
        parser.add_argument("--dice", help="five dice, like 1,3,3,5,6")
        parser.add_argument("--rolls-left", type=int, default=0, choices=(0, 1, 2),
                            help="re-rolls still allowed (0: choose a box)")
        parser.add_argument("--open", help="open boxes, comma-separated (default: all)")
        parser.add_argument("--upper", type=int, default=0, help="upper subtotal so far")
        parser.add_argument("--yahtzee-50", action="store_true",
                            help="the yahtzee box holds 50 (yahtzee only)")
        parser.add_argument("--joker", choices=("forced", "free"),
                            help="yahtzee only: the Joker rule (default: the game's, forced)")
        parser.add_argument("--json", action="store_true", help="print a JSON list")

    def handle(self, *args: Any, **opts: Any) -> None:
        rules = get_ruleset(opts["rules"])
        if opts["joker"] and rules.joker is None:
            raise bad(f"--joker only applies to yahtzee, not {rules.name}.")
        state = self._state(rules, opts)
        dice = None
        if opts["dice"] is not None:
            try:
                dice = parse_dice(opts["dice"])
            except RulesError as e:
                raise bad(e.message) from None
        elif opts["rolls_left"]:
            raise bad("--rolls-left needs --dice.")
        solution_with_progress(rules.name, opts["joker"], self.stderr._out)
        adv = advisor(rules, opts["joker"])
        try:
            adv.check(state)
            if dice is None:
                now = adv.estimate(state)
                rows: list[dict[str, Any]] = [
                    {"hold": None, "box": None, "expected": now.expected, "sd": now.sd}]
            elif opts["rolls_left"]:
                rows = [c.to_dict() for c in adv.hold_choices(state, dice, opts["rolls_left"])]
            else:
                rows = [c.to_dict() for c in adv.box_choices(state, dice)]
        except ValueError as e:
            raise bad(str(e)) from None
        if opts["json"]:
            self.stdout.write(json.dumps(rows))
            return
        if dice is None:
            self.stdout.write(f"Expected final score at the start of a turn: "
                              f"{rows[0]['expected']:.4f} ± {rows[0]['sd']:.4f}")
            return
        for i, row in enumerate(rows, start=1):
            if row["box"] is not None:
                what = f"score {row['box']}"
            elif len(row["hold"]) == 5:
                what = "keep all (score now)"
            else:
                what = "keep " + (" ".join(map(str, row["hold"])) or "nothing")
            self.stdout.write(f"{i:3d}. {row['expected']:10.4f} ± {row['sd']:7.4f}  {what}")

    def _state(self, rules: Any, opts: dict) -> CardState:
        names = rules.box_names
        if opts["open"] is None:
            open_boxes = set(names)
        else:
            open_boxes = {n.strip() for n in opts["open"].split(",") if n.strip()}
            unknown = sorted(open_boxes - set(names))
            if unknown:
                raise bad(f"Unknown box {unknown[0]!r} in --open; the boxes are: "
                          f"{', '.join(names)}.")
            if not open_boxes:
                raise bad("--open names no box: the scorecard would be full.")
        mask = sum(1 << b for b, n in enumerate(names) if n not in open_boxes)
        upper = opts["upper"]
        if upper < 0:
            raise bad(f"--upper must be 0 or more, not {upper}.")
        if opts["yahtzee_50"]:
            if rules.yahtzee_box is None:
                raise bad(f"--yahtzee-50 does not apply to {rules.name}.")
            if rules.yahtzee_box in open_boxes:
                raise bad("--yahtzee-50 says the yahtzee box holds 50, but --open lists it.")
        banked = upper + (rules.upper_bonus if upper >= rules.upper_bonus_threshold else 0)
        banked += 50 if opts["yahtzee_50"] else 0
        return CardState(mask, upper, opts["yahtzee_50"], banked)
