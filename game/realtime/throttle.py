"""How fast one socket (or one person, over all of their sockets) may send frames."""

from __future__ import annotations

import time
import weakref
from collections.abc import Callable
from typing import Literal


class TokenBucket:
    """``allow()`` is False once more than ``burst`` frames came faster than ``rate``/s."""

    def __init__(self, rate: float, burst: float,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.rate, self.burst, self.clock = rate, burst, clock
        self.tokens, self.stamp = burst, clock()

    def allow(self) -> bool:
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


class Throttle:
    """A :class:`TokenBucket` that speaks once per flood: ``admit()`` is ``"yes"`` under the
    rate, ``"refuse"`` for the first frame over it (answer it with ``rate_limited``), then
    ``"drop"`` (answer nothing: a flood must not buy replies) until the rate allows again."""

    def __init__(self, rate: float, burst: float,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.bucket = TokenBucket(rate, burst, clock)
        self.refusing = False

    def admit(self) -> Literal["yes", "refuse", "drop"]:
        if self.bucket.allow():
            self.refusing = False
            return "yes"
        if self.refusing:
            return "drop"
        self.refusing = True
        return "refuse"


#: Per person (guest key), the budget of room changes all of their sockets in this process
#: share; forgotten once none of those sockets holds it.
_people: weakref.WeakValueDictionary[str, Throttle] = weakref.WeakValueDictionary()


def person_throttle(guest: str, rate: float, burst: float) -> Throttle:
    """The :class:`Throttle` every socket of ``guest`` in this process shares (a socket of
    its own for a visitor without a guest key): eight tabs get one budget, not eight."""
    if not guest:
        return Throttle(rate, burst)
    throttle = _people.get(guest)
    if throttle is None:
        throttle = _people[guest] = Throttle(rate, burst)
    return throttle
