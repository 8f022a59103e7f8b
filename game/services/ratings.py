"""What a reviewed game adds to its players' profiles and ratings, once.

:func:`record_game` runs right after a finished game's review is stored: it writes one
``GameResult`` per seat (the final score, the review's luck, loss and grades), adds them to its
people's profile figures (``services.stats``) and, in rated rules, moves each person's
``PlayerRating`` with ``game.ratings.rate_game``. It is incremental
(one game, the ratings of its own players) and idempotent: the game's row is locked and a game
that has results is never counted again. Ratings and results are a cache of the stored games and
their reviews: :func:`rebuild_all` replays every reviewed game in the order they finished.

A game is not rated (its results are still recorded) when a person's seat was played by
autoplay for part of the game (their result is not theirs alone), when one player sits twice,
or when no person has anyone to compare with.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone

from .. import ratings
from ..models import Game, GameAnalysis, GameResult, PlayerRating, PlayerStats, Rivalry, Seat
from . import stats

#: Games recorded per transaction when every game is recorded again.
REBUILD_BATCH = 1000


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
            luck=summary["luck"], won=index in game.winners,
            decisions=summary["decisions"],
            graded_loss=summary["mean_loss"] * summary["decisions"],
            grades=summary["grades"], autoplay=summary["autoplay_decisions"] > 0))
    return results


def _ratable(rules: str, results: Sequence[GameResult]) -> bool:
    people = [r.player_id for r in results if r.player_id is not None]
    return (rules in ratings.RATED_RULES and len(results) > 1 and bool(people)
            and len(set(people)) == len(people)
            and not any(r.autoplay for r in results if not r.bot_level))


def _rate(game: Game, results: list[GameResult], rows: dict[tuple[int, str], PlayerRating],
          now: datetime) -> None:
    """Move the ratings of the game's people (their rows locked and held in ``rows``)."""
    seats = []
    for r in results:
        row = rows.get((r.player_id, game.rules)) if r.player_id is not None else None
        before = (ratings.Rating(row.rating, row.rd, row.volatility)
                  if row is not None and row.games else None)
        seats.append(ratings.Seat(final=r.final, luck=r.luck, rating=before,
                                  bot=r.bot_level or None))
    for r, after in zip(results, ratings.rate_game(game.rules, seats), strict=True):
        row = rows.get((r.player_id, game.rules)) if r.player_id is not None else None
        if row is None:
            continue
        row.rating, row.rd, row.volatility = after.rating, after.rd, after.volatility
        row.games += 1
        row.updated = now
        r.rated = True


def _locked_ratings(pairs: set[tuple[int, str]], now: datetime
                    ) -> dict[tuple[int, str], PlayerRating]:
    """The rating rows of these (player, ruleset) pairs, made if missing, locked in player
    order (so two recordings with the same players wait for each other instead of
    deadlocking)."""
    if not pairs:
        return {}
    fresh = ratings.Rating()
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
        recorded = [(game, _results(game, reviews[game.pk], seats.get(game.room_id, {})))
                    for game in todo]
        rated = [(game, results) for game, results in recorded
                 if _ratable(game.rules, results)]
        now = timezone.now()
        rows = _locked_ratings({(r.player_id, game.rules) for game, results in rated
                                for r in results if r.player_id is not None}, now)
        for game, results in rated:
            _rate(game, results, rows, now)
        for row in rows.values():  # one plain UPDATE each (bulk_update's CASE costs more)
            row.save(update_fields=["rating", "rd", "volatility", "games", "updated"])
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
