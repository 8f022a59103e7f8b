"""Fit the Triple Yahtzee correction (approximate policy iteration on seeded games).

    python manage.py fit_triple --rounds 2 --games 1000 --seed 100000 --lam 0.5 --out /tmp/t.json

An experiment: no fitted θ played better than θ = 0 (see docs/ai.md), so the bots use none.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from game.ai import get_solution
from game.ai.advice import advisor
from game.ai.triple import feature_names
from game.ai.triple_fit import fit

from .advise import OneLineErrors, bad


class Command(OneLineErrors, BaseCommand):
    help = "Fit the Triple Yahtzee bot's correction θ on simulated games; write it as JSON."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--rounds", type=int, default=2, help="policy-iteration rounds")
        parser.add_argument("--games", type=int, default=1000, help="games per round")
        parser.add_argument("--seed", type=int, default=100000, help="first game's seed")
        parser.add_argument("--lam", type=float, default=0.5, help="λ of LSTD(λ)")
        parser.add_argument("--out", type=Path, required=True)

    def handle(self, *args: Any, **opts: Any) -> None:
        if opts["rounds"] < 1 or opts["games"] < 10:
            raise bad("--rounds must be at least 1 and --games at least 10.")
        if not 0 <= opts["lam"] <= 1:
            raise bad("--lam must be between 0 and 1.")
        get_solution("triple")
        corr, history = fit(opts["rounds"], opts["games"], opts["seed"], opts["lam"],
                            log=self.stdout.write)
        data = {
            "about": "θ of game.ai.triple.Correction, written by manage.py fit_triple",
            "command": f"manage.py fit_triple --rounds {opts['rounds']} --games {opts['games']}"
                       f" --seed {opts['seed']} --lam {opts['lam']}",
            "features": feature_names(advisor("triple").ruleset.box_names),
            "theta": [round(float(v), 6) for v in corr.theta],
            "history": history,
        }
        opts["out"].parent.mkdir(parents=True, exist_ok=True)
        opts["out"].write_text(json.dumps(data, indent=1) + "\n")
        self.stdout.write(f"wrote {opts['out']}")
