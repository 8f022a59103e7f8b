"""Live standings of a room's game: each player's expected final score, its spread and their
chance to win, after every turn (``game.ai.standings``).

After a turn's events went out, from the cards its command left (:class:`GameCards`): at once
where the process keeps every card's distribution (:func:`standings_kept`), else on a worker
thread (:func:`standings_after`); a socket joining a running game gets them from the stored
game (:func:`standings_of`). No command and no page waits for them. Only where the strategy
table is ready: a room never triggers a table build here.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any

from ..ai import CardState, Standings, standings_supported, table_ready
from ..ai.standings import forget_futures
from ..domain.games import GameStandings
from ..rules import Ruleset, get_ruleset
from ..store import rules_cache
from ..store.queries import game_progress

_by_rules: dict[str, Standings] = {}  # one per ruleset: the futures are kept per state
_lock = threading.Lock()


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


@dataclass(frozen=True)
class GameCards:
    """A game's cards as of ``seq``, as a command left them: what its standings need."""

    game_id: int
    seq: int
    rules: str
    cards: tuple[CardState, ...]

    @classmethod
    def after(cls, game_id: int, seq: int, state: dict[str, Any]) -> GameCards:
        """From a game's state as a command returns it (``Game.to_dict``): no query."""
        ruleset = get_ruleset(state["rules"])
        return cls(game_id, seq, ruleset.name,
                   tuple(CardState.of_dict(ruleset, card) for card in state["scorecards"]))


def standings_kept(cards: GameCards) -> GameStandings | None:
    """The standings of these cards from what this process keeps alone (no query, no table
    loaded, no distribution computed: cheap enough for the event loop), or None when any is
    missing (:func:`standings_after` computes it)."""
    with _lock:
        standings = _by_rules.get(cards.rules)
    found = standings.kept(cards.cards) if standings is not None else None
    return None if found is None else GameStandings(cards.game_id, cards.seq, found)


def standings_after(cards: GameCards) -> GameStandings | None:
    """The standings of these cards, computing the distributions this process has not kept
    (milliseconds each: on a worker thread), or None where there are none."""
    standings = _standings_of(get_ruleset(cards.rules))
    if standings is None:
        return None
    return GameStandings(cards.game_id, cards.seq, standings.of_states(cards.cards))


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
