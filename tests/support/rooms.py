"""Rooms for the tests that go through the services: sessions, seated rooms, legal moves."""

from __future__ import annotations

from typing import Any

from django.contrib.sessions.backends.db import SessionStore

from game import services
from game.models import Game, Room
from game.rules import Action, Roll, Score


def make_session(nickname: str | None = None) -> tuple[str, str]:
    """A stored Django session with a guest key: (session cookie value, guest key)."""
    store = SessionStore()
    guest = services.guest_key(store)
    if nickname:
        store["nickname"] = nickname
    store.create()
    return store.session_key, guest


def room_with_players(
    names: list[str], *, rules: str = "yahtzee", bots: list[str] = (), start: bool = True
) -> tuple[Room, list[str]]:
    """A room whose first seats are taken by ``names`` (host = first), then bot seats."""
    host_key = f"host-{names[0]}" if names else "host"
    specs = [services.SeatSpec() for _ in names] + [services.SeatSpec(b) for b in bots]
    room = services.create_room(name="Test room", rules=rules, seats=specs, host_key=host_key)
    guests = []
    for i, name in enumerate(names):
        guest = host_key if i == 0 else f"guest-{name}"
        services.take_seat(room.code, guest, name, i)
        guests.append(guest)
    if start:
        services.start_game(room.code, host_key)
    room.refresh_from_db()
    return room, guests


def next_move(game: dict[str, Any]) -> dict[str, Any]:
    """A legal protocol command for the player to move: roll twice, then score the best box."""
    if game["dice"] is None or game["rolls_left"] == 2:
        hold = [] if game["dice"] is None else [i for i, d in enumerate(game["dice"]) if d >= 4]
        return {"type": "roll", "hold": hold}
    allowed = [o for o in game["options"] if o["allowed"]]
    best = max(allowed, key=lambda o: o["points"])
    return {"type": "score", "box": best["box"], "column": best["column"]}


def as_action(move: dict[str, Any]) -> Action:
    if move["type"] == "roll":
        return Roll(tuple(move["hold"]))
    return Score(move["box"], move["column"])


def play_to_end(room: Room, guests: list[str]) -> Game:
    """Play the room's game through the services, each seat's guest moving in turn."""
    game = Game.objects.get(room=room)
    while game.status == Game.Status.PLAYING:
        player = game.snapshot["current_player"]
        services.play(room.code, as_action(next_move(game.snapshot)), guest_key=guests[player])
        game.refresh_from_db()
    return game


def finished_game(names: list[str], rules: str = "yahtzee") -> Game:
    """A started room of ``names`` whose game was played to the end through the services."""
    room, guests = room_with_players(names, rules=rules)
    return play_to_end(room, guests)
