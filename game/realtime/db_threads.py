"""How async code (the consumer, the turn driver, the heartbeat) calls the synchronous services
and selectors."""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import cache
from typing import Any

from channels.db import database_sync_to_async
from django.conf import settings

from .. import services
from ..rules import Action


def in_db_thread(func: Callable[..., Any]) -> Callable[..., Any]:
    """``func`` made awaitable, run on a pool of threads, each with its own connection.

    Channels' default (thread_sensitive) runs every ORM call of a process on one thread: one
    Daphne then fell behind at 10-20 moves/s while its CPU sat mostly idle
    (docs/benchmarks.md). Commands stay safe in parallel: each locks its game row.
    """
    return database_sync_to_async(func, thread_sensitive=False, executor=_pool())


@cache
def _pool() -> ThreadPoolExecutor:
    return ThreadPoolExecutor(max_workers=settings.DB_THREADS, thread_name_prefix="db")


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
