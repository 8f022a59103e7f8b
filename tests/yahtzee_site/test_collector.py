"""The server's garbage-collection policy (yahtzee_site/collector.py), on the real collector."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator

import pytest

from yahtzee_site.collector import FreezeSurvivors


class Node:
    """Something that dies in a reference cycle, as a closed socket's objects do."""

    def __init__(self) -> None:
        self.me = self


@pytest.fixture
def clock() -> list[float]:
    return [0.0]


@pytest.fixture
def policy(clock: list[float]) -> Iterator[FreezeSurvivors]:
    # The test process runs without the servers' policy (the root conftest): this one is alone.
    found = FreezeSurvivors(600.0, clock=lambda: clock[0])
    found.install()
    try:
        yield found
    finally:
        found.uninstall()


def test_survivors_of_a_full_collection_leave_the_collectors_sight(policy: FreezeSurvivors):
    node = Node()
    frozen = gc.get_freeze_count()
    gc.collect()
    assert gc.get_freeze_count() > frozen
    assert not any(o is node for o in gc.get_objects())  # the next full scan skips it
    assert gc.get_objects(generation=2) == []


def test_what_died_frozen_is_reclaimed_after_the_thaw(policy: FreezeSurvivors,
                                                      clock: list[float]):
    node = Node()
    gone = weakref.ref(node)
    gc.collect()  # it survives: frozen
    del node
    gc.collect()
    assert gone() is not None  # garbage, but out of sight until the thaw
    clock[0] = 599.0
    gc.collect()
    assert gone() is not None
    clock[0] = 600.0
    gc.collect()  # the thaw: after this collection, everything is in sight again
    assert gc.get_freeze_count() == 0
    gc.collect()
    assert gone() is None
    assert gc.get_freeze_count() > 0  # and the survivors are frozen again


def test_young_collections_change_nothing(policy: FreezeSurvivors):
    gc.collect()  # something frozen, to see that nothing thaws
    young = [Node() for _ in range(100)]  # survivors a freeze would take in
    frozen = gc.get_freeze_count()
    for generation in (0, 1):
        gc.collect(generation)
    # Neither frozen more nor thawed. (A frozen object whose last reference goes, in another
    # thread of the test process say, leaves the count: it may fall a little, never rise.)
    assert frozen - 50 < gc.get_freeze_count() <= frozen
    del young


def test_a_server_installs_the_policy_and_zero_leaves_the_collector_alone(settings):
    """A Daphne imports the ASGI module with the default; this test process runs with 0 (the
    root conftest), so that frozen objects hide nothing from ``gc.get_referrers``."""
    import importlib

    import yahtzee_site.asgi

    def installed() -> list[FreezeSurvivors]:
        return [cb for cb in gc.callbacks if isinstance(cb, FreezeSurvivors)]

    assert installed() == []
    settings.GC_THAW_SECONDS = 600
    importlib.reload(yahtzee_site.asgi)
    try:
        assert [cb.thaw_seconds for cb in installed()] == [600]
    finally:
        for cb in installed():
            cb.uninstall()
    settings.GC_THAW_SECONDS = 0
    importlib.reload(yahtzee_site.asgi)
    assert installed() == []
