"""The review of a game (game.ai.review): every decision graded, every roll's luck, and the
chain final = expected start + Σ luck − Σ loss, on whole games of every bot level."""

from __future__ import annotations

import json
import random

import pytest

from game.ai import CardState, Standings, choose_action
from game.ai.review import FORCED, GRADES, VERSION, analyse, decision_options, grade
from game.rules import BonusAwarded, Game, GameStarted, Rolled, Scored, TurnStarted

EMPTY_YAHTZEE = 254.587729  # the tables' expected scores of an empty card (docs/ai.md)
EMPTY_YATZY = 248.439989


def bot_game(rules: str, levels: tuple[str, ...], seed: int, rng=None) -> tuple[Game, list[str]]:
    """A whole game, ``levels[i]`` playing seat i; its events and who acted for each."""
    dice = rng if rng is not None else random.Random(seed)
    game = Game(rules, [f"{lv} {i}" for i, lv in enumerate(levels)], rng=dice)
    by = ["system"] * len(game.events)
    while not game.is_over:
        events = game.play(choose_action(game, levels[game.current_player], dice))
        by += ["bot"] * len(events)
    return game, by


def assert_chain(analysis, final_scores: list[int]) -> None:
    """Each player's values telescope: start + luck − loss (+ drift) = final."""
    for p, summary in enumerate(analysis.players):
        assert summary.final == final_scores[p]
        assert summary.expected_start + summary.luck - summary.loss + summary.drift \
            == pytest.approx(summary.final, abs=1e-6)
        assert summary.expected == pytest.approx(summary.final, abs=1e-6)
        assert summary.luck == pytest.approx(
            sum(r.luck for r in analysis.rolls if r.player == p), abs=1e-9)
        assert summary.loss == pytest.approx(
            sum(d.loss for d in analysis.decisions if d.player == p), abs=1e-9)


LINEUPS = [("optimal",), ("easy", "medium"), ("medium", "optimal", "easy")]


@pytest.mark.parametrize("lineup", LINEUPS, ids="-".join)
@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize("rules", ["yahtzee", "yatzy"])
def test_final_is_start_plus_luck_minus_loss(rules, seed, lineup, yahtzee_table, yatzy_table):
    game, by = bot_game(rules, lineup, seed)
    analysis = analyse(game.events, by)
    assert_chain(analysis, [c.total for c in game.scorecards])
    for summary in analysis.players:
        assert summary.drift == pytest.approx(0, abs=1e-9)  # exact rulesets: no drift
        assert summary.expected_start == pytest.approx(
            EMPTY_YAHTZEE if rules == "yahtzee" else EMPTY_YATZY, abs=1e-6)
    assert all(d.loss >= 0 and d.expected_best >= d.expected_chosen - 1e-9
               for d in analysis.decisions)
    # The JSON tells the same story to its rounding.
    data = json.loads(json.dumps(analysis.to_dict()))
    for p in data["players"]:
        assert p["expected_start"] + p["luck"] - p["loss"] == pytest.approx(p["final"], abs=3e-6)


def test_bonuses_and_jokers_keep_the_chain(yahtzee_table):
    """Dice showing five sixes, then five fives, …, five ones, round and round: a Yahtzee
    every turn, so 50, then a Yahtzee bonus and the Joker every turn, and the upper bonus —
    the table's values include them all."""

    class FiveOfAKind:
        calls = 0

        def randint(self, a: int, b: int) -> int:
            self.calls += 1
            return 6 - (self.calls - 1) // 5 % 6

    game, by = bot_game("yahtzee", ("optimal",), 0, rng=FiveOfAKind())
    kinds = [e.bonus for e in game.events if isinstance(e, BonusAwarded)]
    assert kinds.count("yahtzee") == 12 and "upper" in kinds
    assert any(e.joker for e in game.events if isinstance(e, Scored))
    analysis = analyse(game.events, by)
    assert_chain(analysis, [game.scorecards[0].total])
    assert analysis.players[0].loss == 0
    assert analysis.players[0].luck > 1000  # 1530 points where 254.6 were expected


@pytest.mark.parametrize("rules", ["yahtzee", "yatzy"])
def test_the_optimal_bot_loses_nothing_and_easy_does(rules, yahtzee_table, yatzy_table):
    game, by = bot_game(rules, ("optimal", "easy"), 7)
    analysis = analyse(game.events, by)
    best, easy = analysis.players
    assert best.loss == 0.0 and best.mean_loss == 0.0
    assert best.grades["best"] == best.decisions > 13
    assert sum(best.grades.values()) == best.decisions
    assert easy.loss > 0 and easy.mean_loss > 0
    assert easy.grades["best"] < easy.decisions
    assert all(d.grade == "best" and d.chosen == d.best
               for d in analysis.decisions if d.player == 0 and d.grade != FORCED)


def first_turn(*rolls: tuple[tuple[int, ...], tuple[int, ...]], score: str | None = None):
    """Events of player 0's first turn on an empty yahtzee card: (dice, held positions) of
    each roll, then maybe a score."""
    events = [GameStarted("yahtzee", ("Ann",)), TurnStarted(0, 1)]
    for n, (dice, held) in enumerate(rolls, start=1):
        events.append(Rolled(0, dice, held, n))
    if score is not None:
        card = Game.from_events(events).scorecard
        events.append(Scored(0, score, 0, card.score_for(events[-1].dice, score)))
    return events


def test_known_position_keep_three_three_or_nothing(yahtzee_table):
    """Empty card, 1,3,3,5,6 with two rolls left: keeping 3,3 is best (251.405442); keeping
    nothing costs 1.933492."""
    kept = analyse(first_turn(((1, 3, 3, 5, 6), ()), ((3, 3, 3, 2, 4), (1, 2))))
    (d,) = kept.decisions
    assert (d.kind, d.chosen, d.best, d.grade, d.loss) == ("hold", (3, 3), (3, 3), "best", 0)
    assert d.expected_chosen == d.expected_best == pytest.approx(251.405442, abs=1e-6)
    assert d.rolls_left == 2 and d.options == 23 + 13  # distinct holds but all five; boxes

    nothing = analyse(first_turn(((1, 3, 3, 5, 6), ()), ((2, 2, 4, 4, 6), ())))
    (d,) = nothing.decisions
    assert (d.kind, d.chosen, d.best, d.grade) == ("hold", (), (3, 3), "mistake")
    assert d.expected_best == pytest.approx(251.405442, abs=1e-6)
    assert d.loss == pytest.approx(1.933492, abs=1e-6)
    assert d.expected_chosen == pytest.approx(251.405442 - 1.933492, abs=1e-6)
    # The first roll's luck: 1,3,3,5,6 is worth less than an average first roll.
    assert nothing.rolls[0].luck == pytest.approx(251.405442 - EMPTY_YAHTZEE, abs=1e-6)


def test_scoring_with_rolls_left_is_weighed_against_every_hold(yahtzee_table):
    # A Yahtzee on the first roll: scoring it now is best, among boxes and holds alike.
    (d,) = analyse(first_turn(((4,) * 5, ()), score="yahtzee")).decisions
    assert (d.kind, d.chosen, d.best, d.grade, d.rolls_left) == ("box", "yahtzee", "yahtzee",
                                                                 "best", 2)
    assert d.options == 13 + 5  # 13 boxes; holds of 0–4 fours
    # Chance on a poor first roll throws away two re-rolls: a hold was better.
    (d,) = analyse(first_turn(((1, 3, 3, 5, 6), ()), score="chance")).decisions
    assert d.kind == "box" and d.chosen == "chance" and d.best == (3, 3)
    assert d.loss > 5 and d.grade == "blunder"


def test_a_forced_box_is_not_graded(yahtzee_table):
    game, by = bot_game("yahtzee", ("easy",), 3)
    analysis = analyse(game.events, by)
    last = analysis.decisions[-1]
    assert last.kind == "box" and last.options == 1 and last.grade == FORCED
    graded = [d for d in analysis.decisions if d.grade != FORCED]
    assert analysis.players[0].decisions == len(graded)
    assert analysis.players[0].mean_loss == pytest.approx(
        sum(d.loss for d in graded) / len(graded), abs=1e-12)


def test_autoplay_decisions_are_analysed_but_not_graded(yahtzee_table):
    game, by = bot_game("yahtzee", ("easy", "easy"), 5)
    mine = analyse(game.events, by).players[0]
    # Player 0 was away from round 7 on: its moves were autoplay's.
    away = False
    for i, event in enumerate(game.events):
        away = away or (isinstance(event, TurnStarted) and event.round >= 7)
        if away and getattr(event, "player", None) == 0 and event.kind != "turn_started":
            by[i] = "autoplay"
    analysis = analyse(game.events, by)
    marked = analysis.players[0]
    auto = [d for d in analysis.decisions if d.by == "autoplay"]
    assert auto and all(d.player == 0 for d in auto)
    real_auto = [d for d in auto if d.grade != FORCED]
    assert marked.autoplay_decisions == len(real_auto)
    assert marked.autoplay_loss == pytest.approx(sum(d.loss for d in auto), abs=1e-12)
    assert marked.decisions == mine.decisions - len(real_auto)
    assert sum(marked.grades.values()) == marked.decisions
    assert marked.mean_loss * marked.decisions + marked.autoplay_loss == pytest.approx(
        mine.mean_loss * mine.decisions, abs=1e-9)
    # The chain still counts autoplay's losses: the identity holds as before.
    assert marked.loss == mine.loss
    assert_chain(analysis, [c.total for c in game.scorecards])
    assert analysis.players[1] == analyse(game.events).players[1]


def test_a_game_in_progress_is_analysed_so_far(yahtzee_table):
    game, by = bot_game("yahtzee", ("medium", "easy"), 4)
    cut = 120
    analysis = analyse(game.events[:cut], by[:cut])
    assert not analysis.finished
    for summary in analysis.players:
        assert summary.expected_start + summary.luck - summary.loss == pytest.approx(
            summary.expected, abs=1e-6)
    assert max(d.seq for d in analysis.decisions) <= cut
    assert all(summary.as_high is None for summary in analysis.players)  # no final yet


def test_json_format(yahtzee_table):
    game, by = bot_game("yahtzee", ("optimal", "easy", "medium"), 2)
    seqs = [i + 10 for i in range(len(game.events))]  # seqs come from the stored events
    data = json.loads(json.dumps(analyse(game.events, by, seqs).to_dict()))
    assert data["version"] == VERSION and data["rules"] == "yahtzee"
    assert data["valuation"] == "exact" and data["finished"] is True
    assert [p["name"] for p in data["players"]] == list(game.players)
    for p in data["players"]:
        assert {"name", "expected_start", "luck", "loss", "final", "decisions", "mean_loss",
                "grades"} <= set(p)
        assert list(p["grades"]) == list(GRADES)
    decisions = data["decisions"]
    assert [d["seq"] for d in decisions] == sorted(d["seq"] for d in decisions)
    assert {d["kind"] for d in decisions} == {"hold", "box"}
    for d in decisions:
        assert {"seq", "player", "kind", "chosen", "best", "expected_chosen",
                "expected_best", "loss", "grade"} <= set(d)
        assert d["loss"] == pytest.approx(d["expected_best"] - d["expected_chosen"], abs=2e-6)
        if d["kind"] == "hold":
            assert d["chosen"] == sorted(d["chosen"]) and len(d["chosen"]) <= 5
        else:
            assert d["chosen"] in game.ruleset.box_names
        assert d["grade"] == (FORCED if d["options"] == 1 else grade(d["loss"]))
        assert seqs[0] < d["seq"] <= seqs[-1]
    # The series starts every player at the empty card's value and ends at the final score.
    series = data["series"]
    for p, summary in enumerate(data["players"]):
        mine = [v for _, who, v in series if who == p]
        assert mine[0] == summary["expected_start"] and mine[-1] == summary["final"]
    assert [s for s, _, _ in series] == sorted(s for s, _, _ in series)


@pytest.mark.parametrize(("loss", "expected"), [
    (0.0, "best"), (1e-5, "good"), (0.00999, "good"), (0.01, "inaccuracy"),
    (0.99, "inaccuracy"), (1.0, "mistake"), (4.99, "mistake"), (5.0, "blunder"),
    (40.0, "blunder"),
])
def test_verhoeff_grades(loss, expected):
    assert grade(loss) == expected


def test_bad_histories_are_refused(yahtzee_table):
    game, by = bot_game("yahtzee", ("easy",), 1)
    with pytest.raises(ValueError, match="game_started"):
        analyse(game.events[1:])
    with pytest.raises(ValueError, match="as long as"):
        analyse(game.events, by[:-1])


def test_triple_is_valued_by_the_optimal_bot(yahtzee_table):
    """Triple: the chain holds with the valuation's drift; the optimal bot loses nothing."""
    game, by = bot_game("triple", ("optimal", "easy"), 11)
    analysis = analyse(game.events, by)
    assert_chain(analysis, [c.total for c in game.scorecards])
    best, easy = analysis.players
    assert best.loss == 0.0 and easy.loss > 0
    # W + the first turn's worth: six empty yahtzee columns and a little more.
    assert 6 * EMPTY_YAHTZEE < best.expected_start < 6 * EMPTY_YAHTZEE + 20
    assert best.drift > 0  # W undervalues sharing turns between columns
    boxes = [d.chosen for d in analysis.decisions if d.kind == "box"]
    assert len(boxes) == 2 * 39
    assert all(b.rsplit("@", 1)[1] in "123" for b in boxes)
    assert analysis.valuation.startswith("triple")
    assert [p.as_high for p in analysis.players] == [None, None]  # no distribution in triple


@pytest.mark.parametrize("players", [2, 4])
def test_win_chances_at_every_turn(players, yahtzee_table):
    game, by = bot_game("yahtzee", ("optimal", "easy", "medium", "optimal")[:players], seed=4)
    chances = analyse(game.events, by).chances
    turn_starts = [i + 1 for i, e in enumerate(game.events) if e.kind == "turn_started"]
    assert [s for s, _ in chances] == [*turn_starts, len(game.events)]
    for _, cs in chances:
        assert len(cs) == players and sum(cs) == pytest.approx(1.0, abs=1e-9)
        assert all(0.0 <= c <= 1.0 for c in cs)
    # Empty cards are worth the same to everyone; the end is who won.
    assert chances[0][1] == pytest.approx([1 / players] * players, abs=1e-9)
    winners = set(game.winners)
    assert chances[-1][1] == [1 / len(winners) if p in winners else 0.0 for p in range(players)]
    # Before the last turn the leader's chance has moved well off the start.
    assert max(chances[-2][1]) > 1 / players + 0.2


@pytest.mark.parametrize(("rules", "lineup", "seed"), [
    ("yahtzee", ("easy",), 5), ("yatzy", ("optimal", "medium"), 6)])
def test_each_final_against_the_chances_before_the_game(rules, lineup, seed, yahtzee_table,
                                                        yatzy_table):
    """Each player's chance, from the empty cards, of finishing at least as high as they did:
    the standings' ``finishes_above`` (here their fallback: the tests build no score table),
    which is the empty card's distribution summed from the final on."""
    game, by = bot_game(rules, lineup, seed)
    analysis = analyse(game.events, by)
    start = Game.from_events(game.events[:1]).scorecards
    standings = Standings(game.ruleset)
    lo, probs = standings.distribution(0, CardState.empty())
    for p, summary in enumerate(analysis.players):
        above = standings.finishes_above(start, p, summary.final - 1)
        assert summary.as_high == pytest.approx(above, abs=1e-9)
        assert summary.as_high == pytest.approx(float(probs[summary.final - lo:].sum()),
                                                abs=1e-9)
        assert 0 < summary.as_high <= 1  # the fallback's fit may put a low final below it all
    data = json.loads(json.dumps(analysis.to_dict()))
    assert [p["as_high"] for p in data["players"]] == pytest.approx(
        [s.as_high for s in analysis.players], abs=1e-6)


def test_a_game_ended_early_has_no_final_to_weigh(yahtzee_table):
    game, by = bot_game("yahtzee", ("easy", "easy"), 7)
    events = game.events[:40]
    ended = Game.from_events(events)
    events = [*events, *ended.end()]
    assert [p.as_high for p in analyse(events, [*by[:40], "system"]).players] == [None, None]


def test_one_final_is_weighed_once_however_many_players_reach_it(monkeypatch, yahtzee_table):
    from game.ai import review

    asked = []
    plain = Standings.finishes_above

    def counted(self, cards, player, points):
        asked.append(points)
        return plain(self, cards, player, points)

    monkeypatch.setattr(Standings, "finishes_above", counted)
    finals = {"Ann": 230, "Bob": 180, "Cy": 230}
    start = Game("yahtzee", list(finals), rng=random.Random(1)).events[:1]
    players = [review.PlayerSummary(name, final=final) for name, final in finals.items()]
    chances = review._as_high(start, players)
    assert chances[0] == chances[2] != chances[1] and sorted(asked) == [179.5, 229.5]


def test_one_player_has_no_win_chances(yahtzee_table):
    game, by = bot_game("yahtzee", ("easy",), seed=2)
    assert analyse(game.events, by).chances == []


def test_one_decisions_options_are_valued_as_the_analysis_values_them(yahtzee_table):
    """Try it yourself values one decision alone: its chosen and best options are the
    analysis's, to the last bit, for every decision of a game (holds and boxes, every level)."""
    game, by = bot_game("yahtzee", ("easy", "medium", "optimal"), 5)
    analysis = analyse(game.events, by)
    for d in analysis.decisions:
        options = decision_options(game.events, d.seq)
        assert (options.player, options.kind, options.rolls_left) == (d.player, d.kind,
                                                                        d.rolls_left)
        assert options.chosen == d.chosen and options.best == d.best
        assert options.expected_best == d.expected_best
        assert options.loss(options.chosen) == d.loss
        assert grade(options.loss(options.chosen)) == (d.grade if d.grade != FORCED else "best")
        # Every legal box has its points now; the holds are every distinct multiset kept.
        assert set(options.points) == set(options.boxes)
        assert len(options.holds) == len({tuple(sorted(h)) for h in options.holds})
        if d.kind == "box":
            assert options.points[d.chosen] == next(
                e.points for e in game.events if isinstance(e, Scored) and e.box == d.chosen
                and e.player == d.player)


def test_one_triple_decisions_options_are_the_analysis_values(yahtzee_table):
    game, by = bot_game("triple", ("optimal", "easy"), 11)
    analysis = analyse(game.events, by)
    # Early turns (each turn against W) and one late one (the exact end game).
    for d in [*analysis.decisions[:12:3], analysis.decisions[-4]]:
        options = decision_options(game.events, d.seq)
        assert options.chosen == d.chosen and options.best == d.best
        assert options.expected_best == pytest.approx(d.expected_best, abs=1e-9)
        assert options.loss(options.chosen) == pytest.approx(d.loss, abs=1e-9)
        assert all("@" in box for box in options.boxes)


def test_a_move_that_is_no_decision_has_no_options(yahtzee_table):
    game, _ = bot_game("yahtzee", ("easy",), 1)
    first_roll = next(i + 1 for i, e in enumerate(game.events) if isinstance(e, Rolled))
    for seq, why in ((1, "not a decision"), (2, "not a decision"), (first_roll, "not a decision"),
                     (len(game.events), "not a decision"), (10_000, "no move 10000"),
                     (0, "no move 0")):
        with pytest.raises(ValueError, match=why):
            decision_options(game.events, seq)
