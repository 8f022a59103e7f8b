"""The review of a finished game: computed from its stored events, kept in one row.

:func:`analyse_game` reads the event log, runs ``game.ai.review`` and stores the result in
``GameAnalysis`` (one row per game, replaced when recomputed), then records the game in its
players' results and ratings (``services.ratings``, once per game). It holds no lock while it
computes and writes in one short transaction, so it may run anywhere; the end of a game starts
it with :func:`analyse_in_background`, in a process of its own (a 6-player yahtzee game takes
~0.1 s, a triple game many seconds: docs/ai.md).
"""

from __future__ import annotations

import logging
from concurrent.futures import Future

from .. import review_worker
from ..ai import review
from ..models import Game, GameAnalysis
from ..rules import event_from_dict
from .errors import ServiceError
from .ratings import record_game

log = logging.getLogger(__name__)


def analyse_game(game_id: int) -> GameAnalysis:
    """Compute and store the analysis of finished game ``game_id``.

    Raises :class:`ServiceError` ``no_game`` or ``not_finished``.
    """
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        raise ServiceError("no_game", f"There is no game {game_id}.")
    if game.status != Game.Status.FINISHED:
        raise ServiceError("not_finished", f"Game {game_id} is not finished yet.")
    rows = list(game.events.order_by("seq").values_list("seq", "kind", "payload", "by"))
    analysis = review.analyse(
        [event_from_dict({**payload, "kind": kind}) for _, kind, payload, _ in rows],
        by=[by for *_, by in rows], seqs=[seq for seq, *_ in rows])
    row, _ = GameAnalysis.objects.update_or_create(
        game=game, defaults={"version": review.VERSION, "data": analysis.to_dict()})
    record_game(game.pk)  # the players' results and ratings, once per game
    return row


def analyse_in_background(game_id: int) -> Future[None]:
    """Queue :func:`analyse_game` in the review worker process (``game.review_worker``), so
    no socket of this server waits for it; a failure is logged here."""

    def report(done: Future[None]) -> None:
        error = done.exception()
        if error is not None:
            log.error("Could not analyse game %s: %s", game_id, error)

    future = review_worker.submit(game_id)
    future.add_done_callback(report)
    return future
