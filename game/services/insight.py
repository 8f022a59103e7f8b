"""Live standings of a room's game: each player's expected final score, its spread and their
chance to win, after every turn (``game.ai.standings``).

Computed on a worker thread after the turn's events went out; no command and no page waits
for it. Only where the strategy table is ready: a room never triggers a table build here.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

from ..ai import Standings, standings_supported, table_ready
from ..models import Game
from ..rules import Game as RulesGame
from ..rules import Ruleset, event_from_dict, get_ruleset

SIZE = 64  # games whose distributions are kept (a card's changes once per turn)
_kept: OrderedDict[int, Standings] = OrderedDict()
_lock = threading.Lock()


def standings_available(rules: str) -> bool:
    """Whether a game of ``rules`` has standings now (a table, ready): when not, nothing is
    queried nor folded for it."""
    ruleset = get_ruleset(rules)
    return standings_supported(ruleset) and table_ready(ruleset)


def _standings_of(game_id: int, ruleset: Ruleset) -> Standings | None:
    with _lock:
        found = _kept.pop(game_id, None)
    if found is None:
        if not standings_supported(ruleset) or not table_ready(ruleset):
            return None
        found = Standings(ruleset)
    return found


def _keep(game_id: int, standings: Standings) -> None:
    with _lock:
        _kept[game_id] = standings
        while len(_kept) > SIZE:
            _kept.popitem(last=False)


def standings_message(game_id: int) -> dict[str, Any] | None:
    """The ``standings`` frame of a game as it stands now, or None where there is none
    (triple, no table yet, no such game)."""
    row = Game.objects.filter(pk=game_id).first()
    if row is None:
        return None
    # Folded privately, up to the row's seq: the shared rules cache is for commands, which
    # hold the game's lock; this reader does not.
    game = RulesGame.from_events([event_from_dict(e.to_rules_dict())
                                  for e in row.events.filter(seq__lte=row.seq).order_by("seq")])
    standings = _standings_of(row.pk, game.ruleset)
    if standings is None:
        return None
    players = standings.of(game.scorecards)
    _keep(row.pk, standings)
    return {"type": "standings", "game": row.pk, "seq": row.seq, "players": [
        {"expected": round(s.expected, 1), "sd": round(s.sd, 1), "chance": round(s.chance, 4)}
        for s in players]}
