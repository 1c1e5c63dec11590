"""An outage in the log: when it begins and when it ends, once each, and a count a minute in
between, instead of a line (often a traceback) for every call that fails meanwhile.

Every user of Redis and of the database degrades on its own when the service cannot be reached
(throttles open, boards from the database, sockets closed with 4503, requests answered 503:
docs/resilience.md), and each one logs what it met. With players on a process, that was
thousands of tracebacks a minute (3,549 in 19 s for 10 players with Redis down; 254 tracebacks,
13,268 lines, for a 10 s database outage). The filters of this module sit on the log handler
(config/settings.py):

- `RedisOutageFilter` holds back a record caused by Redis being unreachable (a connection error
  or timeout of redis-py, or django-redis' wrapper of one, in the record's exception, its causes
  or its arguments; Celery's result backend's "Connection to Redis lost: Retry" lines);
- `DatabaseOutageFilter` holds back a record caused by the database being unavailable (the
  503s of `config.middleware`, Django's log of a request that failed on it), as
  `config.errors.is_database_unavailable` tells.

Instead of the records held back:

- the first one starts the outage: "<service> unreachable ..." with what it was (one line);
- while it lasts, a thread of the process asks the service every `PROBE_SECONDS`, and once a
  minute (`SUMMARY_SECONDS`) writes how many errors were held back, by logger;
- when the service answers: "<service> reachable again after N s (K errors held back)".

Each record held back is counted for the metrics too (`patience_outage_errors_total`, by
service and logger: infra/metrics.py), so that the errors of the cache, the channel
layer and the database show on a graph, not only in the minute's summary.

Anything else, a Redis error that is not an outage (a refused command) included, is written as
before. `OneLineFilter` writes a record as a warning without its traceback: what a stranger can
cause at will (a request with a `Host` this site does not serve) is one line, not a screenful.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

from infra import metrics

logger = logging.getLogger("config.redis")
database_logger = logging.getLogger("config.database")

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
    """This process's view of a service: up, or down since a moment, with what was held back.
    `answers()` asks the service whether it is back (from the outage's own thread)."""

    def __init__(
        self, service: str, answers: Callable[[], bool], log: logging.Logger = logger
    ) -> None:
        self.service = service
        self.answers = answers
        self.log = log
        self.lock = threading.Lock()
        self.since: float | None = None
        self.held = 0
        self.held_in_minute: Counter[str] = Counter()

    def hold(self, record: logging.LogRecord) -> bool:
        """Count `record`, held back, if an outage is on; False (nothing counted) otherwise."""
        with self.lock:
            if self.since is None:
                return False
            self.held += 1
            self.held_in_minute[record.name] += 1
        metrics.outage_error(self.service, record.name)
        return True

    def note(self, record: logging.LogRecord, error: BaseException) -> None:
        """Count `record`, held back; the first one starts the outage."""
        metrics.outage_error(self.service, record.name)
        with self.lock:
            self.held += 1
            self.held_in_minute[record.name] += 1
            if self.since is not None:
                return
            self.since = time.monotonic()
        self.log.error(
            "%s unreachable (%s: %r, from %s); its errors are counted, a summary each "
            "minute, until it answers again",
            self.service,
            type(error).__name__,
            str(error)[:200],
            record.name,
        )
        threading.Thread(target=self._watch, name=f"{self.service}-outage", daemon=True).start()

    def _watch(self) -> None:
        summary_at = time.monotonic() + SUMMARY_SECONDS
        while not self._answers_safely():
            time.sleep(PROBE_SECONDS)
            if time.monotonic() >= summary_at:
                summary_at += SUMMARY_SECONDS
                self._summary()
        with self.lock:
            seconds = time.monotonic() - (self.since or time.monotonic())
            held = self.held
            self.since, self.held = None, 0
            self.held_in_minute.clear()
        self.log.warning(
            "%s reachable again after %.0f s (%d errors held back meanwhile)",
            self.service,
            seconds,
            held,
        )

    def _summary(self) -> None:
        with self.lock:
            counts, self.held_in_minute = self.held_in_minute, Counter()
            seconds = time.monotonic() - (self.since or time.monotonic())
        by_logger = ", ".join(f"{name} {count}" for name, count in counts.most_common())
        self.log.error(
            "%s still unreachable after %.0f s: %d errors in the last %.0f s (%s)",
            self.service,
            seconds,
            sum(counts.values()),
            SUMMARY_SECONDS,
            by_logger or "none",
        )

    def _answers_safely(self) -> bool:
        try:
            return self.answers()
        except Exception:
            return False


def redis_answers(url: str) -> Callable[[], bool]:
    def answers() -> bool:
        import redis

        client = redis.Redis.from_url(url, socket_connect_timeout=0.5, socket_timeout=0.5)
        try:
            return bool(client.ping())
        finally:
            client.close()

    return answers


def database_answers() -> bool:
    """Whether the default database answers a query (from the outage's thread, which gives
    its connection back at once)."""
    from django.db import connection

    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
        return True
    finally:
        connection.close()


class OutageFilter(logging.Filter):
    """On the log handler: holds back the records of an outage (see the module). `error`
    finds in a record the exception saying the service cannot be reached."""

    def __init__(self, outage: Outage | None, error: Callable[[logging.LogRecord], Any]) -> None:
        super().__init__()
        self.outage = outage
        self.error = error

    def filter(self, record: logging.LogRecord) -> bool:
        if self.outage is None or record.name in (logger.name, database_logger.name):
            return True
        error = self.error(record)
        if error is None:
            return True
        self.outage.note(record, error)
        return False


class RedisOutageFilter(OutageFilter):
    def __init__(self, url: str = "") -> None:
        super().__init__(Outage("Redis", redis_answers(url)) if url else None, outage_error)


def database_error(record: logging.LogRecord) -> BaseException | None:
    """The exception saying the database is unavailable that `record` was logged for, if any."""
    from config.errors import is_database_unavailable

    if record.exc_info and is_database_unavailable(record.exc_info[1]):
        return record.exc_info[1]
    args = record.args if isinstance(record.args, tuple) else ()
    return next(
        (a for a in args if isinstance(a, BaseException) and is_database_unavailable(a)), None
    )


class DatabaseOutageFilter(OutageFilter):
    """Also held back while the outage lasts: Django's line for each request answered 503
    (`django.request`, with no exception) and the pool's own attempts to connect
    (`psycopg.pool`)."""

    def __init__(self) -> None:
        super().__init__(Outage("database", database_answers, database_logger), database_error)

    def filter(self, record: logging.LogRecord) -> bool:
        if self.outage is not None and _said_of_the_outage(record) and self.outage.hold(record):
            return False
        return super().filter(record)


def _said_of_the_outage(record: logging.LogRecord) -> bool:
    if record.name == "psycopg.pool":
        return True
    request = getattr(record, "request", None)
    return record.name == "django.request" and getattr(request, "database_unavailable", False)


class OneLineFilter(logging.Filter):
    """Writes a record as one line, a warning without its traceback: on a logger whose records
    anyone can cause, which are no error of the service's."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.exc_info = None
        record.exc_text = None
        if record.levelno > logging.WARNING:
            record.levelno, record.levelname = logging.WARNING, "WARNING"
        return True
