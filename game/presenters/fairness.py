"""What anyone needs to check a game's dice (docs/fairness.md), from its row and event log.

The same JSON feeds the game page's verifier (``static/game/game/verify.js``), the download
``/games/<id>/dice.json`` that the script in ``docs/fairness.md`` reads, and nothing else::

    {"game": 7, "finished": true, "unfinished": false,
     "commitment": "9f2c…", "server_seed": "41d7…",     # null until the game is over
     "client_seeds": ["ann's seed", "5e0b9a71c2d4f803"],
     "players": ["Ann", "Bot 1 (optimal)"],
     "rolls": [{"k": 1, "seq": 3, "player": 0, "held": [], "dice": [3, 3, 5, 1, 6]}, …]}

``rolls`` lists every ``rolled`` event in order: ``k`` is the roll's number in the game.
The server seed comes from the stored ``game_finished`` event only, never from the row, so
nothing here can show it before the game is over. A daily challenge's game adds ``rules``,
``daily`` (its day) and each roll's ``turn`` and ``roll``; its ``server_seed`` is the day seed,
given by the caller once the day is over (``DailyChallenge.revealed_seed``), else null.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..models import Game


def fairness_data(game: Game, events: Iterable[tuple[int, str, dict[str, Any]]],
                  day_seed: str = "") -> dict[str, Any] | None:
    """The check data of ``game`` from its events as (seq, kind, payload) in seq order, or
    None for a game from before fair dice; ``day_seed``: a daily game's, once revealed."""
    if not game.commitment:
        return None
    rolls: list[dict[str, Any]] = []
    server_seed = None
    daily = ""
    turn = 0
    for seq, kind, payload in events:
        if kind == "rolled":
            # Every roll's turn and roll of the turn: a checker can tell every roll is there.
            rolls.append({"k": len(rolls) + 1, "seq": seq, "player": payload["player"],
                          "held": payload["held"], "dice": payload["dice"], "turn": turn,
                          "roll": payload["roll"]})
        elif kind == "turn_started":
            turn = payload["round"]
        elif kind == "game_started":
            daily = payload.get("daily") or ""
        elif kind == "game_finished":
            server_seed = payload.get("server_seed") or None
    made: dict[tuple[int, int], int] = {}
    for roll in rolls:
        made[(roll["player"], roll["turn"])] = made.get((roll["player"], roll["turn"]), 0) + 1
    for roll in rolls:  # how many rolls its turn had: a file cut short shows it
        roll["of"] = made[(roll["player"], roll["turn"])]
    if daily:
        return {"game": game.pk, "finished": game.status == Game.Status.FINISHED,
                "unfinished": game.unfinished, "commitment": game.commitment,
                "server_seed": day_seed or None, "client_seeds": [], "rules": game.rules,
                "daily": daily, "players": list(game.players), "rolls": rolls}
    return {
        "game": game.pk,
        "finished": game.status == Game.Status.FINISHED,
        "unfinished": game.unfinished,
        "commitment": game.commitment,
        "server_seed": server_seed,
        "client_seeds": list(game.client_seeds),
        "rules": game.rules,
        "players": list(game.players),
        "rolls": rolls,
    }
