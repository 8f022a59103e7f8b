"""The analysis as the game's page shows it: read from the stored review, nothing recomputed."""

from __future__ import annotations

import json
import re

import pytest

from game.ai.review import VERSION
from game.models import GameAnalysis
from game.presenters.review import headline, review_view, whole_points
from tests.support.rooms import finished_game

GRADES = {"best": 1, "good": 0, "inaccuracy": 0, "mistake": 1, "blunder": 0}


def stored(valuation: str = "exact") -> dict:
    """A stored review in the format of ``game.ai.review`` (docs/ai.md), two players."""
    return {
        "version": VERSION, "rules": "yahtzee", "valuation": valuation, "finished": True,
        "players": [
            {"name": "Ann", "expected_start": 254.587729, "luck": -12.654237, "loss": 1.933492,
             "final": 240, "decisions": 2, "mean_loss": 0.966746, "grades": GRADES,
             "drift": 0.0 if valuation == "exact" else 312.5, "expected": 240.0,
             "autoplay_decisions": 0, "autoplay_loss": 0.0},
            {"name": "Bob", "expected_start": 254.587729, "luck": 6.02, "loss": 0.607729,
             "final": 260, "decisions": 0, "mean_loss": 0.0, "grades": dict.fromkeys(GRADES, 0),
             "drift": 0.0, "expected": 260.0, "autoplay_decisions": 1, "autoplay_loss": 0.607729},
        ],
        "decisions": [
            {"seq": 4, "player": 0, "kind": "hold", "chosen": [], "best": [3, 3],
             "expected_chosen": 249.47195, "expected_best": 251.405442, "loss": 1.933492,
             "grade": "mistake", "options": 36, "rolls_left": 2, "by": "human"},
            {"seq": 6, "player": 0, "kind": "box", "chosen": "chance", "best": "chance",
             "expected_chosen": 250.1, "expected_best": 250.1, "loss": 0.0, "grade": "best",
             "options": 13, "rolls_left": 0, "by": "human"},
            {"seq": 9, "player": 1, "kind": "box", "chosen": "ones", "best": "twos",
             "expected_chosen": 249.0, "expected_best": 249.607729, "loss": 0.607729,
             "grade": "inaccuracy", "options": 12, "rolls_left": 0, "by": "autoplay"},
            {"seq": 80, "player": 0, "kind": "box", "chosen": "yahtzee", "best": "yahtzee",
             "expected_chosen": 240.0, "expected_best": 240.0, "loss": 0.0, "grade": "forced",
             "options": 1, "rolls_left": 0, "by": "human"},
        ],
        "rolls": [{"seq": 3, "player": 0, "roll": 1, "luck": -3.182287}],
        "series": [[1, 0, 254.587729], [1, 1, 254.587729], [3, 0, 251.405442],
                   [7, 1, 255.004], [80, 0, 240.0]],
        "chances": [[2, [0.5, 0.5]], [81, [0.0, 1.0]]],
    }


def test_no_analysis_or_another_format_shows_nothing():
    assert review_view(None) is None
    assert review_view({**stored(), "version": VERSION + 1}) is None


def test_each_player_reads_as_the_chain_start_plus_luck_minus_cost_is_final():
    ann, bob = review_view(stored())["players"]
    assert [(t["op"], t["value"]) for t in ann["terms"]] == [
        ("", "254.59"), ("−", "12.65"), ("−", "1.93")]
    assert ann["final"] == 240 and ann["drift"] is None
    # The rounded terms add up to the final score, as the page writes them.
    assert round(254.59 - 12.65 - 1.93) == 240
    assert ann["mean_loss"] == pytest.approx(0.966746) and ann["expert"] is False
    assert [(g["symbol"], g["count"]) for g in ann["grades"]] == [
        ("", 1), ("", 0), ("?!", 0), ("?", 1), ("??", 0)]
    assert bob["terms"][1]["op"] == "+" and bob["mean_loss"] is None and not bob["expert"]
    assert bob["autoplay_decisions"] == 1


def test_triple_shows_the_drift_of_the_bots_valuation():
    view = review_view(stored("triple: the optimal bot's valuation"))
    assert view["exact"] is False
    assert view["players"][0]["terms"][-1] == {
        "label": "Correction of the estimate (below)", "op": "+", "value": "312.50"}


def test_triples_drift_is_explained_in_a_sentence_on_the_page():
    from types import SimpleNamespace

    from django.template.loader import render_to_string

    game = SimpleNamespace(pk=1, status="finished", unfinished=False)
    html = render_to_string("game/_analysis.html", {
        "game": game, "analysis": review_view(stored("triple: the optimal bot's valuation"))})
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))
    assert "Correction of the estimate (below) + 312.50" in text
    assert "The correction is not a skill or a luck figure" in text
    assert "Drift" not in text and "Σ" not in text and "Δ" not in text


def test_the_scripts_part_keeps_only_what_the_page_draws():
    script = review_view(stored())["script"]
    assert script["decisions"] == [
        {"seq": 4, "grade": "mistake", "loss": 1.933, "best": [3, 3]},
        {"seq": 6, "grade": "best", "loss": 0.0},
        {"seq": 9, "grade": "inaccuracy", "loss": 0.608, "best": "twos", "autoplay": True},
    ]  # the forced last box is not a decision
    assert script["luck"] == [[3, -3.18]]
    assert script["series"] == [[[1, 254.59], [3, 251.41], [80, 240.0]], [[1, 254.59], [7, 255.0]]]
    assert script["chances"] == [[2, [0.5, 0.5]], [81, [0.0, 1.0]]]


@pytest.mark.django_db
def test_the_page_says_the_analysis_is_being_prepared_then_shows_it(client):
    game = finished_game(["Ann", "Bob"])
    GameAnalysis.objects.filter(game=game).delete()  # however the end of the game handled it
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert 'data-state="pending"' in page and "being prepared" in page
    assert "analysis-data" not in page and "Points lost" not in page
    assert 'data-poll="/games/' in page  # the page asks again until it is ready
    part = client.get(f"/games/{game.pk}/analysis").content.decode()
    assert 'data-state="pending"' in part and "<html" not in part

    GameAnalysis.objects.update_or_create(game=game, defaults={"version": VERSION,
                                                               "data": stored()})
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert 'data-state="ready"' in page and "being prepared" not in page
    assert "data-poll" not in page
    part = client.get(f"/games/{game.pk}/analysis").content.decode()
    assert 'data-state="ready"' in part and 'id="analysis-data"' in part
    script = re.search(r'<script id="analysis-data" type="application/json">(.*?)</script>',
                       page).group(1)
    assert json.loads(script) == review_view(stored())["script"]
    chain = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page))
    assert "Best play scores, on average 254.59 Luck of the dice − 12.65" in chain
    assert "Points lost to the choices − 1.93 Final score = 240" in chain
    # Above the replay, the headline: a watcher reads about the winner, in whole points.
    assert ("Bob won by 20 points. Bob: the dice gave 6 points more than average, the choices "
            "cost 1. The computer chose for Bob 1 time while away") in chain
    assert "The figures: how each score came about" in chain
    assert ("Each decision cost 0.97 points on average, over 2 decisions: expert play loses "
            "under 0.2.") in chain
    # One of a grade is written in the singular, several in the plural.
    assert "1 mistake " in chain and "0 blunders" in chain and "1 mistakes" not in chain
    assert "style=" not in page  # the page's CSP allows no inline styles


def test_a_tried_decision_gives_every_option_its_cost_and_grade():
    """Try it yourself: each hold (but keeping all five) and each legal box, with what it gives
    up against the best, graded as the review grades; best first."""
    from game.ai.review import DecisionOptions
    from game.presenters.review import tried_view

    options = DecisionOptions(
        seq=4, player=0, kind="hold", dice=(3, 1, 5, 3, 6), rolls_left=2, chosen=(),
        best=(3, 3), expected_best=251.405442,
        holds={(): 249.47195, (3, 3): 251.405442, (3,): 250.1, (1, 3, 3, 5, 6): 240.0},
        boxes={"chance": 238.2, "threes": 251.4054419999}, points={"chance": 18, "threes": 6})
    view = tried_view(options)
    assert json.loads(json.dumps(view)) == view
    assert view["dice"] == [3, 1, 5, 3, 6] and view["rolls_left"] == 2
    assert view["chosen"] == [] and view["best"] == [3, 3]
    assert view["holds"] == [
        {"keep": [3, 3], "expected": 251.405, "loss": 0.0, "grade": "best"},
        {"keep": [3], "expected": 250.1, "loss": 1.305, "grade": "mistake"},
        {"keep": [], "expected": 249.472, "loss": 1.933, "grade": "mistake"},
    ]  # keeping all five is not offered: nothing would be rolled
    assert view["boxes"] == [
        {"box": "threes", "points": 6, "expected": 251.405, "loss": 0.0, "grade": "best"},
        {"box": "chance", "points": 18, "expected": 238.2, "loss": 13.205, "grade": "blunder"},
    ]  # a difference of float noise is no loss


def with_chances() -> dict:
    """``stored()`` as version 3 writes a two-player game: chances per decision and player."""
    data = stored()
    data["decisions"][0].update(chance_chosen=0.47, chance_best=0.4823, chance_loss=0.0123,
                                best_to_win=[3, 3])
    data["decisions"][1].update(chance_chosen=0.5, chance_best=0.5, chance_loss=0.0,
                                best_to_win="chance")
    data["players"][0]["chance"] = {"start": 0.5, "luck": -0.3, "loss": 0.0123,
                                    "others": 0.001, "drift": -0.1887, "final": 0.0}
    data["players"][1]["chance"] = {"start": 0.5, "luck": 0.3, "loss": 0.001,
                                    "others": 0.0123, "drift": 0.1887, "final": 1.0}
    return data


def test_chances_per_decision_and_each_players_chain_in_chances():
    view = review_view(with_chances())
    first, second, _ = view["script"]["decisions"]
    assert first["chance_loss"] == 0.0123 and first["best_to_win"] == [3, 3]
    assert second["chance_loss"] == 0.0 and "best_to_win" not in second  # it was the choice
    ann = view["players"][0]["chance"]
    assert [(t["op"], t["value"]) for t in ann] == [
        ("", "50.0"), ("−", "30.0"), ("−", "1.2"), ("+", "0.1"), ("−", "18.9"), ("=", "0.0")]
    # Without chances (one player, triple, an older review): nothing of them.
    plain = review_view(stored())
    assert plain["players"][0]["chance"] is None
    assert all("chance_loss" not in d for d in plain["script"]["decisions"])


def test_the_page_writes_the_chance_chain_and_triple_says_what_is_exact():
    from types import SimpleNamespace

    from django.template.loader import render_to_string

    game = SimpleNamespace(pk=1, status="finished", unfinished=False)

    def text_of(data: dict) -> str:
        html = render_to_string("game/_analysis.html", {"game": game,
                                                        "analysis": review_view(data)})
        return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))

    text = text_of(with_chances())
    assert "Chance to win before the game 50.0 % Luck of the dice (everyone’s) − 30.0 %" in text
    assert "Chance to win at the end (won or lost) = 0.0 %" in text
    assert "(the model)" not in text and "Outcome" not in text and "Verhoeff" not in text
    assert "chance to win it gave up" in text
    triple = text_of(stored("triple: the optimal bot's valuation"))
    assert "Exact in Triple: the end game once at most 8 boxes are open" in triple
    assert "There are no chances to win in Triple." in triple
    assert "chance to win it gave up" not in triple


def test_each_final_is_set_against_the_chances_before_the_game_in_a_sentence():
    data = stored()
    data["players"][0]["as_high"] = 0.231412
    data["players"][1]["as_high"] = 0.004
    ann, bob = review_view(data)["players"]
    assert ann["as_high"] == "From an empty card, 23 % of games end on 240 or more."
    assert bob["as_high"] == "From an empty card, 0.4 % of games end on 260 or more."
    for chance, said in ((0.0004, "under 0.1 %"), (0.9996, "over 99.9 %"), (0.995, "99.5 %"),
                         (0.0099, "1.0 %"), (0.5, "50 %")):
        data["players"][0]["as_high"] = chance
        assert review_view(data)["players"][0]["as_high"] == (
            f"From an empty card, {said} of games end on 240 or more.")
    # Triple, a game ended early or a review stored before the figure: no sentence.
    assert review_view(stored())["players"][0]["as_high"] is None


@pytest.mark.django_db
def test_the_review_weighs_each_final_against_the_start_and_the_page_says_so(client,
                                                                            yahtzee_table):
    """A game played to the end, its review computed as the worker computes it: each final's
    chance from the empty cards is the standings' ``finishes_above``, and the page writes it."""
    from django.utils import translation

    from game.ai import Standings
    from game.ai.review import analyse
    from game.rules import Game as RulesGame
    from game.rules import event_from_dict, get_ruleset
    from game.services.review import analyse_game

    game = finished_game(["Ann", "Bob"])
    rows = list(game.events.order_by("seq"))
    events = [event_from_dict(row.to_rules_dict()) for row in rows]
    start = RulesGame.from_events(events[:1]).scorecards
    standings = Standings(get_ruleset("yahtzee"))
    expected = [standings.finishes_above(start, p, total - 0.5)
                for p, total in enumerate(game.totals)]
    analysis = analyse(events, by=[row.by for row in rows], seqs=[row.seq for row in rows])
    assert [p.as_high for p in analysis.players] == pytest.approx(expected, abs=1e-9)
    stored_review = analyse_game(game.pk)
    assert [p["as_high"] for p in stored_review.data["players"]] == pytest.approx(
        expected, abs=1e-6)
    page = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ",
                                      client.get(f"/games/{game.pk}/").content.decode()))
    with translation.override("en"):
        for total, chance in zip(game.totals, expected, strict=True):
            if chance >= 0.9995:  # the services' test games end low: nearly every game beats them
                said = "over 99.9"
            elif chance < 0.0005:
                said = "under 0.1"
            else:
                said = f"{100 * chance:.{0 if 0.01 <= chance <= 0.99 else 1}f}"
            # In the player's card, right under their final score.
            assert (f"Final score = {total} From an empty card, {said} % of games end on "
                    f"{total} or more.") in page


def headline_of(data: dict, viewer: int | None = None, par: int | None = None) -> str:
    said = headline(review_view(data), viewer, par)
    return " ".join([said["title"], *said["lines"]])


def test_the_headline_of_a_player_who_lost_adds_up_with_the_figures_below():
    data = stored()
    view = review_view(data)
    ann = view["players"][0]
    # Ann lost by 20: the chain below writes her luck − 12.65 and her choices − 1.93.
    assert [t["value"] for t in ann["terms"][1:]] == ["12.65", "1.93"]
    assert headline_of(data, viewer=0) == (
        "You lost by 20 points to Bob. The dice cost you 13 points, your choices 2.")
    # The same figures in whole points: 254.59 − 13 − 2 ≈ 240, as the chain says to the cent.
    assert whole_points(-12.654237) == 13 and whole_points(1.933492) == 2


def test_the_headline_of_a_winner_a_tie_and_a_watcher():
    data = stored()
    assert headline_of(data, viewer=1) == (
        "You won by 20 points. The dice gave you 6 points more than average; your choices cost "
        "1. The computer chose for you 1 time while you were away (in the points above).")
    # A reader who did not play: about the winner, by name.
    assert headline_of(data).startswith("Bob won by 20 points. Bob: the dice gave 6 points ")
    assert "Ann: the dice cost 13 points, the choices 2." in headline_of(data)
    tie = stored()
    tie["players"][0]["final"] = 260
    assert headline_of(tie, viewer=0).startswith(
        "You tied for the win with Bob on 260 points. The dice cost you 13 points")
    said = headline(review_view(tie))
    assert said["title"] == "Ann and Bob tied for the win on 260 points."
    assert said["lines"][0].startswith("Ann: the dice cost 13 points, the choices 2.")
    assert said["lines"][1].startswith("Bob: the dice gave 6 points more than average")
    # One point: the singular.
    close = stored()
    close["players"][0]["final"] = 259
    assert headline_of(close, viewer=1).startswith("You won by 1 point. ")
    assert headline_of(close, viewer=0).startswith("You lost by 1 point to Bob. ")


def test_the_headline_counts_the_big_choices_and_the_computers_turns():
    data = stored()
    data["players"][0]["grades"] = {**GRADES, "blunder": 3}
    data["players"][0]["autoplay_decisions"] = 7
    lines = headline(review_view(data), 0)["lines"]
    assert lines[1:] == [
        "3 of your choices cost 5 points or more each.",
        "The computer chose for you 7 times while you were away (in the points above)."]
    data["players"][0]["grades"] = {**GRADES, "blunder": 1}
    assert headline(review_view(data), 0)["lines"][1] == (
        "1 of your choices cost 5 points or more.")
    # A reader who did not play reads about each player, the winner first.
    lines = headline(review_view(data))["lines"]
    assert lines[0].startswith("Bob: ") and lines[-3:] == [
        "Ann: the dice cost 13 points, the choices 2.",
        "Ann made 1 choice that cost 5 points or more.",
        "The computer chose for Ann 7 times while away (in the points above)."]
    data["players"][1]["grades"] = {**GRADES, "blunder": 2}
    assert "Bob made 2 choices that cost 5 points or more each." in headline_of(data)


def test_a_watcher_of_a_big_table_reads_about_the_winners():
    data = stored()
    for name, final in (("Cy", 200), ("Di", 150)):
        data["players"].append({**data["players"][0], "name": name, "final": final})
    lines = headline(review_view(data))["lines"]
    assert [line.split(":")[0] for line in lines if ":" in line] == ["Bob"]


def solo(final: int = 240, as_high: float | None = 0.231412) -> dict:
    data = stored()
    data["players"] = data["players"][:1]
    data["players"][0].update(final=final, as_high=as_high)
    data["series"] = [c for c in data["series"] if c[1] == 0]
    data["chances"] = []
    return data


def test_a_solo_game_says_the_score_and_how_it_compares_never_a_win():
    assert headline_of(solo(), viewer=0) == (
        "You scored 240 points. From an empty card, 23 % of games end on 240 or more. "
        "The dice cost you 13 points, your choices 2.")
    assert headline_of(solo()).startswith("Ann scored 240 points. ")
    # A daily: against par, the best play on the same dice.
    assert headline_of(solo(), viewer=0, par=251).startswith(
        "You scored 240 points. That is 11 points under par (251, the best play on the same "
        "dice). ")
    assert "1 point over par (239," in headline_of(solo(), par=239)
    assert "That is par exactly" in headline_of(solo(), par=240)
    for viewer in (0, None):
        for par in (None, 251):
            text = headline_of(solo(), viewer, par)
            assert " won" not in text and "win" not in text and "lost by" not in text


def test_the_headline_is_written_in_the_readers_language():
    from django.utils import translation

    with translation.override("de"):
        text = headline_of(stored(), viewer=0)
    assert text.startswith("Du hast mit 20 Punkten Rückstand gegen Bob verloren.")
    with translation.override("fr"):
        assert headline_of(stored(), viewer=1).startswith("Tu as gagné avec 20 points d’avance.")
