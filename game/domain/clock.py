"""The site's one clock: what time it is, and which UTC day (the daily challenge's day, a daily
game's last move). Everything that asks for the day asks here."""

from __future__ import annotations

import datetime

from django.utils import timezone


def utc_today() -> datetime.date:
    return timezone.now().astimezone(datetime.UTC).date()
