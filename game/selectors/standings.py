"""Live standings of a room's game: each player's expected final score, its spread and their
chance to win, after every turn (``game.ai.standings``).

Computed on a worker thread after the turn's events went out; no command and no page waits
for it. Only where the strategy table is ready: a room never triggers a table build here.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass

from .. import rules_cache
from ..ai import Standings, standings_supported, table_ready
from ..ai.standings import Standing, forget_futures
from ..queries import game_progress
from ..rules import Ruleset, get_ruleset

_by_rules: dict[str, Standings] = {}  # one per ruleset: the futures are kept per state
_lock = threading.Lock()


@dataclass(frozen=True)
class GameStandings:
    """Where each player of a game stands as of ``seq``, in player order."""

    game_id: int
    seq: int
    players: list[Standing]


def standings_available(rules: str) -> bool:
    """Whether a game of ``rules`` has standings now (a table, ready): when not, nothing is
    queried nor folded for it."""
    ruleset = get_ruleset(rules)
    return standings_supported(ruleset) and table_ready(ruleset)


def _standings_of(ruleset: Ruleset) -> Standings | None:
    with _lock:
        found = _by_rules.get(ruleset.name)
    if found is None:
        if not standings_supported(ruleset) or not table_ready(ruleset):
            return None
        found = Standings(ruleset)
        with _lock:
            found = _by_rules.setdefault(ruleset.name, found)
    return found


def clear() -> None:
    """Forget the standings and the futures they keep (what a new process starts with)."""
    with _lock:
        _by_rules.clear()
    forget_futures()


def standings_of(game_id: int) -> GameStandings | None:
    """A game's standings as it stands now, or None where there are none (triple, no table
    yet, no such game)."""
    found = game_progress(game_id)
    if found is None:
        return None
    seq = found[0]
    # Up to the row's seq, from this reader's own fold (no game lock is held here).
    game = rules_cache.readers.take(game_id, seq)
    try:
        standings = _standings_of(game.ruleset)
        if standings is None:
            return None
        players = standings.of(game.scorecards)
    finally:
        rules_cache.readers.keep(game_id, seq, game)
    return GameStandings(game_id=game_id, seq=seq, players=list(players))
