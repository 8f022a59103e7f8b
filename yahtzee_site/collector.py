"""The garbage collector of a long-lived server process.

A full collection (the oldest generation) scans every object the collector tracks. A Daphne
with 1,400 sockets tracks ~250,000, and each full collection stopped it for 140-230 ms, once
or twice a minute under load: one such pause decided the 200-room load's p99
(docs/benchmarks.md). So what survives a full collection is frozen, moved
out of the collector's sight, and the next full collection scans only what was made since.

Frozen objects are never collected. Those that later die in a reference cycle (a closed
socket's consumer, its queues) wait until the frozen set is handed back to the collector,
once every ``thaw_seconds``: one long pause every ten minutes rather than one every few tens
of seconds under load, and memory stays bounded by what closes in that time.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable
from typing import Any


class FreezeSurvivors:
    """A ``gc.callbacks`` entry: after each full collection, freeze what survived it, or,
    once ``thaw_seconds`` have passed since the last thaw, unfreeze everything so the next
    full collection reclaims what died among it."""

    def __init__(self, thaw_seconds: float,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.thaw_seconds = thaw_seconds
        self.clock = clock
        self.thawed_at = clock()

    def __call__(self, phase: str, info: dict[str, Any]) -> None:
        if phase != "stop" or info["generation"] != 2:
            return
        now = self.clock()
        if now - self.thawed_at >= self.thaw_seconds:
            gc.unfreeze()
            self.thawed_at = now
        else:
            gc.freeze()

    def install(self) -> None:
        gc.freeze()  # what startup made (Django, Channels, Twisted, the rulesets) lives on
        gc.callbacks.append(self)

    def uninstall(self) -> None:
        gc.callbacks.remove(self)
        gc.unfreeze()
