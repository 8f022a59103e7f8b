"""One line of a game's event log, for people."""

from __future__ import annotations

from typing import Any


def describe(kind: str, payload: dict[str, Any], players: list[str]) -> str:
    """The event ``kind`` with ``payload`` (as stored) in words, naming ``players``."""
    def who() -> str:
        i = payload.get("player")
        return players[i] if isinstance(i, int) and 0 <= i < len(players) else "?"

    column = payload.get("column", 0)
    where = f" (column {column + 1})" if column else ""
    if kind == "game_started":
        return f"Game of {payload.get('rules')} started: {', '.join(payload.get('players', []))}"
    if kind == "turn_started":
        return f"Round {payload.get('round')}: {who()}'s turn"
    if kind == "rolled":
        dice = payload.get("dice") or []
        # ``held`` holds positions; a held die keeps its position, so its face is in ``dice``.
        held = [dice[i] for i in payload.get("held") or [] if isinstance(i, int)
                and 0 <= i < len(dice)]
        kept = f", held {' '.join(map(str, held))}" if held else ""
        return f"{who()} rolled {' '.join(map(str, dice))}{kept}"
    if kind == "scored":
        joker = " (Joker)" if payload.get("joker") else ""
        box = str(payload.get("box", "")).replace("_", " ")
        return f"{who()} scored {payload.get('points')} in {box}{where}{joker}"
    if kind == "bonus":
        return f"{who()} earned the {payload.get('bonus')} bonus: {payload.get('points')}{where}"
    if kind == "game_finished":
        names = [players[i] for i in payload.get("winners", []) if 0 <= i < len(players)]
        return f"Game over. Won by {', '.join(names)} — totals {payload.get('totals')}"
    return kind
