"""One decision of a finished game with every option it had, valued as its review values them:
what the game's page offers as "Try it yourself" (a reviewer re-decides on the same dice).

Finished games only: the values of a live game's options would be a coach for anyone who
opens the game's page. Only the turn of the decision is valued (``ai.review.decision_options``):
a few milliseconds for yahtzee and yatzy, up to seconds for a late triple turn (its exact end
game), which is why the page's server asks the review worker for it (``views.game_try``).
"""

from __future__ import annotations

from ..ai import table_ready
from ..ai.review import DecisionOptions, decision_options
from ..models import Game
from ..rules import event_from_dict, get_ruleset
from ..rules.errors import CodedError


class NoOptions(CodedError):
    """Why a decision's options cannot be given; ``code`` says which."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def tried_decision(game_id: int, seq: int) -> DecisionOptions:
    """The options of the decision at ``seq`` of finished game ``game_id``.

    Raises :class:`NoOptions`: ``no_game``, ``not_finished``, ``no_decision``, ``not_ready``
    (the strategy table is not built yet: nothing here waits for a build).
    """
    game = Game.objects.filter(pk=game_id).only("status", "rules").first()
    if game is None:
        raise NoOptions("no_game", f"There is no game {game_id}.")
    if game.status != Game.Status.FINISHED:
        raise NoOptions("not_finished", "A game's choices can be tried once it is over.")
    if not table_ready(get_ruleset(game.rules)):
        raise NoOptions("not_ready", "The strategy table is being built; try again in a minute.")
    rows = list(game.events.order_by("seq").values_list("seq", "kind", "payload"))
    events = [event_from_dict({**payload, "kind": kind}) for _, kind, payload in rows]
    try:
        return decision_options(events, seq, [s for s, *_ in rows])
    except ValueError as exc:
        raise NoOptions("no_decision", str(exc)) from None
