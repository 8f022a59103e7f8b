"""What every socket test starts from."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _no_insight_of_an_earlier_test():
    """The live insight's state belongs to the process, which runs many tests: each starts
    with the insight thread idle (work an earlier test left on it would hold up this test's
    standings) and with no game's publication still marked as running (game ids come back
    after a test's transaction is rolled back, and a game marked as publishing gets its
    turn ends folded into a publication that no longer runs)."""
    from game.realtime import insight_publisher
    from game.realtime.db_threads import _insight_pool

    _insight_pool().submit(lambda: None).result(timeout=60)
    insight_publisher._latest.clear()
