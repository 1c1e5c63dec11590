"""The server's clock: the one place that says what time and what day it is (UTC).

Tests travel in time by patching `now` (see tests/games/conftest.py's `travel` fixture). A
server process may run ahead of (or behind) the real time by `CLOCK_OFFSET_SECONDS` (a setting
for benchmarks only, refused unless every allowed host is a loopback one): the rollover
benchmark moves its servers to a minute before midnight this way, at no cost per call, instead
of through an LD_PRELOAD clock library, which slowed every process down by about four times.
"""

from __future__ import annotations

import datetime as dt

from django.conf import settings
from django.utils import timezone

_offset: dt.timedelta | None = None


def _offset_of_this_process() -> dt.timedelta:
    global _offset
    if _offset is None:
        _offset = dt.timedelta(seconds=float(getattr(settings, "CLOCK_OFFSET_SECONDS", 0) or 0))
    return _offset


def now() -> dt.datetime:
    """The current instant, aware, in UTC."""
    return timezone.now().astimezone(dt.UTC) + _offset_of_this_process()


def today() -> dt.date:
    """The UTC date that decides which daily is "today"."""
    return now().date()


def date_from_text(text: str) -> dt.date | None:
    """The day a `YYYY-MM-DD` text names (exactly that form: ten characters, digits and two
    dashes), or None: how dates in URLs, forms and commands are read everywhere.

    >>> date_from_text("2026-12-01"), date_from_text("2026-2-1"), date_from_text("2026-02-30")
    (datetime.date(2026, 12, 1), None, None)
    """
    if len(text) != 10 or text[4] != "-" or text[7] != "-":
        return None
    if not (text[:4] + text[5:7] + text[8:]).isdigit() or not text.isascii():
        return None
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        return None
