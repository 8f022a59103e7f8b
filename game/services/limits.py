"""How much one visitor may do: rooms created, seats taken, names set, decisions tried and
devices subscribed to notices, per session and per address.

Fixed windows counted in Django's cache (Redis when ``REDIS_URL`` is set, so every server
process counts together; in-process memory otherwise). A refusal changes nothing and says when
to try again. While Redis is away each process counts alone, in its own memory: the limits
hold per process rather than not at all, and the pages keep working.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache
from django.core.cache.backends.locmem import LocMemCache

from .errors import ServiceError, gettext_noop

log = logging.getLogger(__name__)

#: Where this process counts while the shared cache is away.
_alone = LocMemCache("limits-while-the-cache-is-away", {})


@dataclass(frozen=True)
class Limit:
    """At most ``count`` actions per ``seconds`` for one session and for one address."""

    action: str
    count: int
    seconds: int
    #: An address may be shared (a school, a household behind one router): it gets more.
    per_address_factor: int = 5


def _limits() -> dict[str, Limit]:
    return {
        "create_room": Limit("create_room", settings.ROOMS_PER_HOUR, 3600),
        "take_seat": Limit("take_seat", settings.JOINS_PER_MINUTE, 60),
        "set_name": Limit("set_name", settings.NAMES_PER_HOUR, 3600),
        "try_decision": Limit("try_decision", settings.TRIES_PER_MINUTE, 60),
        "push": Limit("push", settings.PUSH_CHANGES_PER_HOUR, 3600),
    }


def check_rate_limit(action: str, *, session: str, address: str) -> None:
    """Count one ``action`` of this visitor, or raise ``rate_limited`` if it is one too many."""
    limit = _limits()[action]
    window = int(time.time() // limit.seconds)
    for kind, who, allowed in (("session", session, limit.count),
                               ("address", address, limit.count * limit.per_address_factor)):
        if not who:
            continue
        if _count(f"limit:{action}:{kind}:{who}:{window}", limit.seconds + 5) > allowed:
            wait = int(limit.seconds - time.time() % limit.seconds) + 1
            raise _too_many(wait)


def _count(key: str, timeout: int) -> int:
    """One more of ``key`` in the shared cache (in this process's memory if it is away)."""
    try:
        cache.add(key, 0, timeout=timeout)
        return cache.incr(key)
    except Exception:  # noqa: BLE001 - Redis away: count here rather than fail the page
        log.warning("rate limits: the shared cache is away; counting in this process",
                    exc_info=True)
        _alone.add(key, 0, timeout=timeout)
        return _alone.incr(key)


def _too_many(seconds: int) -> ServiceError:
    if seconds < 120:
        return ServiceError("rate_limited",
                            gettext_noop("Too many at once; try again in %(seconds)d s."),
                            {"seconds": seconds})
    return ServiceError("rate_limited",
                        gettext_noop("Too many at once; try again in %(minutes)d minutes."),
                        {"minutes": round(seconds / 60)})
