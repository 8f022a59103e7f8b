"""The suite's scheduling under ``make test``'s workers (pytest-xdist, ``--dist loadgroup``).

xdist marks a grouped test by appending ``@group`` to its node id on the worker, so that the
controller sends the whole group to one worker. Since pytest 9.2 a node's id is a structured
``NodeId`` in ``item._id`` and xdist's ``item._nodeid`` is read by nobody: the groups are lost
silently and every module's shared fixtures are made on both workers (pytest-xdist#1386). The
hook below carries the mark into the id that pytest reports.
"""

from __future__ import annotations

import pytest
from _pytest.nodeid import NodeId


@pytest.hookimpl(trylast=True)  # after xdist's worker has named the groups
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        grouped = getattr(item, "_nodeid", None)
        if isinstance(grouped, str) and grouped != item.nodeid:
            item._id = NodeId.parse(grouped)

