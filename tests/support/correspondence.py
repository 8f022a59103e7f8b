"""Over-days games for the tests: rooms of players of their own, a whole turn, and the site's
clock every process reads from ``CLOCK_FILE``, moved by the test."""

from __future__ import annotations

from pathlib import Path

from game import services
from game.models import Game, Player, Room
from tests.support.rooms import as_action, next_move


class Clock:
    """The site's clock (``game.domain.clock``) of every process that reads ``CLOCK_FILE``:
    games over days, the daily's day and the away grace, moved by the test."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.offset = 0.0
        path.write_text("0")

    def forward(self, seconds: float) -> None:
        self.offset += seconds
        self.path.write_text(str(self.offset))


def over_days_room(names: list[str], *, bots: tuple[str, ...] = (), days: int = 2,
                   start: bool = True) -> tuple[Room, list[str], list[Player]]:
    """An over-days room seated by ``names`` (each a player of their own), then ``bots``."""
    players = [services.new_player(name) for name in names]
    host = f"host-{names[0]}"
    room = services.open_room(host, nickname=names[0], name="Ann's table", rules="yahtzee",
                              seats=[services.SeatSpec() for _ in names]
                              + [services.SeatSpec(b) for b in bots],
                              player=players[0], pace="days", move_days=days)
    guests = [host]
    for i, name in enumerate(names[1:], start=1):
        services.take_seat(room.code, f"guest-{name}", name, i, player=players[i])
        guests.append(f"guest-{name}")
    if start:
        services.start_game(room.code, host)
    room.refresh_from_db()
    return room, guests, players


def play_turn(room: Room, guest: str) -> Game:
    """The player of ``guest`` rolls and scores: one whole turn."""
    game = Game.objects.get(room=room)
    mover = game.snapshot["current_player"]
    while game.snapshot["current_player"] == mover and game.status == Game.Status.PLAYING:
        services.play(room.code, as_action(next_move(game.snapshot)), guest_key=guest)
        game.refresh_from_db()
    return game
