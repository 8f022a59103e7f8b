"""How async code (the consumer, the turn driver, the heartbeat) calls the synchronous services
and selectors."""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import cache
from typing import Any

from asgiref.sync import SyncToAsync
from django.conf import settings
from django.db import connections

from .. import services
from ..rules import Action


def in_db_thread(func: Callable[..., Any]) -> Callable[..., Any]:
    """``func`` made awaitable, run on a pool of threads, each with its own connection.

    Channels' default (thread_sensitive) runs every ORM call of a process on one thread: one
    Daphne then fell behind at 10-20 moves/s while its CPU sat mostly idle
    (docs/benchmarks.md). Commands stay safe in parallel: each locks its game row.
    """
    return _KeepingConnection(func, thread_sensitive=False, executor=_pool())


def in_insight_thread(func: Callable[..., Any]) -> Callable[..., Any]:
    """``func`` made awaitable on the one thread of the live insight (standings, the coach):
    their numbers are CPU work that, spread over the database threads, competed with every
    command at each turn's end (docs/benchmarks.md). One at a time, off the commands' pool."""
    return _KeepingConnection(func, thread_sensitive=False, executor=_insight_pool())


class _KeepingConnection(SyncToAsync):
    """Channels' ``database_sync_to_async`` closes the thread's connections before and after
    every call, which with PostgreSQL's pool is a return, a checkout and a health check per
    command. The pool threads are few and long-lived: each keeps its connection, and drops it
    only when it broke (docs/benchmarks.md: a command path as lean as the relay's)."""

    def thread_handler(self, loop: Any, *args: Any, **kwargs: Any) -> Any:
        try:
            return super().thread_handler(loop, *args, **kwargs)
        finally:
            _drop_broken_connections()


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


async def aplay(room_code: str, action: Action, **command: Any) -> services.PlayResult:
    """``services.play`` for the event loop: the transaction and the JSON encoding on a
    database thread, the broadcast on the loop, so no thread waits for Redis."""
    def apply_and_encode() -> tuple[services.PlayResult, list[str]]:
        result = services.apply_command(room_code, action, **command)
        return result, result.texts

    result, texts = await in_db_thread(apply_and_encode)()
    await services.asend_events(room_code, texts, result.turn)
    from .insight import after_events  # here: insight uses in_db_thread from this module

    after_events(room_code, result)
    return result
