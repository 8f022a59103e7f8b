"""A game in the terminal against computer players.

    python manage.py play --rules yahtzee --bots 1 [--level optimal] [--seed 7]
    python manage.py play --dice-seed "my seed"     # provably fair dice (docs/fairness.md)

Your turn: the first roll is made for you. Then type
  ``k 1 2 5``  keep the dice at positions 1, 2 and 5 and re-roll the others (``k`` alone
               re-rolls all five),
  ``s full house``, ``s fh`` or ``s 9``  score in a box by its label, a short form or its
               number (triple: ``s fh 2`` for column 2); without the ``s`` too,
  ``?`` for help, ``q`` to leave. Works with piped input; end of input leaves the game.
"""

from __future__ import annotations

import random
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from game.ai import LEVELS, TABLE_LEVELS, Roll, choose_action
from game.rules import MAX_PLAYERS, RULESETS, FairDice, Game, RulesError, Slot, check_game
from game.rules.fairness import (
    clean_client_seed,
    new_client_seed,
    new_server_seed,
    server_seed_from,
)

from ._tables import solution_with_progress
from .advise import OneLineErrors, bad

HELP = (
    "Commands: 'k 1 2 5' keeps the dice at positions 1, 2 and 5 and re-rolls the rest "
    "('k' alone re-rolls all); 's full house', 's fh' or 's 9' scores in that box (its "
    "label, a short form like 3k, ss, 6s, or its number; the 's' may be left out; triple: "
    "add the column, like 's fh 2'); '?' help; 'q' quit."
)


class Quit(Exception):
    """The player left (``q`` or end of input)."""


class Command(OneLineErrors, BaseCommand):
    help = "Play Yahtzee, Yatzy or Triple Yahtzee in the terminal against computer players."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--rules", default="yahtzee", choices=tuple(RULESETS))
        parser.add_argument("--bots", type=int, default=1, help="computer players (0-5)")
        parser.add_argument("--level", default="optimal", choices=LEVELS)
        parser.add_argument("--name", default="You", help="your name")
        parser.add_argument("--seed", type=int, help="seed for reproducible dice")
        parser.add_argument("--dice-seed", metavar="TEXT",
                            help="play with fair dice (docs/fairness.md), TEXT your seed: the "
                                 "server seed's commitment is shown first, the seed at the end")

    def handle(self, *args: Any, **opts: Any) -> None:
        bots = opts["bots"]
        if not 0 <= bots <= MAX_PLAYERS - 1:
            raise bad(f"--bots must be from 0 to {MAX_PLAYERS - 1}, not {bots}.")
        name = opts["name"].strip()
        names = [name] + [f"Computer {i}" if bots > 1 else "Computer"
                          for i in range(1, bots + 1)]
        if name in names[1:]:
            raise bad(f"--name {name!r} is taken by a computer player; choose another.")
        rng: random.Random | FairDice
        try:
            if opts["dice_seed"] is not None:
                server_seed = (server_seed_from(str(opts["seed"])) if opts["seed"] is not None
                               else new_server_seed())
                seeds = [clean_client_seed(opts["dice_seed"])]
                seeds += [new_client_seed() for _ in range(bots)]
                rng = FairDice(server_seed, seeds)
            else:
                rng = (random.Random(opts["seed"]) if opts["seed"] is not None
                       else random.SystemRandom())
            game = Game(opts["rules"], names, rng=rng)
        except RulesError as e:
            raise bad(e.message) from None
        self.level = opts["level"]
        if self.level in TABLE_LEVELS:  # load (or build, with a progress bar) before the game
            solution_with_progress(opts["rules"], None, self.stderr._out)
        self.out(f"{game.ruleset.title}: {', '.join(names)}. {HELP}")
        if isinstance(rng, FairDice):
            self.out(f"Fair dice: server seed commitment {rng.commitment}; "
                     f"seeds {', '.join(repr(s) for s in rng.client_seeds)}.")
        try:
            while not game.is_over:
                if game.current_player == 0:
                    self.human_turn(game)
                else:
                    self.bot_turn(game)
        except Quit:
            self.out("\nGame left before the end. Scorecards so far:")
            self.out(self.scorecards(game))
            return
        self.out("\nFinal scorecards:")
        self.out(self.scorecards(game))
        totals = [c.total for c in game.scorecards]
        winners = " and ".join(names[i] for i in game.winners)
        self.out(f"Winner: {winners} with {max(totals)} points.")
        if isinstance(rng, FairDice):
            check = check_game([e.to_dict() for e in game.events])
            self.out(f"Server seed, revealed: {check.server_seed}. "
                     f"{len(check.rolls) - len(check.mismatches)} of {len(check.rolls)} "
                     "rolls re-derived from the seeds.")

    # --- output --------------------------------------------------------------------------

    def out(self, text: str = "") -> None:
        self.stdout.write(text)

    def scorecards(self, game: Game, options: dict[Slot, int] | None = None) -> str:
        """A table: one row per box, one column per player (and per scorecard column)."""
        rs = game.ruleset
        heads = [
            (i, c) for i in range(len(game.players)) for c in range(rs.columns)
        ]
        labels = [game.players[i][:12] + (f" x{rs.multipliers[c]}" if rs.columns > 1 else "")
                  for i, c in heads]
        width = max(8, *(len(x) for x in labels))
        lines = ["    " + "box".ljust(16) + "".join(x.rjust(width + 1) for x in labels)]
        for n, box in enumerate(rs.boxes, start=1):
            cells = []
            for i, c in heads:
                pts = game.scorecards[i].points(box.name, c)
                if pts is not None:
                    cells.append(str(pts))
                elif options is not None and i == game.current_player and (box.name, c) in {
                        (s.box, s.column) for s in options}:
                    cells.append(f"({options[Slot(box.name, c)]})")
                else:
                    cells.append("-" if i == game.current_player or options is None else "")
            lines.append(f"{n:>2}. {box.label:<16}" + "".join(x.rjust(width + 1) for x in cells))
        for title, fn in (
            ("upper bonus", lambda card, c: card.bonus("upper", c)),
            ("yahtzee bonus", lambda card, c: card.bonus("yahtzee", c)),
            ("total", lambda card, c: card.column_total(c)),
        ):
            if title == "yahtzee bonus" and rs.yahtzee_bonus == 0:
                continue
            cells = [str(fn(game.scorecards[i], c)) for i, c in heads]
            lines.append("    " + title.ljust(16) + "".join(x.rjust(width + 1) for x in cells))
        if rs.columns > 1:
            lines.append("    grand total: " + ", ".join(
                f"{p} {card.total}" for p, card in zip(game.players, game.scorecards,
                                                        strict=True)))
        return "\n".join(lines)

    def dice_line(self, game: Game) -> str:
        dice = "  ".join(str(d) for d in game.dice or ())
        return f"Dice: {dice}    (positions 1 2 3 4 5; {game.rolls_left} re-roll(s) left)"

    # --- turns ---------------------------------------------------------------------------

    def bot_turn(self, game: Game) -> None:
        who = game.players[game.current_player]  # type: ignore[index]
        while True:
            action = choose_action(game, self.level)
            if isinstance(action, Roll):
                if game.dice is not None:
                    kept = " ".join(str(game.dice[i]) for i in action.hold) or "nothing"
                    self.out(f"{who} keeps {kept} and re-rolls.")
                game.roll(action.hold)
                self.out(f"{who} rolls: {'  '.join(map(str, game.dice or ()))}")
            else:
                points = game.scorecard.score_for(game.dice, action.box, action.column)  # type: ignore[arg-type]
                where = self.where(game, action.box, action.column)
                game.score(action.box, action.column)
                self.out(f"{who} scores {points} in {where}.\n")
                return

    def where(self, game: Game, box: str, column: int) -> str:
        label = game.ruleset.box(box).label
        return label + (f" (column {column + 1})" if game.ruleset.columns > 1 else "")

    def human_turn(self, game: Game) -> None:
        game.roll()
        self.out("")
        self.out(f"Round {game.round} of {game.ruleset.turns}: your turn.")
        self.out(self.scorecards(game, game.potential_scores()))
        self.out(self.dice_line(game))
        while True:
            line = self.ask()
            if not line:
                continue
            try:
                done = self.command(game, line)
            except RulesError as e:
                self.out(e.message)
                continue
            except ValueError as e:
                self.out(str(e))
                continue
            if done:
                return
            self.out(self.dice_line(game))

    def ask(self) -> str:
        self.stdout.flush()
        try:
            line = input("> ")
        except EOFError:
            raise Quit from None
        return line.strip()

    def command(self, game: Game, line: str) -> bool:
        """Carry out one line of input; True when the turn is over."""
        word, *rest = line.split()
        word = word.lower()
        if word in ("q", "quit", "exit"):
            raise Quit
        if word in ("?", "h", "help"):
            self.out(HELP)
            return False
        if word in ("k", "keep"):
            if game.rolls_left == 0:
                raise ValueError("No re-rolls left: choose a box with 's NAME' or 's NUMBER'.")
            hold = self.positions(rest)
            game.roll(hold)
            self.out(self.scorecards(game, game.potential_scores()))
            return False
        if word in ("s", "score"):
            if not rest:
                raise ValueError("Which box? Type 's' and a box name or number, like 's 13'.")
            return self.score(game, rest)
        return self.score(game, [word, *rest])

    def positions(self, words: list[str]) -> list[int]:
        text = " ".join(words).replace(",", " ").split()
        positions = []
        for w in text:
            if not w.isdigit() or not 1 <= int(w) <= 5:
                raise ValueError(f"Positions go from 1 to 5; {w!r} is not one. Type ? for help.")
            positions.append(int(w) - 1)
        if len(set(positions)) != len(positions):
            raise ValueError("Each die can be kept only once.")
        return positions

    def score(self, game: Game, words: list[str]) -> bool:
        """Score in the box ``words`` name (a label of several words, a short form or a
        number), in triple optionally followed by the column."""
        rs = game.ruleset
        column: int | None = None
        try:
            box = rs.find_box(" ".join(words)).name
        except RulesError as whole:
            if rs.columns == 1 or len(words) < 2 or not words[-1].isdigit():
                raise ValueError(whole.message) from None
            if not 1 <= int(words[-1]) <= rs.columns:
                raise ValueError(f"Columns go from 1 to {rs.columns}; {words[-1]!r} is not "
                                 "one.") from None
            box = rs.find_box(" ".join(words[:-1])).name
            column = int(words[-1]) - 1
        if column is None:
            open_cols = [c for c in range(rs.columns) if game.scorecard.is_open(box, c)]
            if len(open_cols) > 1:
                raise ValueError(f"Which column of {rs.box(box).label}? Add it, like "
                                 f"'s {' '.join(words)} 1'.")
            column = open_cols[0] if open_cols else 0
        points = game.scorecard.score_for(game.dice, box, column)  # type: ignore[arg-type]
        game.score(box, column)
        self.out(f"You score {points} in {self.where(game, box, column)}.\n")
        return True
