"""Rank every legal choice of a turn by its expected final score (optimal play from then on).

    python manage.py advise --rules yahtzee --dice 1,3,3,5,6 --rolls-left 2
    python manage.py advise --rules yahtzee --open "chance,full house,fh" --upper 40 --json
    python manage.py advise --rules triple --dice 2,2,5,5,5 --open "fh:2,chance" --upper 0,12,3

Expected values are final totals of the scorecard: what is banked plus what optimal play can
expect; each comes with the standard deviation of that final total (``±``; ``"sd"`` in JSON).
The banked part is what the arguments tell: the upper subtotal (and its bonus once it
reaches the threshold) and, with ``--yahtzee-50``, the 50 in the yahtzee box; points of the
other filled lower boxes are not asked for and count 0. Boxes are named as people type them
(``full house``, ``fh``, ``9``). After the last roll each box also shows what the dice score
there now.

Triple Yahtzee: ``--open`` takes ``BOX`` (open in every column) or ``BOX:C`` (open in column C
only), ``--upper`` one subtotal per column and ``--yahtzee-50`` the columns whose yahtzee box
holds 50. Its values are the column-by-column estimate the optimal bot plays by (each column's
expected points to come from the yahtzee table, times its multiplier; the bot's exact end game
is not included), with no standard deviation. They rank the choices; as a final score they are
too low (they miss what the columns' shared choices are worth: from an empty card they say
1527.5, where the optimal bot averages 1850.5).
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np
from django.core.management.base import BaseCommand, CommandError, CommandParser

from game.ai import Advisor, CardState, advisor
from game.ai.multisets import INDEX, N_ROLLS, ROLLS, best_hold_values, hold_values, sub_holds
from game.ai.triple import column_last_roll_values
from game.rules import RulesError, Ruleset, get_ruleset, parse_dice

from ._tables import solution_with_progress

SOLVED_RULES = ("yahtzee", "yatzy")
#: Triple Yahtzee is advised from the yahtzee table, column by column.
ADVISED_RULES = (*SOLVED_RULES, "triple")


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
        parser.add_argument("--rules", default="yahtzee", choices=ADVISED_RULES)
        parser.add_argument("--dice", help="five dice, like 1,3,3,5,6")
        parser.add_argument("--rolls-left", type=int, default=0, choices=(0, 1, 2),
                            help="re-rolls still allowed (0: choose a box)")
        parser.add_argument("--open", help="open boxes, comma-separated, by name, label, short "
                            "form or number (default: all); triple: BOX:C for column C only")
        parser.add_argument("--upper", default="0",
                            help="upper subtotal so far (triple: one per column, like 0,12,40)")
        parser.add_argument("--yahtzee-50", nargs="?", const="1", metavar="COLUMNS",
                            help="the yahtzee box holds 50 (triple: in these columns, like 1,3)")
        parser.add_argument("--joker", choices=("forced", "free"),
                            help="yahtzee only: the Joker rule (default: the game's, forced)")
        parser.add_argument("--json", action="store_true", help="print a JSON list")

    def handle(self, *args: Any, **opts: Any) -> None:
        rules = get_ruleset(opts["rules"])
        if opts["joker"] and rules.joker is None:
            raise bad(f"--joker only applies to yahtzee, not {rules.name}.")
        if opts["joker"] and rules.columns > 1:
            raise bad("--joker only applies to yahtzee, not triple.")
        states = self._states(rules, opts)
        self.now: dict[str, int] = {}  # what the dice score now, shown under the holds
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
            rows = (self._column_rows(adv, states[0], dice, opts["rolls_left"])
                    if rules.columns == 1
                    else self._triple_rows(adv, rules, states, dice, opts["rolls_left"]))
        except ValueError as e:
            raise bad(str(e)) from None
        if opts["json"]:
            self.stdout.write(json.dumps(rows))
            return
        self._print(rules, rows, dice, opts["rolls_left"])

    # --- the choices ---------------------------------------------------------------------

    def _column_rows(self, adv: Advisor, state: CardState, dice: tuple[int, ...] | None,
                     rolls_left: int) -> list[dict[str, Any]]:
        adv.check(state)
        if dice is None:
            now = adv.estimate(state)
            return [{"hold": None, "box": None, "expected": now.expected, "sd": now.sd}]
        if rolls_left:
            rows = [c.to_dict() for c in adv.hold_choices(state, dice, rolls_left)]
            self.now = adv.points_now(state, dice)
            return rows
        points = adv.points_now(state, dice)
        return [{**c.to_dict(), "points": points[c.box or ""]}
                for c in adv.box_choices(state, dice)]

    def _triple_rows(self, adv: Advisor, rules: Ruleset, states: list[CardState],
                     dice: tuple[int, ...] | None, rolls_left: int) -> list[dict[str, Any]]:
        """Every choice valued by W = sum of multiplier x (banked + points to come) over the
        columns, as the optimal bot values a position before its exact end game."""
        full = adv.tables.full
        live = [(c, st) for c, st in enumerate(states) if st.mask != full]
        if not live:
            raise ValueError("Every column is full: there is nothing left to decide.")
        for _, st in live:
            adv.check(st)
        future = {c: adv.future(st) for c, st in live}
        m = rules.multipliers
        base = sum(m[c] * (st.banked + future.get(c, 0.0)) for c, st in enumerate(states))
        if dice is None:
            return [{"hold": None, "box": None, "column": None, "expected": base, "sd": None}]
        if rolls_left:
            gains = np.full(N_ROLLS, -np.inf)
            for c, st in live:
                after = column_last_roll_values(adv, [st.key])[:, 0]
                np.maximum(gains, m[c] * (after - future[c]), out=gains)
            levels = hold_values(gains.reshape(len(ROLLS), 1))
            for _ in range(rolls_left - 1):
                levels = hold_values(best_hold_values(levels))
            rows: list[dict[str, Any]] = [
                    {"hold": list(h), "box": None, "column": None, "sd": None,
                     "expected": round(base + float(levels[len(h)][INDEX[len(h)][h], 0]), 6)}
                    for h in sub_holds(tuple(dice))]
            self.now = {f"{box}:{c}": p for c, st in live
                        for box, p in adv.points_now(st, dice).items()}
            return sorted(rows, key=lambda r: (-r["expected"], -len(r["hold"])))
        rows = []
        for c, st in live:
            points = adv.points_now(st, dice)
            for ch in adv.box_choices(st, dice):
                gain = m[c] * (ch.expected - st.banked - future[c])
                rows.append({"hold": None, "box": ch.box, "column": c, "sd": None,
                             "expected": round(base + gain, 6), "points": points[ch.box or ""]})
        return sorted(rows, key=lambda r: -r["expected"])

    # --- the table -----------------------------------------------------------------------

    def _print(self, rules: Ruleset, rows: list[dict[str, Any]], dice: tuple[int, ...] | None,
               rolls_left: int) -> None:
        triple = rules.columns > 1
        if dice is None:
            if triple:
                self.stdout.write(f"Column-by-column value at the start of a turn: "
                                  f"{rows[0]['expected']:.4f} (it ranks positions; as a final "
                                  "score it is too low: from an empty card the optimal bot "
                                  "averages 1850.5)")
                return
            self.stdout.write(f"Expected final score at the start of a turn: "
                              f"{rows[0]['expected']:.4f} ± {rows[0]['sd']:.4f}")
            return
        when = (f"with {rolls_left} re-roll{'s' if rolls_left > 1 else ''} left" if rolls_left
                else "after the last roll")
        self.stdout.write(
            f"{rules.title}, dice {' '.join(map(str, dice))} {when}. "
            + ("Value of each choice, column by column (each column's expected points times "
               "its multiplier; it ranks the choices, but is lower than the final score), "
               "best first." if triple else
               "Expected final score under optimal play from then on, best first."))
        boxes = not rolls_left
        header = f"{'#':>4}  {'value (points)' if triple else 'expected (points)':>17}"
        if not triple:
            header += f"  {'± sd (points)':>13}"
        if boxes:
            header += f"  {'scores now':>10}"
        self.stdout.write(header + "  choice")
        for i, row in enumerate(rows, start=1):
            line = f"{i:>3}.  {row['expected']:>17.4f}"
            if not triple:
                line += f"  {'± ' + format(row['sd'], '.4f'):>13}"
            if boxes:
                times = f" ×{rules.multipliers[row['column']]}" if triple else ""
                line += f"  {str(row['points']) + times:>10}"
            self.stdout.write(f"{line}  {self._what(rules, row)}")
        if not boxes:
            now = ", ".join(f"{self._slot(rules, key)} {p}" for key, p in self.now.items())
            self.stdout.write(f"Scoring these dice now instead (points): {now}.")

    def _what(self, rules: Ruleset, row: dict[str, Any]) -> str:
        if row["box"] is not None:
            label = rules.box(row["box"]).label
            return f"score {label}" + (f" in column {row['column'] + 1}"
                                       if rules.columns > 1 else "")
        if len(row["hold"]) == 5:
            return "keep all (score now)"
        return "keep " + (" ".join(map(str, row["hold"])) or "nothing")

    def _slot(self, rules: Ruleset, key: str) -> str:
        box, _, column = key.partition(":")
        label = rules.box(box).label
        return f"{label} (column {int(column) + 1})" if column else label

    # --- the scorecard from the arguments ------------------------------------------------

    def _states(self, rules: Ruleset, opts: dict) -> list[CardState]:
        """One solver state per column, from --open, --upper and --yahtzee-50."""
        columns = rules.columns
        names = rules.box_names
        open_slots = {(n, c) for n in names for c in range(columns)}
        if opts["open"] is not None:
            open_slots = set()
            for item in (i.strip() for i in opts["open"].split(",")):
                if not item:
                    continue
                text, _, col = item.rpartition(":") if ":" in item else (item, "", "")
                try:
                    box = rules.find_box(text).name
                except RulesError as e:
                    raise bad(f"In --open: {e.message}") from None
                if col:
                    if columns == 1 or not col.strip().isdigit() \
                            or not 1 <= int(col) <= columns:
                        raise bad(f"In --open, {item!r}: a column (':C') only goes with triple, "
                                  "from 1 to 3.")
                    open_slots.add((box, int(col) - 1))
                else:
                    open_slots |= {(box, c) for c in range(columns)}
            if not open_slots:
                raise bad("--open names no box: the scorecard would be full.")
        uppers = self._numbers("--upper", opts["upper"], columns, count=columns)
        if len(uppers) == 1 and columns > 1:
            if uppers[0] != 0:
                raise bad(f"--upper takes one subtotal per column in {rules.title}, like 0,12,40.")
            uppers = [0] * columns
        y50_columns: list[int] = []
        if opts["yahtzee_50"] is not None:
            if rules.yahtzee_box is None:
                raise bad(f"--yahtzee-50 does not apply to {rules.name}.")
            y50_columns = [c - 1 for c in self._numbers("--yahtzee-50", opts["yahtzee_50"],
                                                        columns, count=None)]
            if any(not 0 <= c < columns for c in y50_columns):
                raise bad(f"--yahtzee-50 takes columns from 1 to {columns}.")
        states = []
        for c in range(columns):
            mask = sum(1 << b for b, n in enumerate(names) if (n, c) not in open_slots)
            y50 = c in y50_columns
            if y50 and (rules.yahtzee_box, c) in open_slots:
                raise bad("--yahtzee-50 says the yahtzee box holds 50, but --open lists it"
                          + (f" in column {c + 1}." if columns > 1 else "."))
            upper = uppers[c]
            banked = upper + (rules.upper_bonus if upper >= rules.upper_bonus_threshold else 0)
            banked += 50 if y50 else 0
            states.append(CardState(mask, upper, y50, banked))
        return states

    def _numbers(self, flag: str, text: str, columns: int, count: int | None) -> list[int]:
        words = [w.strip() for w in str(text).split(",")]
        if not all(w.isdigit() for w in words):
            raise bad(f"{flag} takes whole numbers of 0 or more, like "
                      f"{'0,12,40' if columns > 1 else '12'}; not {text!r}.")
        numbers = [int(w) for w in words]
        if count is not None and len(numbers) not in (1, count):
            raise bad(f"{flag} takes {count} numbers here, one per column; not {text!r}.")
        return numbers
