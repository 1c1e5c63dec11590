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
