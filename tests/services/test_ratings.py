"""A reviewed game moves its people's ratings once, from the luck-adjusted results; computer
players hold their anchors; autoplay and unrated rules leave ratings alone; the command
``rebuild_ratings`` replays every reviewed game to the same ratings."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command

from game import ratings, services
from game.models import GameEvent, GameResult, Player, PlayerRating
from game.ratings.rating import ANCHOR_RD
from game.services import review as review_service
from tests.support.profiles import played_game, store_review

pytestmark = pytest.mark.django_db


def rating_of(player: Player, rules: str = "yahtzee") -> ratings.Rating:
    row = PlayerRating.objects.get(player=player, ruleset=rules)
    return ratings.Rating(row.rating, row.rd, row.volatility)


@pytest.fixture
def ann_bea():
    return services.new_player("Ann"), services.new_player("Bea")


def test_a_reviewed_game_rates_each_person_against_the_others_and_the_bots_anchor(ann_bea):
    ann, bea = ann_bea
    game = played_game([ann, bea, "easy"])
    store_review(game, lucks=[30.0, -12.5, 4.0], losses=[3.0, 9.0, 20.0])
    assert services.record_game(game.pk) is True

    expected = ratings.rate_game("yahtzee", [
        ratings.Seat(final=game.totals[0], luck=30.0),
        ratings.Seat(final=game.totals[1], luck=-12.5),
        ratings.Seat(final=game.totals[2], luck=4.0, bot="easy"),
    ])
    assert rating_of(ann) == pytest.approx(expected[0])
    assert rating_of(bea) == pytest.approx(expected[1])
    assert rating_of(ann) != rating_of(bea)  # the luck-adjusted results differ
    assert PlayerRating.objects.count() == 2  # the bot keeps its anchor: no row
    results = list(GameResult.objects.filter(game=game).order_by("seat"))
    assert [r.final for r in results] == game.totals
    assert [r.player for r in results] == [ann, bea, None] and results[2].bot_level == "easy"
    assert [r.won for r in results] == [i in game.winners for i in range(3)]
    assert [r.graded_loss for r in results] == pytest.approx([3.0, 9.0, 20.0])
    assert [r.rated for r in results] == [True, True, False]
    assert PlayerRating.objects.get(player=ann).games == 1


@pytest.mark.parametrize(("rules", "anchor"), [("yahtzee", 1645.0), ("yatzy", 1640.0)])
def test_a_game_against_the_computer_that_plays_to_win_rates_against_its_anchor(
        ann_bea, rules, anchor):
    """Its anchor: below the optimal bot's, from the points it gives up to win
    (benchmarks/rating.py); its seat in the profile's head to head names the level."""
    from game.selectors.players import head_to_head

    ann, _ = ann_bea
    game = played_game([ann, "to_win"], rules=rules)
    store_review(game, lucks=[10.0, -3.0])
    assert services.record_game(game.pk) is True
    score = ratings.adjusted_score(game.totals[0] - 10.0, game.totals[1] + 3.0)
    opponent = ratings.Rating(anchor, ANCHOR_RD, ratings.Rating().volatility)
    assert rating_of(ann, rules) == pytest.approx(
        ratings.update(ratings.Rating(), [(opponent, score)]))
    assert GameResult.objects.get(game=game, seat=1).bot_level == "to_win"
    assert [r.name for r in head_to_head(ann)] == ["Computer (plays to win)"]


def test_a_game_recorded_twice_counts_once(ann_bea):
    ann, bea = ann_bea
    game = played_game([ann, bea])
    store_review(game, lucks=[5.0, -5.0])
    services.record_game(game.pk)
    before = rating_of(ann)
    assert services.record_game(game.pk) is False
    assert rating_of(ann) == before and PlayerRating.objects.get(player=ann).games == 1
    assert GameResult.objects.filter(game=game).count() == 2


def test_the_review_store_records_the_game_once_even_when_recomputed(ann_bea, monkeypatch):
    """The hook after the review is stored: a review made again (``manage.py analyse``) does
    not count the game a second time. The review's computation needs a strategy table, so it
    returns a stored review's data here; the storing and the hook are the real ones."""
    ann, bea = ann_bea
    game = played_game([ann, bea])
    data = store_review(game, lucks=[-20.0, 20.0]).data
    monkeypatch.setattr(review_service.review, "analyse",
                        lambda *a, **k: type("A", (), {"to_dict": lambda self: data})())
    review_service.analyse_game(game.pk)
    after_one = rating_of(bea)
    review_service.analyse_game(game.pk)
    assert rating_of(bea) == after_one and PlayerRating.objects.get(player=bea).games == 1
    expected = ratings.rate_game("yahtzee", [
        ratings.Seat(final=game.totals[0], luck=-20.0),
        ratings.Seat(final=game.totals[1], luck=20.0)])
    assert after_one == pytest.approx(expected[1])


def test_ratings_grow_game_by_game_from_the_previous_rating(ann_bea):
    ann, bea = ann_bea
    first, second = played_game([ann, "medium"]), played_game([ann, bea])
    store_review(first, lucks=[10.0, 0.0])
    store_review(second, lucks=[0.0, 15.0])
    services.record_game(first.pk)
    services.record_game(second.pk)

    after_first = ratings.rate_game("yahtzee", [
        ratings.Seat(final=first.totals[0], luck=10.0),
        ratings.Seat(final=first.totals[1], luck=0.0, bot="medium")])[0]
    after_second = ratings.rate_game("yahtzee", [
        ratings.Seat(final=second.totals[0], luck=0.0, rating=after_first),
        ratings.Seat(final=second.totals[1], luck=15.0)])
    assert rating_of(ann) == pytest.approx(after_second[0])
    assert rating_of(bea) == pytest.approx(after_second[1])
    assert PlayerRating.objects.get(player=ann).games == 2
    assert rating_of(ann).rd < after_first.rd


def test_a_seat_played_partly_by_autoplay_leaves_every_rating_alone(ann_bea):
    ann, bea = ann_bea
    game = played_game([ann, bea])
    store_review(game, lucks=[0.0, 0.0], autoplay=[0, 4])
    assert services.record_game(game.pk) is True
    assert not PlayerRating.objects.filter(games__gt=0).exists()
    results = GameResult.objects.filter(game=game).order_by("seat")
    assert [(r.autoplay, r.rated) for r in results] == [(False, False), (True, False)]


def test_triple_games_are_recorded_but_not_rated(ann_bea):
    ann, bea = ann_bea
    game = played_game([ann, bea], rules="triple")
    store_review(game, lucks=[1.0, 2.0])
    services.record_game(game.pk)
    assert GameResult.objects.filter(game=game, rules="triple").count() == 2
    assert not PlayerRating.objects.exists()


def test_a_game_without_a_review_or_ended_unfinished_is_not_recorded(ann_bea):
    ann, bea = ann_bea
    game = played_game([ann, bea])
    assert services.record_game(game.pk) is False
    store_review(game, lucks=[0.0, 0.0])
    type(game).objects.filter(pk=game.pk).update(unfinished=True)
    assert services.record_game(game.pk) is False
    assert not GameResult.objects.exists()


def test_rebuild_ratings_replays_every_reviewed_game_to_the_same_ratings(ann_bea):
    ann, bea = ann_bea
    games = [played_game([ann, bea]), played_game([bea, "optimal"]), played_game([bea, ann])]
    for game, lucks in zip(games, ([12.0, -3.0], [-8.0, 2.0], [0.5, 6.0]), strict=True):
        store_review(game, lucks=lucks)
        services.record_game(game.pk)
    incremental = {p.pk: rating_of(p) for p in (ann, bea)}
    PlayerRating.objects.update(rating=1000.0, games=99)  # a cache gone wrong
    GameResult.objects.filter(game=games[0]).delete()

    out = io.StringIO()
    call_command("rebuild_ratings", stdout=out)
    assert out.getvalue().strip() == "Recorded 3 reviewed games."

    assert {p.pk: rating_of(p) for p in (ann, bea)} == pytest.approx(incremental)
    assert PlayerRating.objects.get(player=bea).games == 3
    assert GameResult.objects.count() == 6


def test_generate_history_records_every_game_it_makes_and_refuses_bad_sizes():
    from django.core.management.base import CommandError

    from game.models import Game, GameAnalysis

    call_command("generate_history", "--players", "6", "--games", "12", "--seed", "3",
                 stdout=io.StringIO())
    assert Player.objects.count() == 6 and Game.objects.count() == 12
    assert GameAnalysis.objects.count() == 12
    seats = sum(len(g.players) for g in Game.objects.all())
    assert GameResult.objects.count() == seats
    for game in Game.objects.all():  # the review's chain holds: final = start + luck − loss
        for p, total in zip(game.analysis.data["players"], game.totals, strict=True):
            assert p["expected_start"] + p["luck"] - p["loss"] == pytest.approx(total)
    rated = GameResult.objects.filter(rated=True)
    assert sum(r.games for r in PlayerRating.objects.all()) == rated.count() > 0
    with pytest.raises(CommandError):
        call_command("generate_history", "--games", "0")
    with pytest.raises(CommandError, match="public ids"):
        call_command("generate_history", "--include", "nosuchplayer")
    assert Game.objects.count() == 12 and Player.objects.count() == 6
    # --include: the games are played among the new players and the one named, nobody else.
    zoe = Player.objects.first()
    call_command("generate_history", "--players", "2", "--games", "20", "--seed", "4",
                 "--include", zoe.public_id, stdout=io.StringIO())
    newer = Game.objects.order_by("-pk")[:20]
    names = {n for g in newer for n in g.players if not n.startswith("Bot ")}
    allowed = {zoe.name, *Player.objects.order_by("-pk").values_list("name", flat=True)[:2]}
    assert names <= allowed and zoe.name in names


@pytest.mark.django_db(transaction=True)
def test_two_games_of_one_player_recorded_at_once_both_count():
    """Two reviews stored at the same moment in two threads: the second waits for the first's
    rating row (PostgreSQL: its row lock; SQLite: its one writer), so neither update is lost."""
    import threading

    from django.db import connections

    ann, bea, cy = (services.new_player(n) for n in ("Ann", "Bea", "Cy"))
    games = [played_game([ann, bea]), played_game([cy, ann])]
    store_review(games[0], lucks=[10.0, -10.0])
    store_review(games[1], lucks=[-5.0, 5.0])
    start = threading.Barrier(2)
    recorded: list[bool] = []

    def record(game_id: int) -> None:
        try:
            start.wait()
            recorded.append(services.record_game(game_id))
        finally:
            connections.close_all()

    threads = [threading.Thread(target=record, args=(g.pk,)) for g in games]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert recorded == [True, True]
    assert PlayerRating.objects.get(player=ann).games == 2
    seats = [[ratings.Seat(final=g.totals[i], luck=lucks[i]) for i in range(2)]
             for g, lucks in zip(games, ([10.0, -10.0], [-5.0, 5.0]), strict=True)]
    first_a = ratings.rate_game("yahtzee", seats[0])[0]  # game 0 first, then game 1
    a_then_b = ratings.rate_game("yahtzee", [seats[1][0], ratings.Seat(
        final=games[1].totals[1], luck=5.0, rating=first_a)])[1]
    first_b = ratings.rate_game("yahtzee", seats[1])[1]  # game 1 first, then game 0
    b_then_a = ratings.rate_game("yahtzee", [ratings.Seat(
        final=games[0].totals[0], luck=10.0, rating=first_b), seats[0][1]])[0]
    assert rating_of(ann) in (pytest.approx(a_then_b), pytest.approx(b_then_a))


def test_generated_games_have_event_logs_that_fold_into_their_stored_state():
    from game.models import Game, Room
    from game.rules import Game as RulesGame
    from game.rules import event_from_dict

    call_command("generate_history", "--players", "4", "--games", "6", "--seed", "2",
                 "--logs-every", "2", stdout=io.StringIO())
    logged = list(Game.objects.filter(seq__gt=0))
    assert len(logged) == 3  # one game in two
    for game in logged:
        stored = list(game.events.order_by("seq"))
        assert [e.seq for e in stored] == list(range(1, game.seq + 1))
        folded = RulesGame.from_events(event_from_dict(e.to_rules_dict()) for e in stored)
        assert folded.is_over and folded.to_dict() == game.snapshot
        assert [card.total for card in folded.scorecards] == game.totals
        assert list(folded.winners) == game.winners
        # Dated in the past, along the game: the lobby's "recently finished" is not all of them.
        assert game.created <= stored[0].created <= stored[-1].created <= game.finished
        assert Room.objects.get(pk=game.room_id).updated == game.finished
    others = Game.objects.filter(seq=0)
    assert others.count() == 3 and not GameEvent.objects.filter(game__in=others).exists()
    assert GameResult.objects.filter(game__in=others).count() == sum(
        len(g.players) for g in others)


def test_recording_a_game_costs_the_same_queries_and_touches_its_players_only_at_any_size():
    """The review's hook is incremental: one game's results, its own players' ratings; a
    history five times longer costs it no more queries, and no other row changes."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    def record(seats: list[Player | str]) -> int:
        game = played_game(seats)
        store_review(game, lucks=[12.0, -3.0, 1.0][:len(seats)])
        with CaptureQueriesContext(connection) as queries:
            assert services.record_game(game.pk) is True
        return len(queries)

    call_command("generate_history", "--players", "6", "--games", "8", "--seed", "5",
                 stdout=io.StringIO())
    short = record([services.new_player("Ann"), services.new_player("Bea"), "easy"])
    call_command("generate_history", "--players", "0", "--games", "40", "--seed", "6",
                 stdout=io.StringIO())
    before = {r.pk: (r.rating, r.rd, r.games, r.updated) for r in PlayerRating.objects.all()}
    results = GameResult.objects.count()
    cy, dot = services.new_player("Cy"), services.new_player("Dot")
    assert record([cy, dot, "easy"]) == short
    after = {r.pk: (r.rating, r.rd, r.games, r.updated) for r in PlayerRating.objects.all()}
    assert {pk: v for pk, v in after.items() if pk in before} == before
    assert {r.player for r in PlayerRating.objects.exclude(pk__in=before)} == {cy, dot}
    assert GameResult.objects.count() == results + 3
