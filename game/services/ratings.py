"""What a reviewed game adds to its players' profiles and ratings, once.

:func:`record_game` runs right after a finished game's review is stored: it writes one
``GameResult`` per seat (the final score, the review's luck, loss and grades), adds them to its
people's profile figures (``services.stats``) and, in rated rules, moves each person's
``PlayerRating`` with the rating of winning (``game.ratings.wins.rate_game``: each seat's share
of the win, 1, 0 or 1/k, less the review's ``chance.luck``, leaning on the luck-adjusted points
lead, ``final − luck``, while the rating is uncertain; in yahtzee a heads-up result also takes
the points control and the precision weight, ``wins.SITE_OPTIONS``, from each person's usual
points and loss: the means over their own earlier rated games, which their rating row sums).
It is incremental (one game, the ratings of its own players) and idempotent: the game's row is
locked and a game that has results is never counted again. Ratings and results are a cache of
the stored games and their reviews: :func:`rebuild_all` replays every reviewed game in the order
they finished.

Before a game is rated its people's ratings are ``wins.shown`` at the game's end (the time
since their last rated game grows the deviation). A result between two people counts by
``wins.farming_weight``: the opponent's shown rating and the rated games the same two finished
together in the ``wins.PERIOD`` before (the games recorded before, and those earlier in the
same batch); a result against a computer player counts in full.

Leaving: a person whose turns the computer played (autoplay: they closed the tab past the
grace, or let a move of a game over days run out of time) left the game. The game is rated all
the same: its seat counts as a loss for the one who left (share 0; against every seat that
stayed a forfeit, ``wins.rate_game``'s ``left``), and the results of those who stayed stand
against each other, while against the one who left they win. So leaving never costs the ones
who stayed, and leaving a game one is losing saves nothing.

Not rated (the results are still recorded): practice rooms (the coach's games, ``Room.practice``);
rules other than yahtzee and yatzy (triple: no chances to win); a game whose review has no
chance chain (one player, an older review); one player sitting twice; nobody with anyone to
compare with. A game left unfinished is not recorded at all: one ended by staff (``unfinished``),
or one still "playing" long after everyone left (``selectors.with_abandoned`` shows it as
abandoned after a day) — it is never finished, so never reviewed. Against a computer alone
that loses nothing anybody could claim; with another person in it the leaver's loss goes
uncounted, which is left for later (the game would have to be finished first).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone

from ..models import (
    Game,
    GameAnalysis,
    GameResult,
    PlayerRating,
    PlayerStats,
    Rivalry,
    Room,
    Seat,
)
from ..ratings import Rating, wins
from . import stats

#: Games recorded per transaction when every game is recorded again.
REBUILD_BATCH = 1000

#: The finish times of the rated games each pair of people (lower id first) played together.
PairGames = dict[tuple[int, int], list[datetime]]


def _chance_luck(summary: dict[str, Any]) -> float | None:
    chance = summary.get("chance")
    return float(chance["luck"]) if isinstance(chance, dict) and "luck" in chance else None


def _results(game: Game, data: dict[str, Any], seats: dict[int, Seat]) -> list[GameResult]:
    results = []
    for index, summary in enumerate(data["players"]):
        seat = seats.get(index)
        bot = seat is not None and seat.is_bot
        results.append(GameResult(
            game=game, seat=index, player_id=None if seat is None or bot else seat.player_id,
            bot_level=seat.bot_level if bot and seat is not None else "",
            name=game.players[index] if index < len(game.players) else summary["name"],
            rules=game.rules, finished=game.finished or game.created,
            final=game.totals[index] if index < len(game.totals) else summary["final"],
            luck=summary["luck"], chance_luck=_chance_luck(summary),
            won=index in game.winners,
            decisions=summary["decisions"],
            graded_loss=summary["mean_loss"] * summary["decisions"],
            grades=summary["grades"], autoplay=summary["autoplay_decisions"] > 0))
    return results


def _ratable(rules: str, results: Sequence[GameResult], practice: bool) -> bool:
    people = [r.player_id for r in results if r.player_id is not None]
    return (rules in wins.RATED_RULES and not practice and len(results) > 1 and bool(people)
            and len(set(people)) == len(people)
            and all(r.chance_luck is not None for r in results))


def _pair(a: int, b: int) -> tuple[int, int]:
    return (a, b) if a < b else (b, a)


def _pair_games(games: Sequence[tuple[Game, list[GameResult]]]) -> PairGames:
    """The rated games the people of ``games`` finished together in the period before each
    (one query: their rated results in that window, by the (player, finished) index)."""
    people = {r.player_id for _, results in games for r in results if r.player_id is not None}
    if not people:
        return {}
    ends = [r.finished for _, results in games for r in results]
    together: dict[int, tuple[datetime, list[int]]] = {}
    for game_id, pid, finished in (GameResult.objects.filter(
            player_id__in=people, rated=True, finished__gte=min(ends) - wins.PERIOD,
            finished__lt=max(ends)).values_list("game_id", "player_id", "finished")):
        together.setdefault(game_id, (finished, []))[1].append(pid)
    pairs: PairGames = {}
    for finished, pids in together.values():
        for i, a in enumerate(pids):
            for b in pids[i + 1:]:
                pairs.setdefault(_pair(a, b), []).append(finished)
    return pairs


def _rate(game: Game, results: list[GameResult], rows: dict[tuple[int, str], PlayerRating],
          pairs: PairGames, now: datetime) -> None:
    """Move the ratings of the game's people (their rows locked and held in ``rows``); add the
    game to ``pairs`` for the games after it."""
    finished = results[0].finished
    share = 1 / len(game.winners) if game.winners else 0.0
    people = [r.player_id is not None or not r.bot_level for r in results]
    left = [person and r.autoplay for person, r in zip(people, results, strict=True)]
    row_of = [rows.get((r.player_id, game.rules)) if r.player_id is not None else None
              for r in results]
    before = [wins.shown(Rating(row.rating, row.rd, row.volatility), row.last_game, finished)
              if row is not None and row.games else None for row in row_of]
    seats = [wins.Seat(share=0.0 if gone else share if r.seat in game.winners else 0.0,
                       luck=0.0 if gone else r.chance_luck or 0.0, rating=rating,
                       bot=r.bot_level or None, points=r.final - r.luck,
                       usual=row.usual_points if row is not None else None,
                       usual_loss=row.usual_loss if row is not None else None)
             for r, gone, rating, row in zip(results, left, before, row_of, strict=True)]
    n = len(results)
    weights = [[1.0] * n for _ in range(n)]
    for i in range(n):
        for j in range(n):
            if i != j and people[i] and people[j]:
                a, b = results[i].player_id, results[j].player_id
                earlier = 0 if a is None or b is None else sum(
                    finished - wins.PERIOD <= t < finished for t in pairs.get(_pair(a, b), ()))
                weights[i][j] = wins.farming_weight(before[j] or Rating(), earlier)
    options = wins.site_options(game.rules)
    counted = [any(w > 0 for _, _, w in mine)
               for mine in wins.game_results(seats, weights, left=left, rules=game.rules,
                                             **options)]
    after = wins.rate_game(game.rules, seats, weights, left=left, **options)
    for r, row, seat, rating, moved, gone in zip(results, row_of, seats, after, counted, left,
                                                 strict=True):
        r.share, r.adjusted = seat.share, seat.adjusted
        if row is None or not moved:
            continue
        row.rating, row.rd, row.volatility = rating.rating, rating.rd, rating.volatility
        row.games += 1
        if not gone:  # the computer's play for one who left is not their own
            row.own_games += 1
            row.points_sum += r.final - r.luck
            row.loss_sum += r.graded_loss
        # The latest rated game's end (a review may come after a later game's).
        row.last_game = max(row.last_game or finished, finished)
        row.updated = now
        r.rated = True
    rated = [r.player_id for r in results if r.rated and r.player_id is not None]
    for i, a in enumerate(rated):
        for b in rated[i + 1:]:
            pairs.setdefault(_pair(a, b), []).append(finished)


def _locked_ratings(pairs: set[tuple[int, str]], now: datetime
                    ) -> dict[tuple[int, str], PlayerRating]:
    """The rating rows of these (player, ruleset) pairs, made if missing, locked in player
    order (so two recordings with the same players wait for each other instead of
    deadlocking)."""
    if not pairs:
        return {}
    fresh = Rating()
    PlayerRating.objects.bulk_create(
        [PlayerRating(player_id=p, ruleset=rules, rating=fresh.rating, rd=fresh.rd,
                      volatility=fresh.volatility, games=0, updated=now)
         for p, rules in sorted(pairs)], ignore_conflicts=True)
    people = sorted({p for p, _ in pairs})
    found = (PlayerRating.objects.select_for_update()
             .filter(player_id__in=people, ruleset__in={rules for _, rules in pairs})
             .order_by("player_id"))
    return {(row.player_id, row.ruleset): row for row in found
            if (row.player_id, row.ruleset) in pairs}


def record_games(game_ids: Sequence[int]) -> int:
    """Record the reviewed games ``game_ids``, in the order given (the order they finished), in
    their players' results and ratings, in one transaction; returns how many were recorded
    (games recorded before, without a stored review, or ended unfinished are passed over).
    A handful of queries however many games and however long the history: each reads and
    writes only the rows of these games and of their players."""
    with transaction.atomic():
        games = Game.objects.select_for_update().in_bulk(list(game_ids))
        done = set(GameResult.objects.filter(game_id__in=list(games))
                   .values_list("game_id", flat=True).distinct())
        todo = [games[g] for g in dict.fromkeys(game_ids) if g in games and g not in done
                and games[g].status == Game.Status.FINISHED and not games[g].unfinished]
        reviews = dict(GameAnalysis.objects.filter(game__in=todo).values_list("game_id", "data"))
        todo = [game for game in todo if game.pk in reviews]
        seats: dict[int, dict[int, Seat]] = {}
        for seat in Seat.objects.filter(room_id__in={game.room_id for game in todo}):
            seats.setdefault(seat.room_id, {})[seat.index] = seat
        practice = set(Room.objects.filter(pk__in={game.room_id for game in todo},
                                           practice=True).values_list("pk", flat=True))
        recorded = [(game, _results(game, reviews[game.pk], seats.get(game.room_id, {})))
                    for game in todo]
        rated = [(game, results) for game, results in recorded
                 if _ratable(game.rules, results, game.room_id in practice)]
        now = timezone.now()
        rows = _locked_ratings({(r.player_id, game.rules) for game, results in rated
                                for r in results if r.player_id is not None}, now)
        pairs = _pair_games(rated)
        for game, results in rated:
            _rate(game, results, rows, pairs, now)
        for row in rows.values():  # one plain UPDATE each (bulk_update's CASE costs more)
            row.save(update_fields=["rating", "rd", "volatility", "games", "updated",
                                    "last_game", "own_games", "points_sum", "loss_sum"])
        GameResult.objects.bulk_create([r for _, results in recorded for r in results],
                                       batch_size=500)
        stats.add_games([results for _, results in recorded])
    return len(recorded)


def record_game(game_id: int) -> bool:
    """Record the reviewed game ``game_id`` in its players' results and ratings; False if it
    was recorded before (or has no stored review, or ended unfinished)."""
    return record_games([game_id]) == 1


def rebuild_all() -> int:
    """Forget every result and rating and record every reviewed game again, in the order the
    games finished; returns how many were recorded."""
    with transaction.atomic():
        GameResult.objects.all().delete()
        PlayerRating.objects.all().delete()
        PlayerStats.objects.all().delete()
        Rivalry.objects.all().delete()
        ids = list(Game.objects.filter(status=Game.Status.FINISHED, unfinished=False,
                                       analysis__isnull=False)
                   .order_by("finished", "id").values_list("id", flat=True))
        return sum(record_games(ids[i:i + REBUILD_BATCH])
                   for i in range(0, len(ids), REBUILD_BATCH))
