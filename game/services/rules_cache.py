"""The rules game of a stored game, rebuilt from its events and kept for the next command.

Events are append-only, so a rules Game rebuilt at seq N is valid forever: the latest one per
game is kept, and taken out while a command uses it (a failed transaction never leaves a
half-applied game here). The cache is per process; any process can rebuild from the events.
A kept game that another process has since moved on catches up from the events it missed
(with two servers a room's commands land on either: a whole rebuild per command was a tenth
of each server's CPU, docs/benchmarks.md).
"""

from __future__ import annotations

import threading
from collections import OrderedDict

from ..models import Game
from ..rules import Event, RulesError, event_from_dict
from ..rules import Game as RulesGame

SIZE = 256
_cache: OrderedDict[int, tuple[int, RulesGame]] = OrderedDict()
_lock = threading.Lock()


def rebuild(game_row: Game) -> RulesGame:
    """The rules game folded from the stored events (the source of truth)."""
    return RulesGame.from_events(_events_after(game_row, 0))


def take(game_row: Game) -> RulesGame:
    """The rules game at ``game_row.seq``, out of the cache, caught up or rebuilt: the
    caller's own, to mutate; :func:`keep` it afterwards."""
    with _lock:
        entry = _cache.pop(game_row.pk, None)
    if entry is None or entry[0] > game_row.seq:
        return rebuild(game_row)
    seq, game = entry
    if seq < game_row.seq:
        missed = _events_after(game_row, seq)
        if len(missed) != game_row.seq - seq:
            return rebuild(game_row)
        try:
            for event in missed:
                game.apply(event)
        except RulesError:  # cannot happen to a history the rules wrote; never guess
            return rebuild(game_row)
    return game


def _events_after(game_row: Game, seq: int) -> list[Event]:
    rows = game_row.events.filter(seq__gt=seq).order_by("seq").values_list("kind", "payload")
    return [event_from_dict({"kind": kind, **payload}) for kind, payload in rows]


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
