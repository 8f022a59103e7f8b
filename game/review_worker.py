"""The process that computes game reviews, apart from the server's event loop.

A review is CPU work in numpy that holds the GIL for long stretches: a triple review in a thread
of the server held its event loop up to 0.9 s (docs/ai.md). One worker process per server
process takes them one after another; it loads the strategy tables once and keeps them.
This module imports no models at import time: the worker sets Django up first.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import threading
import time
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

log = logging.getLogger(__name__)

_pool: ProcessPoolExecutor | None = None
#: Database threads (a game's end) and the sweeper (services/review.py) submit at once.
_pool_lock = threading.Lock()


def _start(settings_module: str, database_name: Any, server: int) -> None:
    """In the worker: Django set up on the same database as the server (a test database too)."""
    import django

    threading.Thread(target=_exit_with, args=(server,), name="exit-with-server",
                     daemon=True).start()

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", settings_module)
    django.setup()
    from django.conf import settings

    settings.DATABASES["default"]["NAME"] = database_name


def _exit_with(server: int) -> None:
    """A server killed (or stopped by a signal Python does not catch) never shuts its pool
    down, and the worker, which holds its own end of the task queue, would wait forever: it
    leaves when its parent is gone. A review cut short is made again by the next server that
    looks for finished games without one (``services.review.review_unreviewed``)."""
    while os.getppid() == server:
        time.sleep(1)
    os._exit(0)


def _analyse(game_id: int) -> None:
    from django.db import connections

    from game.services.review import analyse_game

    try:
        analyse_game(game_id)
    finally:
        connections.close_all()


def _new_pool() -> ProcessPoolExecutor:
    from django.db import connection

    return ProcessPoolExecutor(
        max_workers=1, mp_context=multiprocessing.get_context("spawn"),
        initializer=_start,
        initargs=(os.environ.get("DJANGO_SETTINGS_MODULE", "yahtzee_site.settings"),
                  connection.settings_dict["NAME"], os.getpid()))


def _try(game_id: int, seq: int) -> dict[str, Any]:
    """One decision's options as the game's page shows them, or {"error", "message"}."""
    from django.db import connections

    from game.presenters.review import tried_view
    from game.selectors.decisions import NoOptions, tried_decision

    try:
        return tried_view(tried_decision(game_id, seq))
    except NoOptions as exc:
        return {"error": exc.code, "message": exc.message, "template": exc.template,
                "params": exc.params}
    finally:
        connections.close_all()


def submit(game_id: int) -> Future[None]:
    """Queue the review of ``game_id`` in this process's review worker (started on first use)."""
    return _submit(_analyse, game_id)


def submit_try(game_id: int, seq: int) -> Future[dict[str, Any]]:
    """Queue the valuing of one decision's options (``selectors.decisions``): the same tables
    and the same reason as a review — a late triple turn is seconds of pure Python."""
    return _submit(_try, game_id, seq)


def _submit(func: Any, *args: Any) -> Future[Any]:
    """``func(*args)`` queued in the worker. A worker that died (killed by the kernel under
    memory pressure, say) leaves its pool broken for good: the pool is replaced by a new one,
    with a new worker."""
    global _pool
    with _pool_lock:
        if _pool is None:
            _pool = _new_pool()
        try:
            return _pool.submit(func, *args)
        except BrokenProcessPool:
            log.warning("The review worker died; starting a new one.")
            _pool.shutdown(wait=False, cancel_futures=True)
            _pool = _new_pool()
            return _pool.submit(func, *args)
