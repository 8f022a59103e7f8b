"""A worker process beside each server process, for CPU work that must not run on its event
loop: numpy that holds the GIL for long stretches, pure Python that takes seconds. It knows
nothing of the site: callers hand it a module-level function (named by import path, as
``multiprocessing`` pickles functions) and its arguments.

One worker takes the jobs one after another, in priority order (``URGENT`` before
``WHEN_IDLE``, each kind first come, first served). A job still queued whose caller gave up
(``Future.cancel()``) is dropped without running; a kind of job may be bounded (``limit``):
past it, :class:`Busy` at once rather than a queue that grows without end. The worker sets
Django up on the server's database (a test database too) before its first job, and leaves
when its server is gone.
"""

from __future__ import annotations

import functools
import heapq
import itertools
import logging
import multiprocessing
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import CancelledError, Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import Any

log = logging.getLogger(__name__)

#: Priorities: lower runs first.
URGENT = 0
WHEN_IDLE = 1


class Busy(RuntimeError):
    """Too many jobs of this kind are queued already."""


@dataclass(order=True)
class _Job:
    priority: int
    order: int
    func: Callable[..., Any] = field(compare=False)
    args: tuple[Any, ...] = field(compare=False)
    future: Future[Any] = field(compare=False)


_lock = threading.Condition()
_queue: list[_Job] = []
_order = itertools.count()
_running: _Job | None = None
_pool: ProcessPoolExecutor | None = None
_feeder: threading.Thread | None = None


def submit(func: Callable[..., Any], *args: Any, priority: int = URGENT,
           limit: int | None = None) -> Future[Any]:
    """``func(*args)`` queued for the worker (started on first use). With ``limit``: raises
    :class:`Busy` when that many jobs of ``priority`` wait already."""
    global _feeder
    future: Future[Any] = Future()
    with _lock:
        if limit is not None and sum(
                1 for job in _queue if job.priority == priority
                and not job.future.cancelled()) >= limit:
            raise Busy(f"{limit} jobs of priority {priority} are waiting")
        heapq.heappush(_queue, _Job(priority, next(_order), func, args, future))
        if _feeder is None:
            _feeder = threading.Thread(target=_feed, name="worker-feeder", daemon=True)
            _feeder.start()
        _lock.notify_all()
    return future


def waiting(priority: int) -> int:
    """How many jobs of ``priority`` wait (not counting the one running)."""
    with _lock:
        return sum(1 for job in _queue if job.priority == priority and not job.future.cancelled())


def _feed() -> None:
    """Hands the worker one job at a time: a job waits here, where a later urgent one can pass
    it and its caller can still cancel it, not in the executor's own first-come queue."""
    global _running
    while True:
        with _lock:
            while _running is not None or not _queue:
                _lock.wait()
            job = heapq.heappop(_queue)
            if not job.future.set_running_or_notify_cancel():
                continue  # its caller gave up while it waited
            _running = job
        try:
            inner = _executor().submit(job.func, *job.args)
        except BrokenProcessPool as exc:  # the pool broke between two jobs
            _replace_pool()
            _finish(job, None, exc)
            continue
        inner.add_done_callback(functools.partial(_done, job))


def _done(job: _Job, inner: Future[Any]) -> None:
    try:
        error = inner.exception()
    except CancelledError:  # its pool was shut down under it
        error = BrokenProcessPool("the worker's pool was replaced")
    if isinstance(error, BrokenProcessPool):
        # A worker that died (killed by the kernel under memory pressure, say) leaves its pool
        # broken for good: the next job gets a new pool with a new worker.
        log.warning("The worker process died; starting a new one.")
        _replace_pool()
    _finish(job, None if error else inner.result(), error)


def _finish(job: _Job, result: Any, error: BaseException | None) -> None:
    global _running
    if error is None:
        job.future.set_result(result)
    else:
        job.future.set_exception(error)
    with _lock:
        _running = None
        _lock.notify_all()


def _executor() -> ProcessPoolExecutor:
    global _pool
    with _lock:
        if _pool is None:
            from django.db import connection

            _pool = ProcessPoolExecutor(
                max_workers=1, mp_context=multiprocessing.get_context("spawn"),
                initializer=_start,
                initargs=(os.environ.get("DJANGO_SETTINGS_MODULE", "yahtzee_site.settings"),
                          connection.settings_dict["NAME"], os.getpid()))
        return _pool


def _replace_pool() -> None:
    global _pool
    with _lock:
        if _pool is not None:
            _pool.shutdown(wait=False, cancel_futures=True)
        _pool = None


def worker_pids() -> list[int]:
    """The worker's process id, once it started (for tests that kill it)."""
    with _lock:
        return list(_pool._processes) if _pool is not None else []


def _start(settings_module: str, database_name: Any, server: int) -> None:
    """In the worker: Django set up on the same database as the server."""
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
    leaves when its parent is gone. Work cut short is the callers' to make again."""
    while os.getppid() == server:
        time.sleep(1)
    os._exit(0)
