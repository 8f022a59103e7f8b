"""Writes the fixture of the room page's JavaScript tests: whole games played over the room's
websocket, every frame one player's page received, and after each ``events`` frame the
server's own state of the game. ``tests/js/store.test.js`` applies the frames with the page's
reducer and patch code and must reach the same states (``make test`` runs this first)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.sessions.backends.db import SessionStore

from game import services
from game.models import Game
from game.presenters.replay import replay_data
from game.rules import get_ruleset

FIXTURE = Path(__file__).resolve().parents[2] / "var" / "js-fixtures" / "room-frames.json"
HEADERS = [(b"origin", b"http://localhost"), (b"host", b"localhost")]
TIMEOUT = 10

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


class Page:
    """One socket of the room, as a page holds it: every frame it got, in order."""

    def __init__(self, comm: WebsocketCommunicator) -> None:
        self.comm = comm
        self.frames: list[dict[str, Any]] = []

    async def until(self, kind: str, seq: int | None = None) -> dict[str, Any]:
        """The next frame of ``kind`` (an ``events`` frame: the one reaching ``seq``)."""
        while True:
            frame = await self.comm.receive_json_from(timeout=TIMEOUT)
            self.frames.append(frame)
            if frame["type"] == kind and (seq is None or frame["events"][-1]["seq"] >= seq):
                return frame


async def open_page(code: str, session: str | None) -> Page:
    headers = list(HEADERS)
    if session:
        headers.append((b"cookie", f"sessionid={session}".encode()))
    comm = WebsocketCommunicator(_application(), f"/ws/rooms/{code}/", headers=headers)
    connected, _ = await comm.connect(timeout=TIMEOUT)
    assert connected
    page = Page(comm)
    await page.until("state")
    return page


def _application() -> Any:
    from yahtzee_site.asgi import application

    return application


def _seated_room(rules: str, names: list[str]) -> tuple[str, list[str]]:
    """A waiting room with ``names`` in its seats (the first is the host): its code and each
    player's session key."""
    sessions = []
    guests = []
    for _ in names:
        store = SessionStore()
        guests.append(services.guest_key(store))
        store.create()
        sessions.append(store.session_key)
    room = services.create_room(name="Fixture", rules=rules,
                                seats=[services.SeatSpec() for _ in names], host_key=guests[0])
    for i, (name, guest) in enumerate(zip(names, guests, strict=True)):
        services.take_seat(room.code, guest, name, i)
    return room.code, sessions


def _server_game(code: str) -> dict[str, Any]:
    row = Game.objects.filter(room__code=code).order_by("-pk").first()
    assert row is not None
    return {**row.snapshot, "id": row.pk, "seq": row.seq}


def _move(game: dict[str, Any]) -> dict[str, Any]:
    """A legal command: roll twice keeping the 4s to 6s, then score the box worth the most."""
    if game["dice"] is None or game["rolls_left"] == 2:
        hold = [] if game["dice"] is None else [i for i, d in enumerate(game["dice"]) if d >= 4]
        return {"type": "roll", "hold": hold}
    best = max((o for o in game["options"] if o["allowed"]), key=lambda o: o["points"])
    return {"type": "score", "box": best["box"], "column": best["column"]}


async def _record(rules: str, names: list[str]) -> dict[str, Any]:
    """One whole game: the frames the first player's page got, each ``events`` frame with the
    server's state of the game after it (``game``; null for the other frames)."""
    code, sessions = await database_sync_to_async(_seated_room)(rules, names)
    pages = [await open_page(code, s) for s in sessions]
    watcher = await open_page(code, None)  # a presence frame for the players' pages
    mine = pages[0]
    await mine.comm.send_json_to({"type": "start", "id": "start"})
    game = (await mine.until("state"))["game"]
    after: dict[int, dict[str, Any]] = {}
    while not game["finished"]:
        mover = pages[game["current_player"]]
        move = _move(game)
        if move["type"] == "roll" and move["hold"]:
            # The mover shows what it holds: the others' pages get a `holding` frame.
            await mover.comm.send_json_to({"type": "hold", "held": move["hold"]})
        await mover.comm.send_json_to({**move, "id": f"m{game['seq']}"})
        frame = await mine.until("events", game["seq"] + 1)
        game = await database_sync_to_async(_server_game)(code)
        assert game["seq"] == frame["events"][-1]["seq"]
        after[id(frame)] = game
    await watcher.comm.disconnect()
    for page in pages:
        await page.comm.disconnect()
    return {"rules": rules, "players": names, "ruleset": get_ruleset(rules).to_dict(),
            "frames": [{"frame": f, "game": after.get(id(f))} for f in mine.frames],
            "replay": await database_sync_to_async(_replay)(code)}


def _replay(code: str) -> dict[str, Any]:
    """The game's page's replay of the room's game, from its stored events."""
    row = Game.objects.filter(room__code=code).order_by("-pk").first()
    assert row is not None
    return replay_data(row.events.order_by("seq"))


async def test_whole_games_write_the_room_page_fixture(settings):
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    settings.WS_RATE_PER_SECOND = 10_000  # a scripted player is faster than any person
    settings.WS_HOLD_PER_SECOND = 10_000
    games = [await _record("yahtzee", ["Ann", "Bob"]), await _record("triple", ["Cy"])]
    for game in games:
        kinds = {f["frame"]["type"] for f in game["frames"]}
        assert {"state", "events", "presence"} <= kinds, kinds
        assert game["frames"][-1]["game"]["finished"]
    assert "holding" in {f["frame"]["type"] for f in games[0]["frames"]}
    FIXTURE.parent.mkdir(parents=True, exist_ok=True)
    FIXTURE.write_text(json.dumps({"games": games}, separators=(",", ":")))
