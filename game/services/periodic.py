"""Work a server process does every so often on a thread of its own (the review sweep, the
over-days scan): each pass with a fresh database connection, a failed pass logged and the
next one tried as usual (the database away for a while must not end the loop)."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

from django.db import close_old_connections, connection

log = logging.getLogger(__name__)


def every(seconds: float, work: Callable[[], object], *, name: str) -> threading.Thread:
    """``work()`` now, then every ``seconds``, on a daemon thread called ``name``."""

    def forever() -> None:
        while True:
            try:
                close_old_connections()
                work()
            except Exception:  # noqa: BLE001 - the database away: the next pass retries
                log.warning("%s: a pass failed", name, exc_info=True)
            finally:
                connection.close()
            time.sleep(seconds)

    thread = threading.Thread(target=forever, name=name, daemon=True)
    thread.start()
    return thread
