"""Days that keep coming: today's and tomorrow's dailies are there without a separate process.

In production the hourly beat task keeps a week supplied (games/tasks.py). The embedded
default (`make run`: no beat, no worker) has only the web server, so the server looks after
itself: at most once a minute per process, the first request checks (one small query) that each
game has a daily today and tomorrow. Tomorrow missing: it is prepared in a background thread
while requests go on. Today missing (the server slept through a day): that request prepares it
first, under a lock, so the others find it ready. Both use the scheduler's own rules
(`scheduling.dailies_ensure`), whose database constraints make a second run harmless.

The same check closes the days whose ranked play has ended (`services.daily_close`: the last
fair-play checks of the attempts left unfinished), as the beat's `close_days` does.

With a Celery broker (`REDIS_URL`), the same check only queues the `ensure_dailies` and
`close_days` tasks, in case the beat is not running; the web server never solves deals itself
there.
"""

from __future__ import annotations

import datetime as dt
import logging
import threading
import time
from typing import Any

from django.conf import settings
from django.core.signals import request_started
from django.db import connection
from django.dispatch import receiver

from games import clock, scheduling
from games.models import DailyChallenge, GameName

logger = logging.getLogger(__name__)

CHECK_EVERY = 60.0  # seconds between two checks in one process
DAYS = 2  # today and tomorrow
CANDIDATES = 4  # new candidates per day before taking the closest difficulty (short waits)

_lock = threading.Lock()
_last_check = -CHECK_EVERY


def mode() -> str:
    """ "inline" (this process prepares the days), "queue" (ask the workers) or "off"."""
    configured = getattr(settings, "DAILY_SUPPLY", None)
    if configured:
        return str(configured)
    return "inline" if settings.CELERY_TASK_ALWAYS_EAGER else "queue"


def missing_days(today: dt.date) -> set[dt.date]:
    """The dates among today and tomorrow where a game has no daily."""
    wanted = {today + dt.timedelta(days=k) for k in range(DAYS)}
    have = DailyChallenge.objects.filter(date__in=wanted).values_list("game", "date")
    complete = {
        date for date in wanted if all((game, date) in set(have) for game in GameName.values)
    }
    return wanted - complete


def dailies_supply(*, force: bool = False) -> str:
    """Check, and prepare what is missing (see the module's text). Returns what it did:
    "skipped" (checked less than a minute ago), "ok", "prepared", "preparing" (in the
    background), "queued", or "busy" (another thread is preparing)."""
    global _last_check
    how = mode()
    now = time.monotonic()
    if how == "off" or (not force and now - _last_check < CHECK_EVERY):
        return "skipped"
    _last_check = now
    today = clock.today()
    _close_ended_days(how)
    missing = missing_days(today)
    if not missing:
        return "ok"
    if how == "queue":
        from games.tasks import ensure_dailies

        ensure_dailies.delay(days=DAYS)
        return "queued"
    if today in missing:
        with _lock:  # the others wait here, then find today ready
            if today in missing_days(today):
                _prepare(today)
        return "prepared"
    if not _lock.acquire(blocking=False):
        return "busy"
    threading.Thread(target=_prepare_in_background, args=(today,), daemon=True).start()
    return "preparing"


def _close_ended_days(how: str) -> None:
    """The days whose ranked play has ended get their end (`services.daily_close`): inline
    here (a few queries once a day), or queued for the workers."""
    from games import services

    if not services.dailies_due_for_closing():
        return
    if how == "queue":
        from games.tasks import close_days

        close_days.delay()
    else:
        services.dailies_close_due()


def _prepare(today: dt.date) -> None:
    logger.info("preparing the dailies of %s and the next day", today)
    scheduling.dailies_ensure(days=DAYS, today=today, candidates=CANDIDATES)


def _prepare_in_background(today: dt.date) -> None:
    try:
        _prepare(today)
    except Exception:
        logger.exception("preparing the coming dailies failed; the next check tries again")
    finally:
        connection.close()
        _lock.release()


@receiver(request_started)
def _on_request(sender: Any, **kwargs: Any) -> None:
    try:
        dailies_supply()
    except Exception:  # never fail a request for this: the next check tries again
        logger.exception("checking the coming dailies failed")
