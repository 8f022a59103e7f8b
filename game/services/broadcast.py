"""Sending to a room's channel-layer group, only ever after the database has committed.

The layer is not trusted to be lossless (clients resync on a ``seq`` gap), so a failed send is
logged and swallowed: what is stored stays stored, and the command still succeeded.
"""

from __future__ import annotations

import json
import logging
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

log = logging.getLogger(__name__)


def group_name(room_code: str) -> str:
    return f"room.{room_code}"


async def agroup_send(room_code: str, message: dict[str, Any]) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        await layer.group_send(group_name(room_code), message)
    except Exception:  # noqa: BLE001 - the DB is the truth; clients resync on a gap
        log.warning("group_send to room %s failed", room_code, exc_info=True)


def group_send(room_code: str, message: dict[str, Any]) -> None:
    """From synchronous code (services run in a worker thread, or in a view)."""
    async_to_sync(agroup_send)(room_code, message)


def turn_summary(game: dict[str, Any] | None) -> dict[str, Any] | None:
    """Where a game's turn stands, from its state (``game`` of a ``state`` message, or
    ``PlayResult.state``): what a socket needs to check a ``hold`` without asking the
    database."""
    if game is None:
        return None
    return {"game": game["id"], "seq": game["seq"], "rules": game["rules"],
            "player": game["current_player"], "rolls_left": game["rolls_left"],
            "rolled": game["dice"] is not None, "over": game["finished"]}


def _events_message(texts: list[str], turn: dict[str, Any] | None) -> dict[str, Any]:
    # Every ``event`` frame of one command in one group message, so their order holds; JSON
    # encoded once by the sender rather than by each of the room's sockets.
    return {"type": "game.events", "texts": texts, "turn": turn}


def send_events(room_code: str, texts: list[str], turn: dict[str, Any] | None) -> None:
    """One command's ``events`` frame, and where the turn stands after it."""
    if texts:
        group_send(room_code, _events_message(texts, turn))


async def asend_events(room_code: str, texts: list[str], turn: dict[str, Any] | None) -> None:
    if texts:
        await agroup_send(room_code, _events_message(texts, turn))


def send_room_changed(room_code: str) -> None:
    """Seats or the game changed as a whole: every connection sends its own fresh ``state``."""
    group_send(room_code, {"type": "room.changed"})


def _presence_message(message: dict[str, Any]) -> dict[str, Any]:
    return {"type": "room.presence", "message": message}


async def asend_presence(room_code: str, message: dict[str, Any]) -> None:
    """Who is connected changed: every connection passes the ``presence`` message on."""
    await agroup_send(room_code, _presence_message(message))


async def asend_standings(room_code: str, text: str) -> None:
    """Where everyone stands (a ``standings`` frame, encoded once); each socket decides
    whether its person may see it."""
    await agroup_send(room_code, {"type": "room.standings", "text": text})


async def asend_advice(room_code: str, player: int, text: str) -> None:
    """The coach's ``advice`` (practice rooms only), for the sockets of ``player`` alone."""
    await agroup_send(room_code, {"type": "room.advice", "player": player, "text": text})
async def asend_frame(room_code: str, frame: dict[str, Any]) -> None:
    """One frame every socket of the room passes on as it is (a notice, never stored:
    ``holding``, ``preparing``), encoded once."""
    await agroup_send(room_code, {"type": "room.frame", "text": json.dumps(frame)})
