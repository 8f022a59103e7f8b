"""Publishes live insight from the event loop: the standings after each turn
(``game.selectors.standings``) and, in practice rooms, the coach's advice after each roll
(``game.selectors.advice``). Computed
on the insight thread after the events went out, then sent to the room's group; nothing waits
for them. A game's standings are computed once at a time: turns that end meanwhile are folded
into one more computation, of the game as it then stands."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

from .. import services
from ..selectors.advice import Advice, advice_for
from ..selectors.standings import GameStandings, standings_available, standings_of
from .db_threads import in_insight_thread

log = logging.getLogger(__name__)

#: Events after which where everyone stands has changed.
TURN_ENDS = ("turn_started", "game_finished")
_running: set[asyncio.Task[None]] = set()  # referenced until done (the loop keeps weak ones)
#: Games whose standings are being computed, and those of them whose turn ended again since.
_publishing: set[int] = set()
_again: set[int] = set()


def spawn(job: Coroutine[Any, Any, None]) -> None:
    task = asyncio.get_running_loop().create_task(job)
    _running.add(task)
    task.add_done_callback(_running.discard)


def after_events(room_code: str, result: services.PlayResult) -> None:
    """After a command's events were broadcast: if a turn ended, publish the standings (where
    the rules have them and their table is ready: no query otherwise). A daily challenge has
    nobody to show them to: no watchers, and its player sees no chances."""
    if (result.events and result.state is not None
            and result.events[-1]["kind"] in TURN_ENDS
            and not (result.state.get("fairness") or {}).get("daily")
            and standings_available(result.state["rules"])):
        game_id = result.state["id"]
        if game_id in _publishing:
            _again.add(game_id)
            return
        _publishing.add(game_id)
        spawn(_publish_until_current(room_code, game_id, result.state["rules"]))


async def _publish_until_current(room_code: str, game_id: int, rules: str) -> None:
    try:
        while True:
            _again.discard(game_id)
            await _publish(room_code, game_id, rules)
            if game_id not in _again:
                return
    finally:
        _publishing.discard(game_id)


Found = TypeVar("Found")


async def _computed(what: Callable[[int], Found | None], game_id: int) -> Found | None:
    try:
        found: Found | None = await in_insight_thread(what)(game_id)
        return found
    except Exception:  # noqa: BLE001 - insight is a bonus: a failure must not touch the game
        log.exception("game %s: %s failed", game_id, what.__name__)
        return None


async def standings(game_id: int, rules: str) -> GameStandings | None:
    if not standings_available(rules):
        return None
    return await _computed(standings_of, game_id)


async def advice(game_id: int) -> Advice | None:
    """The coach's advice for the player to move, or None."""
    return await _computed(advice_for, game_id)


def after_roll(room_code: str, game_id: int) -> None:
    """In a practice room, after the player to move rolled: the coach's numbers, to them."""
    spawn(_coach(room_code, game_id))


async def _coach(room_code: str, game_id: int) -> None:
    found = await advice(game_id)
    if found:
        await services.asend_advice(room_code, found)


async def _publish(room_code: str, game_id: int, rules: str) -> None:
    found = await standings(game_id, rules)
    if found:
        await services.asend_standings(room_code, found)
