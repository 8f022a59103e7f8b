"""What a daily challenge's game adds once its review is stored (``services.review``, in the
review worker, which holds the strategy tables): its attempt's loss, decisions and the grade of
each turn; and the day's par (the optimal bot on the same tape) with its line, once a day."""

from __future__ import annotations

from typing import Any

from ..ai import choose_action
from ..ai.review import FORCED, GRADES
from ..models import DailyAttempt, DailyChallenge
from ..rules import DailyDice, Roll
from ..rules import Game as RulesGame


def turn_grades(decisions: list[dict[str, Any]]) -> list[str]:
    """The grade of each turn of a solo game's review: its worst decision's (a turn of forced
    moves only: "best"). A turn ends with its box."""
    worst = {g: i for i, g in enumerate(GRADES)}
    grades, current = [], 0
    for d in decisions:
        if d["grade"] != FORCED:
            current = max(current, worst.get(d["grade"], 0))
        if d["kind"] == "box":
            grades.append(GRADES[current])
            current = 0
    return grades


def record_review(game_id: int, data: dict[str, Any]) -> None:
    """A daily game's stored review: its attempt's loss, decisions and turn grades; and the
    day's par, if nobody's review computed it yet."""
    attempt = DailyAttempt.objects.filter(game_id=game_id).select_related("challenge").first()
    if attempt is None:
        return
    summary = data["players"][0]
    attempt.decisions = summary["decisions"]
    attempt.loss = summary["mean_loss"] * summary["decisions"]
    attempt.turn_grades = turn_grades(data["decisions"])
    attempt.save(update_fields=["decisions", "loss", "turn_grades"])
    ensure_par(attempt.challenge)


def par_line(tape: DailyDice) -> tuple[int, list[dict[str, Any]]]:
    """The optimal bot's game on ``tape``: its score and its moves, turn by turn (each turn's
    rolls, the dice kept after each, its box, the box's ``points`` and the ``bonus`` its score
    brought besides)."""
    game = RulesGame(tape.ruleset, ["Par"], rng=tape)
    line: list[dict[str, Any]] = []
    turn: dict[str, Any] = {}
    while not game.is_over:
        action = choose_action(game, "optimal")
        if isinstance(action, Roll):
            if game.dice is None:
                turn = {"turn": game.round, "rolls": [], "held": []}
            else:
                turn["held"].append(sorted(game.dice[i] for i in action.hold))
            game.roll(action.hold)
            turn["rolls"].append(list(game.dice or ()))
        else:
            before = game.scorecards[0].total
            game.score(action.box, action.column)
            # The box's own points; apart, the bonuses this box brought (the upper section's
            # once it reaches 63, a further Yahtzee's).
            points = game.scorecards[0].points(action.box, action.column) or 0
            turn.update(box=action.box, points=points,
                        bonus=game.scorecards[0].total - before - points)
            line.append(turn)
    return game.scorecards[0].total, line


def ensure_par(day: DailyChallenge) -> int:
    """The day's par, computed once (the strategy tables' work: the review worker's)."""
    if day.par is not None:
        return day.par
    score, line = par_line(DailyDice(day.seed, day.rules, day.day))
    DailyChallenge.objects.filter(pk=day.pk, par__isnull=True).update(par=score, par_line=line)
    day.par, day.par_line = score, line
    return score
