"""A daily game's review (the review worker's work, done here in the test's process): its
attempt's loss, decisions and turn grades, and the day's par with its line, computed once."""

from __future__ import annotations

import pytest

from game import services
from game.models import DailyAttempt, DailyChallenge, Game
from game.rules import DailyDice
from game.services.daily import start_attempt
from game.services.daily_review import par_line, turn_grades
from game.services.review import analyse_game
from tests.support.rooms import as_action, next_move

DB = pytest.mark.django_db(transaction=True)


def test_turn_grades_take_each_turns_worst_decision_forced_counting_as_best():
    decisions = [
        {"kind": "hold", "grade": "good"}, {"kind": "hold", "grade": "mistake"},
        {"kind": "box", "grade": "best"},
        {"kind": "box", "grade": "forced"},
        {"kind": "hold", "grade": "inaccuracy"}, {"kind": "box", "grade": "blunder"},
    ]
    assert turn_grades(decisions) == ["mistake", "best", "blunder"]


UPPER = ["ones", "twos", "threes", "fours", "fives", "sixes"]


@DB
def test_a_reviewed_daily_game_records_its_loss_and_the_days_par(yahtzee_table):
    player = services.new_player("Ann")
    attempt = start_attempt(player, "g", "yahtzee")
    game = attempt.game
    while game.status == Game.Status.PLAYING:
        services.play(attempt.room.code, as_action(next_move(game.snapshot)), guest_key="g")
        game.refresh_from_db()
    analyse_game(game.pk)
    attempt = DailyAttempt.objects.get(pk=attempt.pk)
    assert attempt.decisions > 0 and attempt.loss is not None and attempt.loss > 0
    assert len(attempt.turn_grades) == 13
    day = DailyChallenge.objects.get(pk=attempt.challenge_id)
    score, line = par_line(DailyDice(day.seed, "yahtzee", day.day))
    assert day.par == score and day.par_line == line and len(line) == 13
    assert sum(t["points"] + t["bonus"] for t in line) == score
    # Each box's own points (a fours box at most 20), its bonus apart.
    for t in line:
        if t["box"] in UPPER:
            face = UPPER.index(t["box"]) + 1
            assert t["points"] == face * t["rolls"][-1].count(face)
    # A turn's bonus: the upper section's 35 on the turn that reaches 63, and a Yahtzee bonus
    # of 100 on any turn that scores another Yahtzee (as a joker in an upper box too).
    assert all(t["bonus"] % 100 in (0, 35) and t["bonus"] <= 135 for t in line)
    assert sum(t["bonus"] % 100 for t in line) in (0, 35)
    assert sum(t["bonus"] % 100 for t in line if t["box"] not in UPPER) == 0
    # par's first roll of each turn is everyone's
    tape = DailyDice(day.seed, "yahtzee", day.day)
    for t in line:
        faces = tape.faces(t["turn"], 1)
        assert t["rolls"][0] == [next(faces) for _ in range(5)]
    # a second review of the day does not move par
    DailyChallenge.objects.filter(pk=day.pk).update(par=score + 1)
    analyse_game(game.pk)
    assert DailyChallenge.objects.get(pk=day.pk).par == score + 1
