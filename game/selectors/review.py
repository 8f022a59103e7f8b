"""One decision of a finished game with every option it had, valued as its review values them:
what the game's page offers as "Try it yourself" (a reviewer re-decides on the same dice).

Finished games only: the values of a live game's options would be a coach for anyone who
opens the game's page. Only the turn of the decision is valued (``ai.review.decision_options``):
a few milliseconds for yahtzee and yatzy, up to seconds for a late triple turn (its exact end
game), which is why the page's server asks the review worker for it (``views.game_try``).
"""

from __future__ import annotations

from typing import Any

from ..ai import table_ready
from ..ai.review import DecisionOptions, NoDecision, decision_options
from ..models import Game
from ..rules import event_from_dict, get_ruleset
from ..rules.errors import CodedError, gettext_noop


class NoOptions(CodedError):
    """Why a decision's options cannot be given; ``code`` says which."""

    def __init__(self, code: str, template: str, params: dict[str, Any] | None = None) -> None:
        super().__init__(template, params)
        self.code = code


def tried_decision(game_id: int, seq: int) -> DecisionOptions:
    """The options of the decision at ``seq`` of finished game ``game_id``.

    Raises :class:`NoOptions`: ``no_game``, ``not_finished``, ``no_decision``, ``not_ready``
    (the strategy table is not built yet: nothing here waits for a build).
    """
    game = Game.objects.filter(pk=game_id).only("status", "rules").first()
    if game is None:
        raise NoOptions("no_game", gettext_noop("There is no game %(game)s."), {"game": game_id})
    if game.status != Game.Status.FINISHED:
        raise NoOptions("not_finished",
                        gettext_noop("A game’s choices can be tried once it is over."))
    if not table_ready(get_ruleset(game.rules)):
        raise NoOptions("not_ready", gettext_noop(
            "The strategy table is being built; try again in a minute."))
    rows = list(game.events.order_by("seq").values_list("seq", "kind", "payload"))
    events = [event_from_dict({**payload, "kind": kind}) for _, kind, payload in rows]
    try:
        return decision_options(events, seq, [s for s, *_ in rows])
    except NoDecision as exc:
        raise NoOptions("no_decision", exc.template, exc.params) from None
    except ValueError as exc:  # a corrupt history: not a sentence for the page's readers
        raise NoOptions("no_decision", str(exc)) from None
