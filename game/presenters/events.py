"""One line of a game's event log, for people."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _


def describe(kind: str, payload: dict[str, Any], players: list[str]) -> str:
    """The event ``kind`` with ``payload`` (as stored) in words, naming ``players``."""
    def who() -> str:
        i = payload.get("player")
        return players[i] if isinstance(i, int) and 0 <= i < len(players) else "?"

    column = payload.get("column", 0)
    where = _(" (column %(column)s)") % {"column": column + 1} if column else ""
    if kind == "game_started":
        return _("Game of %(rules)s started: %(players)s") % {
            "rules": payload.get("rules"), "players": ", ".join(payload.get("players", []))}
    if kind == "turn_started":
        return _("Round %(round)s: %(name)s's turn") % {"round": payload.get("round"),
                                                        "name": who()}
    if kind == "rolled":
        dice = payload.get("dice") or []
        # ``held`` holds positions; a held die keeps its position, so its face is in ``dice``.
        held = [dice[i] for i in payload.get("held") or [] if isinstance(i, int)
                and 0 <= i < len(dice)]
        values = {"name": who(), "dice": " ".join(map(str, dice)),
                  "held": " ".join(map(str, held))}
        return (_("%(name)s rolled %(dice)s, held %(held)s") if held
                else _("%(name)s rolled %(dice)s")) % values
    if kind == "scored":
        joker = _(" (Joker)") if payload.get("joker") else ""
        box = str(payload.get("box", "")).replace("_", " ")
        # Translators: where is " (column 2)" or nothing, joker " (Joker)" or nothing.
        return _("%(name)s scored %(points)s in %(box)s%(where)s%(joker)s") % {
            "name": who(), "points": payload.get("points"), "box": box, "where": where,
            "joker": joker}
    if kind == "bonus":
        # Translators: bonus is "upper" or "yahtzee"; where is " (column 2)" or nothing.
        return _("%(name)s earned the %(bonus)s bonus: %(points)s%(where)s") % {
            "name": who(), "bonus": payload.get("bonus"), "points": payload.get("points"),
            "where": where}
    if kind == "game_finished":
        names = [players[i] for i in payload.get("winners", []) if 0 <= i < len(players)]
        return _("Game over. Won by %(names)s — totals %(totals)s") % {
            "names": ", ".join(names), "totals": payload.get("totals")}
    return kind
