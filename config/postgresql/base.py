"""PostgreSQL through psycopg's pool, failing fast while the database cannot be reached.

Django's backend asks the pool for a connection and waits up to the pool's `timeout` (5 s) for
one: right when the pool is busy for a moment, wrong when PostgreSQL is down, when every
request (and every socket handshake) would wait the whole 5 s before its 503. This backend
tells the two apart by the pool's own failed connection attempts: a wait during which the
pool's attempt to connect fails ends at once, and means the database is down (`Outage.down`;
the log's outage, config/outagelog.py); a busy pool is waited for to the end. From then on a
request waits at most `FAST_SECONDS` (enough for a connection the pool has just made, so the
first request after the database is back gets it) and answers 503 at once otherwise; the first
connection had again ends it.

Connecting has its own deadline too (`connect_timeout` in the settings' OPTIONS): an address
that swallows packets costs seconds, not the system's TCP timeout. The pool gives up its
retries after `reconnect_timeout`, and the next request starts a new attempt, so attempts go
on as long as requests come, without the pool's backoff growing to minutes.

A connection the server closed while it waited in the pool (a restart, a failover,
`idle_session_timeout`, `pg_terminate_backend`) is never handed to a request: the server says
goodbye on a connection before it closes it, so an idle connection with something to read is
suspect (`closed_by_server`, one `poll` of its socket, no round trip); it is checked with an
empty query, and dropped for another if it fails. The request that follows a restart is served
like any other; only a connection cut with no goodbye (a network that drops it silently) is
found out by the query that uses it.
"""

from __future__ import annotations

import logging
import select
import threading
import time
from typing import Any

from django.db.backends.postgresql import base

# The log's database outage (config/outagelog.py) starts with this logger's first error.
logger = logging.getLogger("config.database.pool")

#: Seconds a request waits for a connection while the database is known to be down.
FAST_SECONDS = 0.25


class Outage:
    """Whether this process's pool found the database unreachable; shared by its threads."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.since: float | None = None

    @property
    def down(self) -> bool:
        return self.since is not None

    def began(self, error: BaseException) -> None:
        with self.lock:
            if self.since is None:
                self.since = time.monotonic()
                logger.error(
                    "database unreachable, answering 503 at once until it is back: %r", error
                )

    def ended(self) -> None:
        if self.since is None:
            return
        with self.lock:
            if self.since is not None:
                seconds, self.since = time.monotonic() - self.since, None
                logger.info("the pool connected again after %.1f s", seconds)


OUTAGE = Outage()


def connection_errors(pool: Any) -> int:
    return int(pool.get_stats().get("connections_errors", 0))


def closed_by_server(connection: Any) -> bool:
    """Whether an idle connection can no longer be used: closed on our side, or with something
    to read from the server (its goodbye, before it closed the socket) and failing an empty
    query. A healthy idle connection costs one `poll`, with no round trip."""
    from psycopg_pool import ConnectionPool

    if connection.closed:
        return True
    poller = select.poll()
    try:
        poller.register(connection.fileno(), select.POLLIN | select.POLLERR | select.POLLHUP)
        if not poller.poll(0):
            return False
        ConnectionPool.check_connection(connection)
    except Exception:
        return True
    return False


class FailFastPool:
    """The process's pool as Django sees it: `getconn` as above, everything else the pool's."""

    def __init__(self, pool: Any) -> None:
        self._pool = pool

    def __getattr__(self, name: str) -> Any:
        return getattr(self._pool, name)

    def __bool__(self) -> bool:
        return True

    def getconn(self, timeout: float | None = None) -> Any:
        from psycopg_pool import PoolTimeout

        total = float(self._pool.timeout if timeout is None else timeout)
        if OUTAGE.down:
            total = min(total, FAST_SECONDS)
        deadline = time.monotonic() + total
        errors_before = connection_errors(self._pool)
        # Waited for in slices: a connection attempt of the pool that fails meanwhile ends the
        # wait at once (the database is down), while a busy pool is waited for to the end.
        while True:
            wait = max(0.0, min(FAST_SECONDS, deadline - time.monotonic()))
            try:
                connection = self._pool.getconn(timeout=wait)
            except PoolTimeout as exc:
                if connection_errors(self._pool) > errors_before:
                    OUTAGE.began(exc)
                    raise
                if OUTAGE.down or time.monotonic() >= deadline:
                    raise
                continue
            if closed_by_server(connection):
                # The pool drops a broken connection given back, and makes a new one.
                connection.close()
                self._pool.putconn(connection)
                continue
            OUTAGE.ended()
            return connection


class DatabaseWrapper(base.DatabaseWrapper):
    @property
    def pool(self) -> Any:
        pool = super().pool
        return FailFastPool(pool) if pool else pool
