"""Reads of over-days games: every game a person is in, the ones waiting for them first, and
how many wait for them (the header's badge)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from django.db.models import Max

from ..domain import clock
from ..domain.rooms import OVER_DAYS, OVER_DAYS_CAP
from ..models import Game, GameEvent, Room, Seat

#: Finished over-days games "Your games" still lists, latest first.
FINISHED_SHOWN = 5


@dataclass(frozen=True)
class LastMove:
    name: str
    points: int
    box: str  # the box's name ("full_house"; "ones@2" in triple)


@dataclass(frozen=True)
class YourGame:
    """One over-days room of a person, as "Your games" lists it."""

    room_code: str
    room_name: str
    rules: str
    #: "your_turn", "their_turn" (``to_move`` is to move), "waiting" (the room's game has not
    #: started) or "finished".
    state: str
    to_move: str = ""
    #: When the move's time runs out (``your_turn`` and ``their_turn``).
    deadline: datetime | None = None
    seconds_left: float | None = None
    last_move: LastMove | None = None
    players: list[str] = field(default_factory=list)
    game_id: int | None = None
    move_days: int = 0
    #: The person's place among the players' totals, once finished ("won" / "lost" / "tied").
    result: str = ""


def your_turn_count(player_id: int) -> int:
    """Over-days games waiting for ``player_id``'s move."""
    return Game.objects.filter(waiting_for_id=player_id, status=Game.Status.PLAYING).count()


def your_games(player_id: int) -> list[YourGame]:
    """Every over-days room ``player_id`` sits in: the games waiting for them first (the
    soonest out of time first), then the others' turns, rooms not started yet, and the latest
    finished games. A fixed number of queries per listed game, whatever the history."""
    # Walked from the person's own seats, newest room first (the seat_person_rooms index),
    # each room read by its key: the rooms still going (at most OVER_DAYS_CAP of them; twice
    # that read, so a cap lowered later hides nobody's game) and the latest finished. A join
    # planned from the rooms' side would read every playing room of the site.
    mine = (Seat.objects.filter(player_id=player_id, room__pace=OVER_DAYS)
            .select_related("room").order_by("-room_id"))
    seats = {s.room_id: s for s in [
        *mine.exclude(room__status=Room.Status.FINISHED)[:2 * OVER_DAYS_CAP],
        *mine.filter(room__status=Room.Status.FINISHED)[:FINISHED_SHOWN]]}
    latest = dict(Room.objects.filter(pk__in=seats).annotate(latest=Max("games__id"))
                  .values_list("pk", "latest"))
    games = Game.objects.in_bulk([g for g in latest.values() if g is not None])
    now = clock.now()
    found: list[YourGame] = []
    for room_id, seat in seats.items():
        room = seat.room
        game = games.get(latest.get(room_id) or 0)
        if game is None:
            found.append(YourGame(room.code, room.name, room.rules, "waiting",
                                  move_days=room.move_days))
            continue
        base = {"room_code": room.code, "room_name": room.name, "rules": game.rules,
                "players": list(game.players), "game_id": game.pk, "move_days": game.move_days}
        if game.status != Game.Status.PLAYING:
            found.append(YourGame(**base, state="finished", result=_result(game, seat.index)))
            continue
        mover = game.snapshot.get("current_player", 0)
        deadline = game.move_deadline
        found.append(YourGame(
            **base, state="your_turn" if game.waiting_for_id == player_id else "their_turn",
            to_move=game.players[mover] if mover < len(game.players) else "",
            deadline=deadline,
            seconds_left=(deadline - now).total_seconds() if deadline else None,
            last_move=last_move(game, seat.index)))
    order = {"your_turn": 0, "their_turn": 1, "waiting": 2, "finished": 3}
    found.sort(key=lambda g: (order[g.state], g.seconds_left if g.seconds_left is not None
                              else 0.0, -(g.game_id or 0)))
    finished = [g for g in found if g.state == "finished"]
    return [g for g in found if g.state != "finished"] + finished[:FINISHED_SHOWN]


def last_move(game: Game, not_seat: int | None) -> LastMove | None:
    """The last box scored in ``game`` by a player other than ``not_seat``."""
    row = (GameEvent.objects.filter(game=game, kind="scored").exclude(seat=not_seat)
           .order_by("-seq").values_list("seat", "payload").first())
    if row is None or row[0] is None or row[0] >= len(game.players):
        return None
    seat, payload = row
    return LastMove(game.players[seat], int(payload.get("points", 0)), str(payload.get("box", "")))


def _result(game: Game, index: int) -> str:
    if index >= len(game.totals):
        return ""
    if index in game.winners:
        return "tied" if len(game.winners) > 1 else "won"
    return "lost"
