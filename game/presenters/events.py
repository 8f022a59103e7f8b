"""One line of a game's event log, for people."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from ..domain.translated import box_name_label, ruleset_title
from ..rules import RULESETS


def describe(kind: str, payload: dict[str, Any], players: list[str]) -> str:
    """The event ``kind`` with ``payload`` (as stored) in words, naming ``players``."""
    def who() -> str:
        i = payload.get("player")
        return players[i] if isinstance(i, int) and 0 <= i < len(players) else "?"

    column = payload.get("column", 0)
    # Columns are counted from 1 for people (a single column is not named).
    values: dict[str, Any] = {"column": column + 1} if column else {}
    if kind == "game_started":
        rules = str(payload.get("rules", ""))
        return _("Game of %(rules)s started: %(players)s") % {
            "rules": ruleset_title(RULESETS[rules].title) if rules in RULESETS else rules,
            "players": ", ".join(payload.get("players", []))}
    if kind == "turn_started":
        return _("Round %(round)s: %(name)s’s turn") % {"round": payload.get("round"),
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
        values |= {"name": who(), "points": payload.get("points"),
                   "box": box_name_label(str(payload.get("box", "")))}
        # A Joker: a Yahtzee scored in a lower box by the Joker rule.
        if payload.get("joker"):
            template = (_("%(name)s scored %(points)s in %(box)s (column %(column)s, Joker)")
                        if column else _("%(name)s scored %(points)s in %(box)s (Joker)"))
        else:
            template = (_("%(name)s scored %(points)s in %(box)s (column %(column)s)") if column
                        else _("%(name)s scored %(points)s in %(box)s"))
        return template % values
    if kind == "bonus":
        values |= {"name": who(), "points": payload.get("points")}
        if payload.get("bonus") == "upper":
            template = (_("%(name)s earned the upper bonus: %(points)s (column %(column)s)")
                        if column else _("%(name)s earned the upper bonus: %(points)s"))
        elif payload.get("bonus") == "yahtzee":
            template = (_("%(name)s earned the Yahtzee bonus: %(points)s (column %(column)s)")
                        if column else _("%(name)s earned the Yahtzee bonus: %(points)s"))
        else:
            template = (_("%(name)s earned a bonus: %(points)s (column %(column)s)")
                        if column else _("%(name)s earned a bonus: %(points)s"))
        return template % values
    if kind == "game_finished":
        names = [players[i] for i in payload.get("winners", []) if 0 <= i < len(players)]
        return _("Game over. Won by %(names)s — totals %(totals)s") % {
            "names": ", ".join(names),
            "totals": ", ".join(map(str, payload.get("totals") or []))}
    return kind
