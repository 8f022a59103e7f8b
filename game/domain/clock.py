"""The site's one clock for what runs over days or minutes: what time it is, and which UTC day
(the daily challenge's day, a daily game's last move). Everything that asks for the day, every
deadline of an over-days game, and a live room's away grace (a seat's ``last_seen`` and the
grace's end, ``selectors.grace_left``) ask here. A live turn's time is counted from its stored
event, on the real time.

``CLOCK_FILE`` (tests only) names a file holding seconds to add to the real time: a test moves
every server process's clock forward by writing it, and no test sleeps through a day or a grace.
"""

from __future__ import annotations

import datetime

from django.conf import settings
from django.utils import timezone


def now() -> datetime.datetime:
    return timezone.now() + datetime.timedelta(seconds=_offset())


def utc_today() -> datetime.date:
    return now().astimezone(datetime.UTC).date()


def _offset() -> float:
    path = getattr(settings, "CLOCK_FILE", "")
    if not path:
        return 0.0
    try:
        with open(path) as moved:
            return float(moved.read().strip() or 0)
    except FileNotFoundError:
        return 0.0
