"""Command line for the scoring library.

    python -m game.rules score --rules yatzy 1,1,2,4,4 fours     -> 8
    python -m game.rules score 2,2,5,5,5 "full house"             -> 25 (or: fh, 9)
    python -m game.rules categories --rules yahtzee
    python -m game.rules verify dice.json    -> every roll of a finished game re-derived
                                                (of a daily challenge: once its day is over)
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import NoReturn

from .dice import parse_dice
from .errors import RulesError
from .fairness import check_dice_file, missing_rolls
from .rulesets import RULESETS, get_ruleset


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # one clear line, exit status 2
        self.exit(2, f"{self.prog}: error: {message}\n")


def build_parser() -> _Parser:
    parser = _Parser(prog="python -m game.rules", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    score = sub.add_parser("score", help="what a roll scores in a box")
    score.add_argument("--rules", default="yahtzee", help=f"one of {', '.join(RULESETS)}")
    score.add_argument("dice", help="five dice, like 1,1,2,4,4")
    score.add_argument("box", help="a box: its name, label, short form or number, like fours, "
                       "'full house', fh or 9")
    cats = sub.add_parser("categories", help="the boxes of a ruleset in scorecard order")
    cats.add_argument("--rules", default="yahtzee", help=f"one of {', '.join(RULESETS)}")
    verify = sub.add_parser("verify", help="check a finished game's dice (docs/fairness.md); "
                                           "exit 1 on any mismatch")
    verify.add_argument("file", help="the game's /games/<id>/dice.json")
    return parser


def verify_file(path: str) -> int:
    """Print each mismatch of the game in ``path`` (or that all match); 1 on any mismatch."""
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
    except (OSError, ValueError) as exc:
        print(f"python -m game.rules: error: cannot read {path}: {exc}", file=sys.stderr)
        return 2
    check = check_dice_file(data)
    missing = missing_rolls(data)
    for problem in missing:
        print(f"INCOMPLETE: {problem}")
    if not check.commitment_ok:
        print("The server seed does NOT match its commitment.")
    for roll in check.mismatches:
        print(f"MISMATCH {roll.name}: stored {list(roll.stored)}, the seeds give "
              f"{list(roll.expected)}")
    if check.ok and not missing:
        print(f"All {len(check.rolls)} rolls match; the seed matches its commitment.")
    return 0 if check.ok and not missing else 1


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        if args.command == "verify":
            return verify_file(args.file)
        ruleset = get_ruleset(args.rules)
        if args.command == "categories":
            for box in ruleset.boxes:
                print(box.name)
        else:
            print(ruleset.find_box(args.box).score(parse_dice(args.dice)))
    except RulesError as exc:
        print(f"{parser.prog}: error: {exc.message}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
