"""The rules game of a stored game, rebuilt from its events and kept for the next command.

Events are append-only, so a rules Game rebuilt at seq N is valid forever: the latest one per
game is kept, and taken out while a command uses it (a failed transaction never leaves a
half-applied game here). The cache is per process; any process can rebuild from the events.
"""

from __future__ import annotations

import threading
from collections import OrderedDict

from ..models import Game
from ..rules import Game as RulesGame
from ..rules import event_from_dict

SIZE = 256
_cache: OrderedDict[int, tuple[int, RulesGame]] = OrderedDict()
_lock = threading.Lock()


def rebuild(game_row: Game) -> RulesGame:
    """The rules game folded from the stored events (the source of truth)."""
    events = [event_from_dict(e.to_rules_dict()) for e in game_row.events.order_by("seq")]
    return RulesGame.from_events(events)


def take(game_row: Game) -> RulesGame:
    """The rules game at ``game_row.seq``, out of the cache or rebuilt: the caller's own, to
    mutate; :func:`keep` it afterwards."""
    with _lock:
        entry = _cache.pop(game_row.pk, None)
    return entry[1] if entry and entry[0] == game_row.seq else rebuild(game_row)


def keep(game_id: int, seq: int, game: RulesGame) -> None:
    """Keep ``game`` as the rules game of ``game_id`` at ``seq`` (the least recent go first)."""
    with _lock:
        _cache[game_id] = (seq, game)
        _cache.move_to_end(game_id)
        while len(_cache) > SIZE:
            _cache.popitem(last=False)


def clear() -> None:
    """Forget every kept game (what a new process starts with)."""
    with _lock:
        _cache.clear()
