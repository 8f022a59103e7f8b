"""The review of a finished game: computed from its stored events, kept in one row.

:func:`analyse_game` reads the event log, runs ``game.ai.review`` and stores the result in
``GameAnalysis`` (one row per game, replaced when recomputed), then records the game in its
players' results and ratings (``services.ratings``, once per game). It holds no lock while it
computes and writes in one short transaction, so it may run anywhere; the end of a game starts
it with :func:`analyse_in_background`, in a process of its own (a 6-player yahtzee game takes
~0.1 s, a triple game many seconds: docs/ai.md).

Both run in the server's worker process (``game.workers.pool``): reviews first, then the
options of one decision for a game's page (:func:`tried_options`, "Try it yourself"), a few at
a time, each dropped if its request gave up before its turn came. A flood of tries never
delays a review by more than the one try running.

Reviews are durable: a game that finished without one (its worker died, its server was killed
before the review was stored) is found by :func:`review_unreviewed`, which every server process
runs at start and then every ``REVIEW_SWEEP_SECONDS`` (:func:`start_sweeping`). A claim in the
shared cache (Redis when several processes serve the site) lets one process review a game.
"""

from __future__ import annotations

import logging
import threading
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import connections
from django.db.models import Q

from ..ai import review
from ..ai.review import DecisionOptions
from ..models import Game, GameAnalysis
from ..rules import event_from_dict
from ..selectors.review import NoOptions, tried_decision
from ..workers import pool
from . import periodic
from .daily_review import record_review as record_daily_review
from .errors import ServiceError, gettext_noop
from .limits import check_rate_limit
from .presence import THIS_SERVER, known_dead
from .ratings import record_game

log = logging.getLogger(__name__)


def analyse_game(game_id: int) -> GameAnalysis:
    """Compute and store the analysis of finished game ``game_id``.

    Raises :class:`ServiceError` ``no_game`` or ``not_finished``.
    """
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        raise ServiceError("no_game", gettext_noop("There is no game %(game)s."),
                           {"game": game_id})
    if game.status != Game.Status.FINISHED:
        raise ServiceError("not_finished", gettext_noop("Game %(game)s is not finished yet."),
                           {"game": game_id})
    rows = list(game.events.order_by("seq").values_list("seq", "kind", "payload", "by"))
    analysis = review.analyse(
        [event_from_dict({**payload, "kind": kind}) for _, kind, payload, _ in rows],
        by=[by for *_, by in rows], seqs=[seq for seq, *_ in rows])
    row, _ = GameAnalysis.objects.update_or_create(
        game=game, defaults={"version": review.VERSION, "data": analysis.to_dict()})
    record_game(game.pk)  # the players' results and ratings, once per game
    if game.daily_id:
        record_daily_review(game.pk, row.data)  # and par, once per day (the tables are here)
    return row


def _analyse_job(game_id: int) -> None:
    """:func:`analyse_game` in the worker process."""
    try:
        analyse_game(game_id)
    finally:
        connections.close_all()


def _claim_key(game_id: int) -> str:
    return f"review-claim:{game_id}"


def claim_review(game_id: int) -> bool:
    """Whether this process may review ``game_id`` now: no other holds a claim on it. A claim
    lapses as soon as its process is known dead (``presence.known_dead``: a crash right after
    a game's end delays its review by seconds, not by the claim's time), when its review
    failed, and in any case after ``REVIEW_CLAIM_SECONDS``."""
    key, timeout = _claim_key(game_id), settings.REVIEW_CLAIM_SECONDS
    if cache.add(key, THIS_SERVER, timeout=timeout):
        return True
    holder = cache.get(key)
    if not isinstance(holder, str) or holder == THIS_SERVER or not known_dead(holder):
        return False
    # Of the processes that find the holder dead at once, one takes the claim over.
    if not cache.add(f"{key}:after:{holder}", THIS_SERVER, timeout=timeout):
        return False
    log.info("Game %s: its review's claim by %s, known dead, passes here", game_id, holder)
    cache.set(key, THIS_SERVER, timeout=timeout)
    return True


def analyse_in_background(game_id: int) -> Future[None] | None:
    """Queue :func:`analyse_game` in the worker process (``game.workers.pool``), so
    no socket of this server waits for it. It raises nothing: it runs after a game's last
    command committed, and nothing may turn that command into an error. A review not made
    (a claim held elsewhere, a failure, logged here) is left to :func:`review_unreviewed`."""
    try:
        if not claim_review(game_id):
            return None
        future = pool.submit(_analyse_job, game_id, priority=pool.URGENT)
    except Exception:  # noqa: BLE001 - the cache or the worker away: the sweep retries
        log.exception("Could not queue the review of game %s", game_id)
        return None

    def report(done: Future[None]) -> None:
        error = done.exception()
        if error is not None:
            log.error("Could not analyse game %s: %s", game_id, error)
            try:
                cache.delete(_claim_key(game_id))  # the next sweep, here or elsewhere, retries
            except Exception:  # noqa: BLE001 - then the claim lapses by itself
                log.warning("Could not release the review claim of game %s", game_id)

    future.add_done_callback(report)
    return future


def unreviewed_games(limit: int = 50) -> list[int]:
    """Finished games (not ended early) without a stored review of the current format (an
    older one is reviewed again: the page shows only the current one), oldest first."""
    return list(Game.objects.filter(Q(analysis__isnull=True)
                                    | Q(analysis__version__lt=review.VERSION),
                                    status=Game.Status.FINISHED, unfinished=False)
                .order_by("id").values_list("id", flat=True)[:limit])


def review_unreviewed() -> list[int]:
    """Queue the review of every finished game without one that no other process claimed;
    returns their ids."""
    return [game_id for game_id in unreviewed_games()
            if analyse_in_background(game_id) is not None]


def start_sweeping(every: float) -> threading.Thread:
    """In a server process: :func:`review_unreviewed` now, then every ``every`` seconds, on a
    thread of its own (with its own database connection)."""
    return periodic.every(every, review_unreviewed, name="review-sweeper")


#: How long a "Try it yourself" request waits for the worker (a late triple turn takes
#: seconds; a review may come first).
TRY_WAIT = 30
#: Tries waiting for the worker at most; past it a try is refused as busy at once. Each is up
#: to ~0.1 s of the worker (late triple turns): a full queue is about a second of work.
TRY_QUEUE = 8
#: A finished game's options never change: kept this long (seconds) once valued.
TRY_KEPT = 24 * 3600


def _try_job(game_id: int, seq: int) -> tuple[str, Any]:
    """:func:`tried_decision` in the worker process: ("ok", options) or ("error", (code,
    template, params)); an exception with arguments of its own does not cross processes."""
    try:
        return "ok", tried_decision(game_id, seq)
    except NoOptions as exc:
        return "error", (exc.code, exc.template, exc.params)
    finally:
        connections.close_all()


def tried_options(game_id: int, seq: int, *, who: str, address: str) -> DecisionOptions:
    """The options of the decision at ``seq`` of finished game ``game_id``, valued in the
    worker after any review waiting there, and kept in the cache.

    Raises :class:`ServiceError` ``rate_limited`` (``who``, a player, and ``address`` counted)
    or ``busy`` (too many tries waiting, or none answered in ``TRY_WAIT``: the request's own
    is dropped if it had not started), and :class:`NoOptions` (``selectors.review``).
    """
    check_rate_limit("try_decision", session=who, address=address)
    key = f"try:{game_id}:{seq}"
    found = cache.get(key)
    if found is not None:
        return found
    busy = ServiceError("busy", gettext_noop("The analysis is busy; try again in a moment."))
    try:
        future = pool.submit(_try_job, game_id, seq, priority=pool.WHEN_IDLE, limit=TRY_QUEUE)
    except pool.Busy:
        raise busy from None
    try:
        outcome, value = future.result(timeout=TRY_WAIT)
    except FutureTimeout:
        future.cancel()
        raise busy from None
    except BrokenProcessPool:  # a new worker takes the next one
        raise busy from None
    if outcome == "error":
        raise NoOptions(*value)
    cache.set(key, value, timeout=TRY_KEPT)
    return value
