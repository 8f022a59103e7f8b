"""A reviewed game moves its people's ratings once by the rating of winning (each seat's share
of the win less what the dice did to its chance, ``game.ratings.wins``); computer players hold
their anchors; leaving counts against the one who left; practice, triple and reviews without a
chance chain leave ratings alone; farming two accounts counts a few games a week at most; time
away grows the deviation; ``rebuild_ratings`` replays every reviewed game to the same ratings."""

from __future__ import annotations

import io
from datetime import timedelta

import pytest
from django.core.management import call_command

from game import ratings, services
from game.models import Game, GameEvent, GameResult, Player, PlayerRating, Room
from game.ratings import Rating, glicko2, wins
from game.services import review as review_service
from tests.support.profiles import played_game, store_review


def site_rating(rules: str, *args, **kwargs) -> list[Rating]:
    """``wins.rate_game`` as the site calls it (the ruleset's ``wins.SITE_OPTIONS``)."""
    return wins.rate_game(rules, *args, **kwargs, **wins.site_options(rules))

pytestmark = pytest.mark.django_db


def seat(game, i: int, luck: float, earlier: tuple[Game, ...] = (), **kwargs) -> wins.Seat:
    """Seat ``i`` of a recorded ``game`` as the service rates it: its share, ``luck`` (the
    review's chance luck), its luck-adjusted points (final less the points luck) and, from the
    person's ``earlier`` rated games, their usual points and loss (the means)."""
    r = GameResult.objects.get(game=game, seat=i)
    mine = [GameResult.objects.get(game=g, player_id=r.player_id) for g in earlier]
    usual = sum(e.final - e.luck for e in mine) / len(mine) if mine else None
    usual_loss = sum(e.graded_loss for e in mine) / len(mine) if mine else None
    return wins.Seat(share(game, i), luck, points=r.final - r.luck, usual=usual,
                     usual_loss=usual_loss, **kwargs)


def rating_of(player: Player, rules: str = "yahtzee") -> ratings.Rating:
    row = PlayerRating.objects.get(player=player, ruleset=rules)
    return ratings.Rating(row.rating, row.rd, row.volatility)


def share(game: Game, seat: int) -> float:
    return 1 / len(game.winners) if seat in game.winners else 0.0


def newcomer_weight() -> float:
    """What a result against a person never rated before counts for: (110 / 350)²."""
    return (wins.PROVISIONAL_RD / Rating().rd) ** 2


@pytest.fixture
def ann_bea():
    return services.new_player("Ann"), services.new_player("Bea")


def test_a_reviewed_game_rates_each_person_against_the_others_and_the_bots_anchor(ann_bea):
    ann, bea = ann_bea
    game = played_game([ann, bea, "easy"])
    store_review(game, lucks=[30.0, -12.5, 4.0], losses=[3.0, 9.0, 20.0],
                 chance_lucks=[0.2, -0.1, 0.05])
    assert services.record_game(game.pk) is True

    # Each seat's luck-adjusted points (final less the points luck): a new rating leans on them.
    points = [final - luck for final, luck in zip(game.totals, [30.0, -12.5, 4.0], strict=True)]
    seats = [wins.Seat(share(game, 0), 0.2, points=points[0]),
             wins.Seat(share(game, 1), -0.1, points=points[1]),
             wins.Seat(share(game, 2), 0.05, bot="easy", points=points[2])]
    # Between the two newcomers a result proves a tenth; against the computer, all of it.
    w = newcomer_weight()
    assert w == pytest.approx(0.0988, abs=1e-3)
    expected = site_rating("yahtzee", seats, [[1, w, 1], [w, 1, 1], [1, 1, 1]])
    assert rating_of(ann) == pytest.approx(expected[0])
    assert rating_of(bea) == pytest.approx(expected[1])
    assert rating_of(ann) != pytest.approx(
        site_rating("yahtzee", seats)[0])  # the farming weight changed something
    unleaned = [wins.Seat(s.share, s.luck, bot=s.bot) for s in seats]
    assert rating_of(ann) != pytest.approx(site_rating(
        "yahtzee", unleaned, [[1, w, 1], [w, 1, 1], [1, 1, 1]])[0])  # and so did the points
    assert PlayerRating.objects.count() == 2  # the bot keeps its anchor: no row
    results = list(GameResult.objects.filter(game=game).order_by("seat"))
    assert [r.final for r in results] == game.totals
    assert [r.player for r in results] == [ann, bea, None] and results[2].bot_level == "easy"
    assert [r.won for r in results] == [i in game.winners for i in range(3)]
    assert [r.graded_loss for r in results] == pytest.approx([3.0, 9.0, 20.0])
    assert [r.chance_luck for r in results] == pytest.approx([0.2, -0.1, 0.05])
    assert [r.share for r in results] == pytest.approx([s.share for s in seats])
    assert [r.adjusted for r in results] == pytest.approx([s.adjusted for s in seats])
    assert [r.rated for r in results] == [True, True, False]
    row = PlayerRating.objects.get(player=ann)
    assert row.games == 1 and row.last_game == game.finished


@pytest.mark.parametrize("rules", ["yahtzee", "yatzy"])
def test_a_game_against_the_computer_that_plays_to_win_rates_against_its_anchor(ann_bea, rules):
    """Its anchor: above the optimal bot's (it wins more often heads-up); its seat in the
    profile's head to head names the level."""
    from game.selectors.players import head_to_head

    assert wins.ANCHORS[rules]["to_win"] > wins.ANCHORS[rules]["optimal"]
    ann, _ = ann_bea
    game = played_game([ann, "to_win"], rules=rules)
    store_review(game, lucks=[10.0, -3.0], chance_lucks=[0.1, -0.1])
    assert services.record_game(game.pk) is True
    mine = min(1.0, max(0.0, share(game, 0) - 0.1))
    theirs = min(1.0, max(0.0, share(game, 1) + 0.1))
    shared = max(mine, 1e-3) / (max(mine, 1e-3) + max(theirs, 1e-3))
    # A newcomer's result is all points: the chance their luck-adjusted lead stands for.
    lead = (game.totals[0] - 10.0) - (game.totals[1] + 3.0)
    assert wins.points_lean(Rating().rd) == 1.0
    score = wins.points_chance(rules, lead)
    assert score != pytest.approx(shared)
    opponent = Rating(wins.ANCHORS[rules]["to_win"], wins.ANCHOR_RD, Rating().volatility)
    # In yahtzee a heads-up result counts by its precision: a newcomer's usual loss against
    # the bot's (a proven opponent: all of the weight); in yatzy once.
    weight = (wins.precision_weight(wins.NEWCOMER_LOSS, wins.BOT_LOSS[rules]["to_win"])
              if rules == "yahtzee" else 1.0)
    assert weight > 5 if rules == "yahtzee" else weight == 1.0
    assert rating_of(ann, rules) == pytest.approx(
        glicko2.update(Rating(), [(opponent, score)], weights=[weight]))
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
    w = newcomer_weight()
    expected = site_rating("yahtzee", [seat(game, 0, 0.0),
                                          seat(game, 1, 0.0)], [[1, w], [w, 1]])
    assert after_one == pytest.approx(expected[1])


def test_ratings_grow_game_by_game_from_the_previous_rating_as_shown_at_the_game(ann_bea):
    ann, bea = ann_bea
    first, second = played_game([ann, "medium"]), played_game([ann, bea])
    store_review(first, lucks=[10.0, 0.0], chance_lucks=[0.1, -0.1])
    store_review(second, lucks=[0.0, 15.0], chance_lucks=[-0.05, 0.05])
    Game.objects.filter(pk=second.pk).update(finished=first.finished + timedelta(days=21))
    second.refresh_from_db()
    services.record_game(first.pk)
    services.record_game(second.pk)

    after_first = site_rating("yahtzee", [seat(first, 0, 0.1),
                                             seat(first, 1, -0.1, bot="medium")])[0]
    # Three weeks later: the deviation grew by three periods' volatility before the game.
    shown = glicko2.idle(after_first, 3.0)
    assert shown.rd > after_first.rd
    w_ann = newcomer_weight()  # Bea is new
    w_bea = min(1.0, (wins.PROVISIONAL_RD / shown.rd) ** 2)
    after_second = site_rating("yahtzee", [
        seat(second, 0, -0.05, earlier=(first,), rating=shown),
        seat(second, 1, 0.05)], [[1, w_ann], [w_bea, 1]])
    assert rating_of(ann) == pytest.approx(after_second[0])
    assert rating_of(bea) == pytest.approx(after_second[1])
    # Ann's first game set her usual points and loss, which the second took (yahtzee's points
    # control and precision weight): without them it would have rated otherwise.
    assert rating_of(ann) != pytest.approx(site_rating("yahtzee", [
        seat(second, 0, -0.05, rating=shown), seat(second, 1, 0.05)],
        [[1, w_ann], [w_bea, 1]])[0])
    row = PlayerRating.objects.get(player=ann)
    assert row.games == 2 and row.last_game == second.finished


def test_a_review_stored_after_a_later_games_keeps_the_last_game_the_latest(ann_bea):
    """The leaderboard of the week reads who played from ``last_game``: an earlier game
    rated late must not move it back."""
    ann, _ = ann_bea
    earlier, later = played_game([ann, "medium"]), played_game([ann, "easy"])
    for game in (earlier, later):
        store_review(game, lucks=[0.0, 0.0], chance_lucks=[0.0, 0.0])
    Game.objects.filter(pk=later.pk).update(finished=earlier.finished + timedelta(days=9))
    later.refresh_from_db()
    services.record_game(later.pk)
    services.record_game(earlier.pk)  # its review came last
    row = PlayerRating.objects.get(player=ann)
    assert row.games == 2 and row.last_game == later.finished


def left_game(seats: list[Player | str], leaver: int | None = None) -> tuple[Game, int]:
    """A finished game whose seat ``leaver`` (default: a winner's, leaving a game one is
    winning) the computer played for part of it, and that seat."""
    game = played_game(seats)
    leaver = game.winners[0] if leaver is None else leaver
    store_review(game, lucks=[0.0] * len(seats),
                 autoplay=[4 if i == leaver else 0 for i in range(len(seats))],
                 chance_lucks=[0.3 if i == leaver else -0.1 for i in range(len(seats))])
    return game, leaver


def test_a_left_game_counts_against_the_one_who_left_never_the_one_who_stayed(ann_bea):
    ann, bea = ann_bea
    game, leaver = left_game([ann, bea])
    stayer = 1 - leaver
    people = [ann, bea]
    assert services.record_game(game.pk) is True
    w = newcomer_weight()
    # The stayer lost on the board, yet wins the forfeit; the one who left loses it.
    assert rating_of(people[stayer]) == pytest.approx(
        glicko2.update(Rating(), [(Rating(), 1.0)], weights=[w]))
    assert rating_of(people[leaver]) == pytest.approx(
        glicko2.update(Rating(), [(Rating(), 0.0)], weights=[w]))
    assert rating_of(people[stayer]).rating > 1500 > rating_of(people[leaver]).rating
    results = {r.seat: r for r in GameResult.objects.filter(game=game)}
    assert (results[leaver].autoplay, results[leaver].rated, results[leaver].share) == (
        True, True, 0.0)
    assert (results[stayer].autoplay, results[stayer].rated) == (False, True)
    assert results[stayer].share == share(game, stayer) < 1  # lost (or tied) on the board
    # The computer's play for the one who left is not theirs: it sets no usual points.
    rows = {r.player_id: r for r in PlayerRating.objects.all()}
    assert (rows[people[leaver].pk].games, rows[people[leaver].pk].own_games) == (1, 0)
    assert rows[people[leaver].pk].usual_points is None
    assert rows[people[stayer].pk].usual_points == pytest.approx(
        results[stayer].final - results[stayer].luck)


def test_leaving_a_game_against_the_computer_is_a_loss(ann_bea):
    ann, _ = ann_bea
    game, _ = left_game([ann, "medium"], 0)
    services.record_game(game.pk)
    assert rating_of(ann) == pytest.approx(
        glicko2.update(Rating(), [(wins.anchor("yahtzee", "medium"), 0.0)]))


def test_practice_and_coached_games_are_recorded_but_not_rated(ann_bea):
    ann, bea = ann_bea
    game = played_game([ann, bea])
    Room.objects.filter(pk=game.room_id).update(practice=True)
    store_review(game, lucks=[1.0, 2.0])
    assert services.record_game(game.pk) is True
    assert GameResult.objects.filter(game=game, rated=False).count() == 2
    assert not PlayerRating.objects.filter(games__gt=0).exists()


def test_a_review_without_a_chance_chain_is_not_rated(ann_bea):
    ann, bea = ann_bea
    game = played_game([ann, bea])
    store_review(game, lucks=[1.0, 2.0], chain=False)
    assert services.record_game(game.pk) is True
    assert [r.chance_luck for r in GameResult.objects.filter(game=game)] == [None, None]
    assert not PlayerRating.objects.filter(games__gt=0).exists()


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


def test_a_rating_keeps_the_means_of_the_persons_own_rated_games(ann_bea):
    """Usual points (final less the points luck) and loss over the rated games only: a
    practice game's do not count; rebuilt, the same sums."""
    ann, bea = ann_bea
    games = [played_game([ann, bea]), played_game([ann, "medium"]), played_game([ann, bea])]
    for game, luck, loss in zip(games, (12.0, -4.0, 7.5), (3.0, 9.0, 30.0), strict=True):
        store_review(game, lucks=[luck, 0.0], losses=[loss, 1.0])
    Room.objects.filter(pk=games[2].room_id).update(practice=True)
    for game in games:
        services.record_game(game.pk)

    def sums() -> tuple[int, float, float]:
        row = PlayerRating.objects.get(player=ann, ruleset="yahtzee")
        return row.own_games, row.usual_points, row.usual_loss

    first_two = [GameResult.objects.get(game=g, seat=0) for g in games[:2]]
    assert sums() == (2, pytest.approx(sum(r.final - r.luck for r in first_two) / 2),
                      pytest.approx((3.0 + 9.0) / 2))
    kept = sums()
    services.rebuild_ratings()
    assert sums() == kept


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
    # Each game's other player is new: Ann's results count a newcomer's tenth either way.
    w = newcomer_weight()
    seats = [[seat(g, i, 0.0) for i in range(2)] for g in games]
    first_a = site_rating("yahtzee", seats[0], [[1, w], [w, 1]])[0]  # game 0, then 1
    a_then_b = site_rating("yahtzee", [seats[1][0], seat(
        games[1], 1, 0.0, earlier=games[:1], rating=glicko2.idle(first_a, wins.periods_between(
            games[0].finished, games[1].finished)))], [[1, w], [w, 1]])[1]
    first_b = site_rating("yahtzee", seats[1], [[1, w], [w, 1]])[1]  # game 1, then 0
    b_then_a = site_rating("yahtzee", [seat(
        games[0], 0, 0.0, earlier=games[1:], rating=glicko2.idle(first_b, wins.periods_between(
            games[1].finished, games[0].finished))), seats[0][1]], [[1, w], [w, 1]])[0]
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


def test_two_accounts_farming_each_other_count_a_few_games_a_week(ann_bea):
    """30 games between the same two people in 30 hours: the first ``PAIR_GAMES_PER_PERIOD``
    move their ratings, the rest count nothing, recorded one by one or rebuilt at once; a
    week after the last counted game they count again."""
    ann, bea = ann_bea
    first = played_game([ann, bea])
    start = first.finished
    games = [first]
    for i in range(1, 31):  # the same game again, finished an hour later each (or 8 days on)
        game = Game.objects.get(pk=first.pk)
        game.pk = None
        game.finished = start + (timedelta(days=8) if i == 30 else timedelta(hours=i))
        game.save()
        games.append(game)
    for game in games:
        store_review(game, lucks=[0.0, 0.0], chance_lucks=[-0.1, 0.1])
    settled_rating = {ann.pk: Rating(1500.0, 60.0, 0.06), bea.pk: Rating(1600.0, 60.0, 0.06)}
    last = start - timedelta(days=1)
    for pid, r in settled_rating.items():
        PlayerRating.objects.create(player_id=pid, ruleset="yahtzee", rating=r.rating, rd=r.rd,
                                    volatility=r.volatility, games=20, updated=last,
                                    last_game=last)
    for game in games:
        services.record_game(game.pk)

    expected = [settled_rating[ann.pk], settled_rating[bea.pk]]
    when = last
    counted = games[:wins.PAIR_GAMES_PER_PERIOD] + games[30:]
    assert wins.PAIR_GAMES_PER_PERIOD == 5
    for k, game in enumerate(counted):
        shown = [wins.shown(r, when, game.finished) for r in expected]
        assert all(wins.farming_weight(r, 0) == 1.0 for r in shown)  # settled: full weight
        expected = site_rating("yahtzee", [
            seat(game, 0, -0.1, earlier=tuple(counted[:k]), rating=shown[0]),
            seat(game, 1, 0.1, earlier=tuple(counted[:k]), rating=shown[1])])
        when = game.finished
    assert rating_of(ann) == pytest.approx(expected[0])
    assert rating_of(bea) == pytest.approx(expected[1])
    assert PlayerRating.objects.get(player=ann).games == 20 + 6
    assert GameResult.objects.filter(rated=True).count() == 2 * 6
    assert not GameResult.objects.filter(game__in=games[5:30], rated=True).exists()

    services.rebuild_ratings()  # one batch: the pair's earlier games counted within it
    assert not GameResult.objects.filter(game__in=games[5:30], rated=True).exists()
    assert PlayerRating.objects.get(player=ann).games == 6
    # Rebuilt from the games alone both start new: each counts the other's result by the
    # other's deviation, a newcomer's tenth at first.
    rebuilt: list[Rating | None] = [None, None]
    when = start
    for k, game in enumerate(counted):
        shown = [wins.shown(r, when, game.finished) if r else None for r in rebuilt]
        w = [wins.farming_weight(shown[j] or Rating(), 0) for j in (1, 0)]
        rebuilt = list(site_rating("yahtzee", [
            seat(game, 0, -0.1, earlier=tuple(counted[:k]), rating=shown[0]),
            seat(game, 1, 0.1, earlier=tuple(counted[:k]), rating=shown[1])],
            [[1, w[0]], [w[1], 1]]))
        when = game.finished
    assert rating_of(ann) == pytest.approx(rebuilt[0])
    assert rating_of(bea) == pytest.approx(rebuilt[1])


def test_a_six_player_game_moves_a_rating_about_as_much_as_one_heads_up_game(ann_bea):
    """In yatzy, where a heads-up result counts once (in yahtzee its precision weights it)."""
    ann, bea = ann_bea
    six = played_game([ann, "medium", "medium", "medium", "medium", "medium"], rules="yatzy")
    two = played_game([bea, "medium"], rules="yatzy")
    store_review(six, lucks=[0.0] * 6)
    store_review(two, lucks=[0.0] * 2)
    services.record_game(six.pk)
    services.record_game(two.pk)
    assert not wins.site_options("yatzy")["precision"]
    medium = wins.anchor("yatzy", "medium")
    # Five pairs of a fifth each: the deviation narrows exactly as after one heads-up game
    # against the same opponent, never as after five.
    assert rating_of(ann, "yatzy").rd == pytest.approx(rating_of(bea, "yatzy").rd)
    five = glicko2.update(Rating(), [(medium, 0.5)] * 5)
    assert rating_of(ann, "yatzy").rd > five.rd + 20
    best = glicko2.update(Rating(), [(medium, 1.0)])
    worst = glicko2.update(Rating(), [(medium, 0.0)])
    assert worst.rating <= rating_of(ann, "yatzy").rating <= best.rating
