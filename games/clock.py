"""The server's clock: the one place that says what time and what day it is (UTC).

Tests travel in time by patching `now` (see tests/games/conftest.py's `travel` fixture).
"""

from __future__ import annotations

import datetime as dt

from django.utils import timezone


def now() -> dt.datetime:
    """The current instant, aware, in UTC."""
    return timezone.now().astimezone(dt.UTC)


def today() -> dt.date:
    """The UTC date that decides which daily is "today"."""
    return now().date()
