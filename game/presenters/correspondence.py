"""Over-days games in words: each line of "Your games"."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from ..domain import translated
from ..rules import get_ruleset
from ..selectors.correspondence import YourGame


def your_game_line(game: YourGame) -> dict[str, Any]:
    """What "Your games" shows of one game: its state in words, whose move, the time left and
    the last move another player made."""
    left = translated.time_left(game.seconds_left) if game.seconds_left is not None else ""
    out_of_time = game.seconds_left is not None and game.seconds_left <= 0
    if out_of_time and game.state in ("your_turn", "their_turn"):
        # The next scan plays it (within CORRESPONDENCE_SCAN_SECONDS).
        status = _("%(name)s to move · time is up: the computer plays the move") % {
            "name": game.to_move}
    elif game.state == "your_turn":
        status = _("Your turn · %(left)s left") % {"left": left}
    elif game.state == "their_turn":
        status = _("%(name)s to move · %(left)s left") % {"name": game.to_move, "left": left}
    elif game.state == "waiting":
        status = _("Waiting to start")
    else:
        status = {"won": _("Finished · you won"), "lost": _("Finished · you lost"),
                  "tied": _("Finished · a tie")}.get(game.result, _("Finished"))
    last = ""
    if game.last_move is not None:
        last = _("%(name)s scored %(points)s in %(box)s") % {
            "name": game.last_move.name, "points": game.last_move.points,
            "box": translated.box_name_label(game.last_move.box.split("@")[0])}
    return {"game": game, "status": status, "last": last,
            "title": translated.ruleset_title(get_ruleset(game.rules).title)}
