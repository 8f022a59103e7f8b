"""What a reviewed game adds to its players' profiles and ratings, once.

:func:`record_game` runs right after a finished game's review is stored: it writes one
``GameResult`` per seat (the final score, the review's luck, loss and grades) and, in rated
rules, moves each person's ``PlayerRating`` with ``game.ratings.rate_game``. It is incremental
(one game, the ratings of its own players) and idempotent: the game's row is locked and a game
that has results is never counted again. Ratings and results are a cache of the stored games and
their reviews: :func:`rebuild_all` replays every reviewed game in the order they finished.

A game is not rated (its results are still recorded) when a person's seat was played by
autoplay for part of the game (their result is not theirs alone), when one player sits twice,
or when no person has anyone to compare with.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import transaction
from django.utils import timezone

from .. import ratings
from ..models import Game, GameAnalysis, GameResult, PlayerRating, Seat


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


def _rate(game: Game, results: list[GameResult]) -> None:
    """Move the ratings of the game's people, their rows locked (in player order, so two games
    finishing together with the same players wait for each other instead of deadlocking)."""
    people = sorted(r.player_id for r in results if r.player_id is not None)
    now = timezone.now()
    fresh = ratings.Rating()
    PlayerRating.objects.bulk_create(
        [PlayerRating(player_id=p, ruleset=game.rules, rating=fresh.rating, rd=fresh.rd,
                      volatility=fresh.volatility, games=0, updated=now) for p in people],
        ignore_conflicts=True)
    rows = {row.player_id: row for row in PlayerRating.objects.select_for_update()
            .filter(ruleset=game.rules, player_id__in=people).order_by("player_id")}
    seats = []
    for r in results:
        row = rows.get(r.player_id) if r.player_id is not None else None
        before = (ratings.Rating(row.rating, row.rd, row.volatility)
                  if row is not None and row.games else None)
        seats.append(ratings.Seat(final=r.final, luck=r.luck, rating=before,
                                  bot=r.bot_level or None))
    for r, after in zip(results, ratings.rate_game(game.rules, seats), strict=True):
        row = rows.get(r.player_id) if r.player_id is not None else None
        if row is None:
            continue
        row.rating, row.rd, row.volatility = after.rating, after.rd, after.volatility
        row.games += 1
        row.updated = now
        row.save(update_fields=["rating", "rd", "volatility", "games", "updated"])
        r.rated = True


def record_game(game_id: int) -> bool:
    """Record the reviewed game ``game_id`` in its players' results and ratings; False if it
    was recorded before (or has no stored review, or ended unfinished)."""
    with transaction.atomic():
        game = Game.objects.select_for_update().filter(pk=game_id).first()
        if (game is None or game.status != Game.Status.FINISHED or game.unfinished
                or GameResult.objects.filter(game=game).exists()):
            return False
        data = GameAnalysis.objects.filter(game=game).values_list("data", flat=True).first()
        if data is None:
            return False
        seats = {s.index: s for s in Seat.objects.filter(room_id=game.room_id)}
        results = _results(game, data, seats)
        if _ratable(game.rules, results):
            _rate(game, results)
        GameResult.objects.bulk_create(results)
    return True


def rebuild_all() -> int:
    """Forget every result and rating and record every reviewed game again, in the order the
    games finished; returns how many were recorded."""
    with transaction.atomic():
        GameResult.objects.all().delete()
        PlayerRating.objects.all().delete()
        ids = (Game.objects.filter(status=Game.Status.FINISHED, unfinished=False,
                                   analysis__isnull=False)
               .order_by("finished", "id").values_list("id", flat=True))
        return sum(record_game(game_id) for game_id in ids.iterator())
