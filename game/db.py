"""How async code (the consumer, the bot driver) calls the synchronous services."""

from collections.abc import Callable
from typing import Any

from channels.db import database_sync_to_async


def in_db_thread(func: Callable[..., Any]) -> Callable[..., Any]:
    """``func`` made awaitable, run on a pool of threads, each with its own connection.

    Channels' default (thread_sensitive) runs every ORM call of a process on one thread: one
    Daphne then fell behind at 10-20 moves/s while its CPU sat mostly idle
    (docs/benchmarks.md). Commands stay safe in parallel: each locks its game row.
    """
    return database_sync_to_async(func, thread_sensitive=False)
