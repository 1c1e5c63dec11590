"""A Redis outage in the log: when it begins and when it ends, once each, and a count a minute
in between, instead of a line (often a traceback) for every cache call, socket and channel
layer read that fails meanwhile.

Every user of Redis degrades on its own when Redis cannot be reached (throttles open, boards
from the database, sockets closed with 4503: docs/resilience.md), and each one logs what it
met. With players on a process, that was thousands of tracebacks a minute. `RedisOutageFilter`
sits on the log handler (config/settings.py, when REDIS_URL is set): a record caused by Redis
being unreachable (a connection error or timeout of redis-py, or django-redis' wrapper of one,
in the record's exception, its causes or its arguments; Celery's result backend's "Connection
to Redis lost: Retry" lines) is not written. Instead:

- the first one starts the outage: "Redis unreachable ..." with what it was (one line);
- while it lasts, a thread of the process pings Redis every `PROBE_SECONDS`, and once a
  minute (`SUMMARY_SECONDS`) writes how many errors were held back, by logger;
- when a ping answers: "Redis reachable again after N s (K errors held back)".

Anything else, a Redis error that is not an outage (a refused command) included, is written
as before.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import Counter
from typing import Any

logger = logging.getLogger("config.redis")

PROBE_SECONDS = 2.0
SUMMARY_SECONDS = 60.0


def outage_errors() -> tuple[type[BaseException], ...]:
    from redis.exceptions import ConnectionError, TimeoutError

    kinds: tuple[type[BaseException], ...] = (ConnectionError, TimeoutError)
    try:
        from django_redis.exceptions import ConnectionInterrupted  # type: ignore[import-untyped]
    except ImportError:  # pragma: no cover - django-redis is pinned
        return kinds
    return (*kinds, ConnectionInterrupted)


def redis_outage_error(exc: BaseException | None) -> BaseException | None:
    """The error in `exc` or its causes that says Redis cannot be reached, if any."""
    from config.errors import caused_by  # not at import: the log is configured before the apps

    return caused_by(exc, outage_errors())


#: Celery's Redis result backend logs its reconnection tries as text, without the exception.
CELERY_RECONNECTING = ("celery.backends.redis", "Connection to Redis lost")


def outage_error(record: logging.LogRecord) -> BaseException | None:
    """The exception saying Redis cannot be reached that `record` was logged for, if any."""
    if record.name == CELERY_RECONNECTING[0] and str(record.msg).startswith(CELERY_RECONNECTING[1]):
        from redis.exceptions import ConnectionError

        return ConnectionError(record.getMessage())
    candidates: list[Any] = []
    if record.exc_info and record.exc_info[1] is not None:
        candidates.append(record.exc_info[1])
    args = record.args if isinstance(record.args, tuple) else ()
    candidates.extend(arg for arg in args if isinstance(arg, BaseException))
    for exc in candidates:
        found = redis_outage_error(exc)
        if found is not None:
            return found
    return None


class Outage:
    """This process's view of Redis: up, or down since a moment, with what was held back."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.lock = threading.Lock()
        self.since: float | None = None
        self.held = 0
        self.held_in_minute: Counter[str] = Counter()

    def note(self, record: logging.LogRecord, error: BaseException) -> None:
        with self.lock:
            self.held += 1
            self.held_in_minute[record.name] += 1
            if self.since is not None:
                return
            self.since = time.monotonic()
        logger.error(
            "Redis unreachable (%s: %r, from %s); its errors are counted, a summary each "
            "minute, until it answers again",
            type(error).__name__,
            str(error)[:200],
            record.name,
        )
        threading.Thread(target=self._watch, name="redis-outage", daemon=True).start()

    def _watch(self) -> None:
        summary_at = time.monotonic() + SUMMARY_SECONDS
        while not self._answers():
            time.sleep(PROBE_SECONDS)
            if time.monotonic() >= summary_at:
                summary_at += SUMMARY_SECONDS
                self._summary()
        with self.lock:
            seconds = time.monotonic() - (self.since or time.monotonic())
            held = self.held
            self.since, self.held = None, 0
            self.held_in_minute.clear()
        logger.warning(
            "Redis reachable again after %.0f s (%d errors held back meanwhile)", seconds, held
        )

    def _summary(self) -> None:
        with self.lock:
            counts, self.held_in_minute = self.held_in_minute, Counter()
            seconds = time.monotonic() - (self.since or time.monotonic())
        by_logger = ", ".join(f"{name} {count}" for name, count in counts.most_common())
        logger.error(
            "Redis still unreachable after %.0f s: %d errors in the last %.0f s (%s)",
            seconds,
            sum(counts.values()),
            SUMMARY_SECONDS,
            by_logger or "none",
        )

    def _answers(self) -> bool:
        import redis

        client = redis.Redis.from_url(self.url, socket_connect_timeout=0.5, socket_timeout=0.5)
        try:
            return bool(client.ping())
        except Exception:
            return False
        finally:
            client.close()


class RedisOutageFilter(logging.Filter):
    """On the log handler: holds back records of an unreachable Redis (see the module)."""

    def __init__(self, url: str = "") -> None:
        super().__init__()
        self.outage = Outage(url) if url else None

    def filter(self, record: logging.LogRecord) -> bool:
        if self.outage is None or record.name == logger.name:
            return True
        error = outage_error(record)
        if error is None:
            return True
        self.outage.note(record, error)
        return False
