"""The default cache: Redis, shared by every server process, and this process's own memory
while Redis is away.

What the site keeps in the cache is counters and copies (rate limits, allauth's sign-in and
sign-up limits, the scripts' catalog, "Try it yourself" answers, the daily's scores, review
claims), none of it the truth of anything. So a Redis that refuses or stops answering makes no
page fail: each operation goes to this process's memory instead, as ``game.services.limits``
counts (limits then hold per process, copies are made again). After a failure Redis is left
alone for ``RETRY_SECONDS`` (a Redis that stopped answering would cost every request its
socket timeout), then tried again; the first failure and the return are logged.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any, TypeVar

from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.locmem import LocMemCache
from django.core.cache.backends.redis import RedisCache
from redis.exceptions import RedisError

log = logging.getLogger(__name__)

T = TypeVar("T")

#: Seconds Redis is left alone after an operation on it failed.
RETRY_SECONDS = 1.0


class RedisOrLocalCache(RedisCache):
    """Django's Redis cache, each operation done in this process's memory while Redis is away
    (see the module's docstring)."""

    def __init__(self, server: str, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self.local = LocMemCache(f"while-redis-is-away:{server}", params)
        self._away_until = 0.0
        self._away = False
        self._lock = threading.Lock()

    @property
    def away(self) -> bool:
        """Whether this process works in its own memory now (Redis failed and is not back)."""
        return self._away

    def _either(self, shared: Callable[[], T], alone: Callable[[], T]) -> T:
        if self._away and time.monotonic() < self._away_until:
            return alone()
        try:
            result = shared()
        except (RedisError, OSError):  # Redis refused or did not answer: this process's memory
            with self._lock:
                if not self._away:
                    log.warning("The shared cache (Redis) is away: rate limits count in this "
                                "process, copies are kept here", exc_info=True)
                self._away, self._away_until = True, time.monotonic() + RETRY_SECONDS
            return alone()
        if self._away:
            with self._lock:
                if self._away:
                    log.warning("The shared cache (Redis) is back")
                self._away = False
        return result

    # Every operation the site or its libraries use, each with its fallback.
    def add(self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT,
            version: Any = None) -> bool:
        kw = {"version": version, "timeout": timeout}
        return self._either(lambda: super(RedisOrLocalCache, self).add(key, value, **kw),
                            lambda: self.local.add(key, value, **kw))

    def get(self, key: Any, default: Any = None, version: Any = None) -> Any:
        return self._either(lambda: super(RedisOrLocalCache, self).get(key, default, version),
                            lambda: self.local.get(key, default, version))

    def set(self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT,
            version: Any = None) -> None:
        kw = {"version": version, "timeout": timeout}
        self._either(lambda: super(RedisOrLocalCache, self).set(key, value, **kw),
                     lambda: self.local.set(key, value, **kw))

    def touch(self, key: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None) -> bool:
        kw = {"version": version, "timeout": timeout}
        return self._either(lambda: super(RedisOrLocalCache, self).touch(key, **kw),
                            lambda: self.local.touch(key, **kw))

    def delete(self, key: Any, version: Any = None) -> bool:
        return self._either(lambda: super(RedisOrLocalCache, self).delete(key, version),
                            lambda: self.local.delete(key, version))

    def get_many(self, keys: Any, version: Any = None) -> dict[Any, Any]:
        return self._either(lambda: super(RedisOrLocalCache, self).get_many(keys, version),
                            lambda: self.local.get_many(keys, version))

    def has_key(self, key: Any, version: Any = None) -> bool:
        return self._either(lambda: super(RedisOrLocalCache, self).has_key(key, version),
                            lambda: self.local.has_key(key, version))

    def incr(self, key: Any, delta: int = 1, version: Any = None) -> int:
        return self._either(lambda: super(RedisOrLocalCache, self).incr(key, delta, version),
                            lambda: self.local.incr(key, delta, version))

    def set_many(self, data: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None) -> list[Any]:
        kw = {"version": version, "timeout": timeout}
        return self._either(lambda: super(RedisOrLocalCache, self).set_many(data, **kw),
                            lambda: self.local.set_many(data, **kw))

    def delete_many(self, keys: Any, version: Any = None) -> None:
        self._either(lambda: super(RedisOrLocalCache, self).delete_many(keys, version),
                     lambda: self.local.delete_many(keys, version))

    def clear(self) -> None:
        self.local.clear()
        self._either(lambda: super(RedisOrLocalCache, self).clear(), lambda: None)
