"""Publishes live insight from the event loop: the standings after each turn
(``game.selectors.standings``) and, in practice rooms, the coach's advice after each roll
(``game.selectors.advice``); no command waits for them. A turn's standings come from the cards
its command left: at once where the process keeps every card's distribution (the usual case:
only the mover's card is new, and early cards repeat across games), and then they ride in the
events' own group message, after the events (one message through the layer and one dispatch
per socket, not two: the second was a third of what live standings cost a server); else they
are computed on the insight thread and published on their own. A game's standings are
published once at a time: turns that end meanwhile are folded into one more publication, of
the latest cards."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from typing import Any, TypeVar

from .. import protocol, services
from ..domain.advice import Advice
from ..domain.games import GameStandings
from ..selectors.advice import advice_for
from ..selectors.standings import (
    GameCards,
    standings_after,
    standings_available,
    standings_kept,
    standings_of,
)
from .db_threads import in_insight_thread

log = logging.getLogger(__name__)

#: Events after which where everyone stands has changed.
TURN_ENDS = ("turn_started", "game_finished")
_running: set[asyncio.Task[None]] = set()  # referenced until done (the loop keeps weak ones)


@dataclass(frozen=True)
class _TurnEnd:
    """A game's cards after a turn ended, and when its events' group message has gone: a
    standings frame published on its own follows it (a socket hears the turn, then where
    everyone stands), however long the layer takes with the events."""

    cards: GameCards
    sent: asyncio.Future[None] | None


#: The latest turn end of each game whose standings are being published.
_latest: dict[int, _TurnEnd] = {}


def spawn(job: Coroutine[Any, Any, None]) -> None:
    task = asyncio.get_running_loop().create_task(job)
    _running.add(task)
    task.add_done_callback(_running.discard)


def after_events(room_code: str, result: services.PlayResult,
                 sent: asyncio.Future[None] | None = None) -> str | None:
    """After a command's events, before the room's group gets them: if a turn ended, its
    standings (where the rules have them and their table is ready: nothing computed
    otherwise). Returns the ``standings`` frame's text when it is known at once and nothing
    older of the game is still on its way: the caller sends it with the events. Otherwise
    they are published on their own once computed, and once ``sent`` is done (the caller's
    events have gone to the group; None: they have already). A daily challenge has nobody to
    show them to: no watchers, and its player sees no chances."""
    if not (result.events and result.state is not None
            and result.events[-1]["kind"] in TURN_ENDS
            and not (result.state.get("fairness") or {}).get("daily")
            and standings_available(result.state["rules"])):
        return None
    game_id = result.game_id
    cards = GameCards.after(game_id, result.first_seq + len(result.events) - 1, result.state)
    publishing = _latest.get(game_id)
    if publishing is not None:  # its loop publishes these next
        if cards.seq > publishing.cards.seq:
            _latest[game_id] = _TurnEnd(cards, sent)
        return None
    found = _at_once(cards)
    if found is not None:
        return protocol.encode(protocol.standings(found))
    _latest[game_id] = _TurnEnd(cards, sent)
    spawn(_publish_until_current(room_code, game_id))
    return None


async def _publish_until_current(room_code: str, game_id: int) -> None:
    published = -1
    try:
        while (turn := _latest[game_id]).cards.seq > published:
            cards = turn.cards
            published = cards.seq
            found = _at_once(cards) or await _computed(standings_after, cards, game_id)
            if found:
                if turn.sent is not None:  # the turn's events first, through the same layer
                    await asyncio.shield(turn.sent)
                await services.asend_standings(room_code, found)
    finally:
        del _latest[game_id]


def _at_once(cards: GameCards) -> GameStandings | None:
    """The standings from what the process keeps, on the event loop (no query, no table to
    load, no distribution to compute), or None."""
    try:
        return standings_kept(cards)
    except Exception:  # noqa: BLE001 - insight is a bonus: a failure must not touch the game
        log.exception("game %s: standings_kept failed", cards.game_id)
        return None


Arg = TypeVar("Arg")
Found = TypeVar("Found")


async def _computed(what: Callable[[Arg], Found | None], arg: Arg,
                    game_id: int) -> Found | None:
    try:
        found: Found | None = await in_insight_thread(what)(arg)
        return found
    except Exception:  # noqa: BLE001 - insight is a bonus: a failure must not touch the game
        log.exception("game %s: %s failed", game_id, what.__name__)
        return None


async def standings(game_id: int, rules: str) -> GameStandings | None:
    if not standings_available(rules):
        return None
    return await _computed(standings_of, game_id, game_id)


async def advice(game_id: int) -> Advice | None:
    """The coach's advice for the player to move, or None."""
    return await _computed(advice_for, game_id, game_id)


def after_roll(room_code: str, game_id: int) -> None:
    """In a practice room, after the player to move rolled: the coach's numbers, to them."""
    spawn(_coach(room_code, game_id))


async def _coach(room_code: str, game_id: int) -> None:
    found = await advice(game_id)
    if found:
        await services.asend_advice(room_code, found)


