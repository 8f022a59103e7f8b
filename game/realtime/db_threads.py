"""How async code (the consumer, the turn driver, the heartbeat) calls the synchronous services
and selectors."""

from __future__ import annotations

import functools
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import cache
from typing import Any

from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import connections


def in_db_thread(func: Callable[..., Any]) -> Callable[..., Any]:
    """``func`` made awaitable, run on a pool of threads, each with its own connection.

    Channels' default (thread_sensitive) runs every ORM call of a process on one thread: one
    Daphne then fell behind at 10-20 moves/s while its CPU sat mostly idle
    (docs/benchmarks.md). Commands stay safe in parallel: each locks its game row.
    """
    return sync_to_async(_keeping_connection(func), thread_sensitive=False, executor=_pool())


def in_insight_thread(func: Callable[..., Any]) -> Callable[..., Any]:
    """``func`` made awaitable on the one thread of the live insight (standings, the coach):
    their numbers are CPU work that, spread over the database threads, competed with every
    command at each turn's end (docs/benchmarks.md). One at a time, off the commands' pool."""
    return sync_to_async(_keeping_connection(func), thread_sensitive=False,
                         executor=_insight_pool())


def _keeping_connection(func: Callable[..., Any]) -> Callable[..., Any]:
    """``func``, then its thread's broken connections dropped. Channels'
    ``database_sync_to_async`` closes the thread's connections before and after every call,
    which with PostgreSQL's pool is a return, a checkout and a health check per command. The
    pool threads are few and long-lived: each keeps its connection, and drops it only when it
    broke (docs/benchmarks.md)."""
    @functools.wraps(func)
    def keeping(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        finally:
            _drop_broken_connections()
    return keeping


def _drop_broken_connections() -> None:
    for conn in connections.all(initialized_only=True):
        conn.close_at = None  # no age limit: the thread, not a request, owns it
        conn.close_if_unusable_or_obsolete()


@cache
def _pool() -> ThreadPoolExecutor:
    return ThreadPoolExecutor(max_workers=settings.DB_THREADS, thread_name_prefix="db")


@cache
def _insight_pool() -> ThreadPoolExecutor:
    return ThreadPoolExecutor(max_workers=1, thread_name_prefix="insight")
