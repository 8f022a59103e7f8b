"""Playing through peers: pick the bot move for a state, send it, wait until all saw it."""

from __future__ import annotations

import itertools
from typing import Any

from .peers import Message, Peer

_ids = itertools.count(1)
#: The last event of what a command did (after it, the next command may be chosen).
LAST_KINDS = {"roll": {"rolled"}, "score": {"turn_started", "game_finished"}}


def bot_move(game: dict[str, Any]) -> Message:
    """Roll once, then score the first allowed box (a legal move for whoever is to play)."""
    allowed = [o for o in game["options"] if o["allowed"]]
    if game["dice"] is None or not allowed:
        return {"type": "roll", "hold": []}
    return {"type": "score", "box": allowed[0]["box"], "column": allowed[0]["column"]}


def mover(players: list[Peer]) -> Peer:
    game = max(players, key=lambda p: p.last_seq or 0).game
    assert game is not None and not game["finished"]
    return next(p for p in players if p.seat == game["current_player"])


def send_move(players: list[Peer]) -> tuple[Peer, Message]:
    """The player to move sends the bot's move with a fresh id; returns (who, what)."""
    who = mover(players)
    assert who.game is not None
    move = {**bot_move(who.game), "id": f"m{next(_ids)}"}
    who.send(move)
    return who, move


def await_result(peer: Peer, move: Message, timeout: float = 10.0) -> list[Message]:
    """The events of ``move`` as ``peer`` receives them, through the one that ends it."""
    events: list[Message] = []

    def done(m: Message) -> bool:
        if m["type"] == "error":
            raise AssertionError(f"{peer.name}: {move} answered {m}")
        if m["type"] == "event":
            events.append(m)
            return m["event"]["kind"] in LAST_KINDS[move["type"]]
        return False

    peer.until(done, timeout)
    return events


def play(players: list[Peer], everyone: list[Peer], moves: int) -> None:
    """Make ``moves`` commands; each peer must receive every event, in order, once."""
    for _ in range(moves):
        _, move = send_move(players)
        for peer in everyone:
            await_result(peer, move)
    for peer in everyone:
        assert peer.gaps == 0 and peer.repeats == 0, (peer.name, peer.gaps, peer.repeats)


def seated_and_playing(room: Any) -> tuple[list[Peer], list[Peer]]:
    """Two seated players and a watcher of ``room`` (a SeededRoom), connected, one move
    played: (the players, everyone)."""
    players = [room.player(0), room.player(1)]
    everyone = [*players, room.watcher()]
    for p in everyone:
        p.open()
    play(players, everyone, 1)
    return players, everyone
