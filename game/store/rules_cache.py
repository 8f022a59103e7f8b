"""The rules game of a stored game, rebuilt from its events and kept for the next use.

Events are append-only, so a rules Game rebuilt at seq N is valid forever: the latest one per
game is kept, and taken out while it is used (a failed transaction never leaves a half-applied
game here). A kept game that has since moved on catches up from the events it missed (with two
servers a room's commands land on either: a whole rebuild per command was a tenth of each
server's CPU, docs/benchmarks.md). The caches are per process; any process can rebuild.

Commands (which hold the game's lock) use :func:`take` and :func:`keep`. Readers that hold no
lock (the live standings, the coach) have their own :data:`readers`: a command may be applying
events to its kept game at the same moment.
"""

from __future__ import annotations

import threading
from collections import OrderedDict

from ..models import Game
from ..rules import Event, RulesError, event_from_dict
from ..rules import Game as RulesGame
from .queries import event_rows

SIZE = 256


class Folds:
    """Rules games kept by game id, each at its seq; the least recently kept go first."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._kept: OrderedDict[int, tuple[int, RulesGame]] = OrderedDict()
        self._lock = threading.Lock()

    def take(self, game_id: int, seq: int) -> RulesGame:
        """The rules game of ``game_id`` at ``seq``, out of the cache, caught up or rebuilt:
        the caller's own until it is kept again."""
        with self._lock:
            entry = self._kept.pop(game_id, None)
        if entry is None or entry[0] > seq:
            return fold(game_id, seq)
        kept_seq, game = entry
        if kept_seq < seq:
            missed = events_between(game_id, kept_seq, seq)
            if len(missed) != seq - kept_seq:
                return fold(game_id, seq)
            try:
                for event in missed:
                    game.apply(event)
            except RulesError:  # cannot happen to a history the rules wrote; never guess
                return fold(game_id, seq)
        return game

    def keep(self, game_id: int, seq: int, game: RulesGame) -> None:
        with self._lock:
            self._kept[game_id] = (seq, game)
            self._kept.move_to_end(game_id)
            while len(self._kept) > self.size:
                self._kept.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._kept.clear()


_commands = Folds(SIZE)
#: The folds of readers without the game's lock (a standings update or the coach's advice
#: folded a whole game from model instances each time: most of its cost, docs/benchmarks.md).
readers = Folds(SIZE)


def fold(game_id: int, seq: int) -> RulesGame:
    """The rules game folded from its stored events up to ``seq`` (the source of truth)."""
    return RulesGame.from_events(events_between(game_id, 0, seq))


def events_between(game_id: int, after: int, upto: int) -> list[Event]:
    """The stored events of a game with ``after`` < seq <= ``upto``, in order."""
    return [event_from_dict(row) for row in event_rows(game_id, after, upto)]


def rebuild(game_row: Game) -> RulesGame:
    """The rules game of ``game_row`` at its seq, folded afresh."""
    return fold(game_row.pk, game_row.seq)


def take(game_row: Game) -> RulesGame:
    """A command's rules game at ``game_row.seq`` (see :meth:`Folds.take`); :func:`keep` it
    afterwards."""
    return _commands.take(game_row.pk, game_row.seq)


def keep(game_id: int, seq: int, game: RulesGame) -> None:
    """Keep ``game`` as the rules game of ``game_id`` at ``seq``."""
    _commands.keep(game_id, seq, game)


def clear() -> None:
    """Forget every kept game (what a new process starts with)."""
    _commands.clear()
    readers.clear()
