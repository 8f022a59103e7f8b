"""Games between player records (and computer players) played through the services, and
their stored reviews made to order for the tests of the profiles and the ratings."""

from __future__ import annotations

from typing import Any

from game import services
from game.ai.review import GRADES
from game.models import Game, GameAnalysis, Player
from tests.support.rooms import as_action, next_move


def played_game(seats: list[Player | str], rules: str = "yahtzee") -> Game:
    """A finished game of ``seats`` in order: a player record takes a person's seat, a bot
    level a computer's; every move goes through ``services.play``."""
    specs = [services.SeatSpec(s) if isinstance(s, str) else services.SeatSpec() for s in seats]
    host = f"host-{id(seats)}"
    room = services.create_room(name="Table", rules=rules, seats=specs, host_key=host)
    guests: dict[int, str] = {}
    for i, seat in enumerate(seats):
        if isinstance(seat, Player):
            guests[i] = host if not guests else f"guest-{seat.pk}-{room.code}"
            services.take_seat(room.code, guests[i], seat.name, i, player=seat)
    services.start_game(room.code, guests[min(guests)])
    game = Game.objects.get(room=room)
    while game.status == Game.Status.PLAYING:
        mover = game.snapshot["current_player"]
        action = as_action(next_move(game.snapshot))
        if mover in guests:
            services.play(room.code, action, guest_key=guests[mover])
        else:
            services.play(room.code, action, seat_index=mover, by="bot")
        game.refresh_from_db()
    return game


def store_review(game: Game, lucks: list[float], *, losses: list[float] | None = None,
                 decisions: int = 30, autoplay: list[int] | None = None,
                 grades: list[dict[str, int]] | None = None,
                 chance_lucks: list[float] | None = None, chain: bool = True) -> GameAnalysis:
    """A stored review of ``game`` with each seat's Σ luck, graded loss and grade counts as
    given (the rest of a review's data is not read by the profiles or the ratings), and, as the
    real review has for two or more players in yahtzee and yatzy (``chain``), each seat's chance
    chain with ``chance_lucks`` (what the dice did to its chance to win; default 0)."""
    n = len(game.players)
    chain = chain and n > 1 and game.rules in ("yahtzee", "yatzy")
    chance_lucks = chance_lucks or [0.0] * n
    losses = losses or [0.0] * n
    autoplay = autoplay or [0] * n
    grades = grades or [{g: (decisions if g == "best" else 0) for g in GRADES}] * n
    players: list[dict[str, Any]] = [
        {"name": game.players[i], "final": game.totals[i], "luck": lucks[i],
         "loss": losses[i], "decisions": decisions, "mean_loss": losses[i] / decisions,
         "grades": grades[i], "autoplay_decisions": autoplay[i], "autoplay_loss": 0.0,
         "expected_start": 254.59, "drift": 0.0, "expected": game.totals[i],
         "chance": {"luck": chance_lucks[i]} if chain else None}
        for i in range(n)]
    return GameAnalysis.objects.create(game=game, version=2, data={
        "version": 2, "rules": game.rules, "valuation": "exact", "finished": True,
        "players": players, "decisions": [], "rolls": [], "series": [], "chances": []})
