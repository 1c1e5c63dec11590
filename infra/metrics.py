"""The service's Prometheus metrics, and `GET /metrics` that serves them (docs/deployment.md,
"Metrics and alerts", says what each one means).

Infrastructure: this module imports no app. The apps feed it through their signals (the
`monitoring` app listens to them: config/monitoring/receivers.py), or, where no signal exists,
through a one-line call of theirs (a refused move, a socket's message, a live event written to
a socket). The rest is counted here: requests (`RequestMetricsMiddleware`, first in MIDDLEWARE),
open sockets (`SocketMetrics`, around the WebSocket routes), errors the outage filters of
config/outagelog.py hold back, Celery tasks (its task signals, connected in config/celery.py).

Two kinds of metrics:

- events are prometheus_client's counters and histograms, counted where they happen;
- what lives in the database, in Redis or in a pool is read when Prometheus asks (a scrape):
  the readings of `add_reading` (the apps' dailies and held results), the Celery queues' lengths
  and the tasks' outcomes (Redis, `redis_readings`, with a short timeout: absent while Redis is
  down), the database pool of the process (`sample_pool`).

Celery tasks run in the worker containers, which Prometheus does not scrape: a task's outcome
is counted in a Redis hash (`TASKS_KEY`, under REDIS_KEY_PREFIX), which the process answering a
scrape reads with the queues' lengths. Without REDIS_URL (eager tasks, in the process that
sends them), in this process.

One process or many. `python -m config.serving` (`make run`, the tests' servers) is one process,
whose metrics are prometheus_client's default registry. gunicorn (the image) runs several
worker processes behind one port, and a scrape reaches one of them, which must answer for all:
there, prometheus_client's multiprocess mode keeps each process's values in files of
`PROMETHEUS_MULTIPROC_DIR` (set, and emptied at start, by config/gunicorn.py, the one place that
knows there are several), and the process answering a scrape adds them up. A gauge is summed
over the processes alive (`livesum`); a counter keeps what a process that died had counted. The
pool's figures live in each process: there each process writes them down every
`POOL_SAMPLE_SECONDS` (a thread of its own), and the one answering a scrape just before.

`GET /metrics` is answered before Django, like the health checks (no middleware, any Host, no
request slot), and only to whom may read it: with `METRICS_TOKEN` set, to a request carrying
`Authorization: Bearer <token>`; without it, to a client on this machine when no proxy stands in
front (`NUM_PROXIES=0`: behind a proxy on the same machine every request would come from
loopback). Anyone else gets the site's own 404, as for any unknown path; the edge refuses the
path anyway (deploy/nginx). Labels are bounded: a route is its URL pattern's name, never the
path; a method, a socket kind, a reason, a task are one of a known few.
"""

from __future__ import annotations

import asyncio
import functools
import hmac
import logging
import os
import threading
import time
from collections import Counter as Tally
from collections.abc import Awaitable, Callable, Iterable, Iterator, MutableMapping
from concurrent.futures import ThreadPoolExecutor
from typing import Any, ParamSpec, TypeVar

from prometheus_client import (
    REGISTRY,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    disable_created_metrics,
    generate_latest,
    multiprocess,
)
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.exposition import CONTENT_TYPE_PLAIN_0_0_4

logger = logging.getLogger(__name__)

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
P = ParamSpec("P")
R = TypeVar("R")

PATH = "/metrics"
#: prometheus_client reads the same variable when it is imported.
MULTIPROCESS = bool(os.environ.get("PROMETHEUS_MULTIPROC_DIR"))
#: Seconds between two samples of the pool by each process (multiprocess mode).
POOL_SAMPLE_SECONDS = 5.0
#: Seconds a scrape waits for Redis.
REDIS_TIMEOUT = 0.5
#: The Redis hash of the Celery tasks' outcomes, under REDIS_KEY_PREFIX, and how long it is kept
#: after the last task counted (the hourly tasks keep it; a test run's goes away by itself).
TASKS_KEY = "metrics:celery-tasks"
TASKS_KEY_SECONDS = 7 * 86400

#: The kinds of socket, the second part of their path (realtime/routing.py): /ws/<kind>/...
SOCKET_KINDS = ("play", "daily", "race")
#: The types of message a socket receives that are counted as such; any other is "other".
SOCKET_MESSAGE_TYPES = frozenset({"move", "finish", "resign", "resync", "hint"})
METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})

# A counter's `_created` series (when it first counted) says nothing an operator needs.
disable_created_metrics()

# -- events --------------------------------------------------------------------------------------

HTTP_REQUESTS = Counter(
    "patience_http_requests",
    "HTTP requests Django answered, by route (URL pattern name), method and status.",
    ["route", "method", "status"],
)
HTTP_SECONDS = Histogram(
    "patience_http_request_duration_seconds",
    "Seconds Django took to answer a request, by route.",
    ["route"],
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0),
)
HTTP_WAITING = Gauge(
    "patience_http_requests_waiting",
    "HTTP requests waiting for a place inside Django (HTTP_CONCURRENCY per process).",
    multiprocess_mode="livesum",
)
SOCKETS_OPEN = Gauge(
    "patience_sockets_open", "WebSockets open, by kind.", ["kind"], multiprocess_mode="livesum"
)
SOCKET_MESSAGES = Counter(
    "patience_socket_messages",
    "Messages the sockets received (heartbeats aside), by kind of socket and type "
    "(resync: a client that reconnected or missed events asks again).",
    ["kind", "type"],
)
LIVE_EVENTS = Counter(
    "patience_live_events_sent",
    "Live events written to sockets: play states pushed to a player's other tabs, board "
    "events to daily sockets, race events and progress to race sockets.",
    ["kind"],
)
MOVES = Counter(
    "patience_moves",
    "Moves: accepted (stored), or refused, by reason (the error code the API and the play "
    "socket answer).",
    ["outcome", "reason"],
)
OUTAGE_ERRORS = Counter(
    "patience_outage_errors",
    "Errors logged because Redis (cache, channel layer, ...) or the database could not be "
    "reached, held back by the log's outage filters, by service and logger.",
    ["service", "logger"],
)
POOL_CONNECTIONS = Gauge(
    "patience_db_pool_connections",
    "PostgreSQL connections of the processes' pools, in use or idle.",
    ["state"],
    multiprocess_mode="livesum",
)
POOL_MAX = Gauge(
    "patience_db_pool_max",
    "The most connections the processes' pools may hold (DATABASE_POOL_SIZE each).",
    multiprocess_mode="livesum",
)
POOL_WAITING = Gauge(
    "patience_db_pool_waiting",
    "Requests waiting for a pooled connection now.",
    multiprocess_mode="livesum",
)
POOL_WAIT_SECONDS = Counter(
    "patience_db_pool_wait_seconds",
    "Seconds requests spent waiting for a pooled connection.",
)
POOL_ERRORS = Counter(
    "patience_db_pool_errors",
    "Pool failures: a wait for a connection that failed (timeout), a connection attempt "
    "that failed (connect).",
    ["kind"],
)

# Series that exist from the start, at 0, so that a rate or an alert has something to read.
for _kind in SOCKET_KINDS:
    SOCKETS_OPEN.labels(_kind)
    LIVE_EVENTS.labels(_kind)
MOVES.labels("accepted", "")
for _state in ("in_use", "idle"):
    POOL_CONNECTIONS.labels(_state)
for _error in ("timeout", "connect"):
    POOL_ERRORS.labels(_error)


def move_accepted() -> None:
    MOVES.labels("accepted", "").inc()


def counts_refused_moves(refusal: type[Exception]) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """Decorates the service that plays a move: each `refusal` it raises is counted, by its
    `code`, before it goes on to the caller (the API or the play socket)."""

    def decorate(function: Callable[P, R]) -> Callable[P, R]:
        @functools.wraps(function)
        def counted(*args: P.args, **kwargs: P.kwargs) -> R:
            try:
                return function(*args, **kwargs)
            except refusal as exc:
                MOVES.labels("refused", str(getattr(exc, "code", "unknown"))[:40]).inc()
                raise

        return counted

    return decorate


def socket_kind(path: str) -> str:
    """ "play", "daily" or "race" for a socket's path (/ws/play/12/), else "other"."""
    parts = path.strip("/").split("/")
    if len(parts) > 1 and parts[0] == "ws" and parts[1] in SOCKET_KINDS:
        return parts[1]
    return "other"


def socket_message(path: str, kind: str) -> None:
    """A socket at `path` received a message of type `kind` (realtime/sockets.py)."""
    SOCKET_MESSAGES.labels(
        socket_kind(path), kind if kind in SOCKET_MESSAGE_TYPES else "other"
    ).inc()


def live_event_sent(kind: str) -> None:
    """A live event was written to a socket of `kind` (realtime's consumers)."""
    LIVE_EVENTS.labels(kind).inc()


def outage_error(service: str, logger_name: str) -> None:
    """An error logged for `service` being unreachable (config/outagelog.py)."""
    OUTAGE_ERRORS.labels(service.lower(), logger_name).inc()


# -- requests and sockets ------------------------------------------------------------------------


def route_of(request: Any) -> str:
    """The name of the URL pattern that served `request` (its namespace too, or the view's
    dotted path for a pattern without a name); "static" for a static file (answered before
    URLs are resolved); "unmatched" for anything else answered before a view was chosen
    (a redirect to HTTPS, a refused origin, a path no pattern matches)."""
    match = getattr(request, "resolver_match", None)
    if match is not None:
        return str(match.view_name)
    from django.conf import settings

    if request.path.startswith("/" + settings.STATIC_URL.lstrip("/")):
        return "static"
    return "unmatched"


class RequestMetricsMiddleware:
    """Django middleware, first in MIDDLEWARE (synchronous, like the rest of the chain): each
    request's route, method, status and time."""

    def __init__(self, get_response: Callable[[Any], Any]) -> None:
        self.get_response = get_response

    def __call__(self, request: Any) -> Any:
        began = time.perf_counter()
        response = self.get_response(request)
        route = route_of(request)
        HTTP_SECONDS.labels(route).observe(time.perf_counter() - began)
        method = request.method if request.method in METHODS else "other"
        HTTP_REQUESTS.labels(route, method, str(response.status_code)).inc()
        return response


class SocketMetrics:
    """ASGI, around the WebSocket routes: a socket counts as open from its accept to its close
    (a refused one, accepted then closed at once, for that moment only)."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "websocket":
            await self.app(scope, receive, send)
            return
        gauge = SOCKETS_OPEN.labels(socket_kind(scope.get("path", "")))
        state = {"open": False}

        def closed() -> None:
            if state["open"]:
                state["open"] = False
                gauge.dec()

        async def counted(message: Message) -> None:
            if message["type"] == "websocket.accept" and not state["open"]:
                state["open"] = True
                gauge.inc()
            elif message["type"] == "websocket.close":
                closed()
            await send(message)

        try:
            await self.app(scope, receive, counted)
        finally:
            closed()


# -- read at scrape time -------------------------------------------------------------------------

#: The apps' readings (the monitoring app adds them): each yields metric families.
Reading = Callable[[], Iterable[Metric]]
_readings: list[Reading] = []


def add_reading(reading: Reading) -> None:
    if reading not in _readings:
        _readings.append(reading)


#: The Celery tasks' outcomes counted in this process (without Redis).
_local_tasks: Tally[tuple[str, str]] = Tally()
_redis_clients: dict[str, Any] = {}


def _redis(url: str) -> Any:
    client = _redis_clients.get(url)
    if client is None:
        import redis

        client = _redis_clients[url] = redis.Redis.from_url(
            url, socket_connect_timeout=REDIS_TIMEOUT, socket_timeout=REDIS_TIMEOUT
        )
    return client


def tasks_key() -> str:
    from django.conf import settings

    return f"{settings.REDIS_KEY_PREFIX}:{TASKS_KEY}"


def queues() -> list[str]:
    """The Celery queues: the default one and those tasks are routed to (config/settings.py)."""
    from django.conf import settings

    routed = {route["queue"] for route in settings.CELERY_TASK_ROUTES.values()}
    return sorted({getattr(settings, "CELERY_TASK_DEFAULT_QUEUE", "celery"), *routed})


def task_done(name: str, outcome: str) -> None:
    """A Celery task ended so: counted in Redis (read by whoever serves metrics), or here
    without Redis. A count Redis cannot take is lost."""
    from django.conf import settings

    if not settings.REDIS_URL:
        _local_tasks[(name, outcome)] += 1
        return
    try:
        pipe = _redis(settings.REDIS_URL).pipeline(transaction=False)
        pipe.hincrby(tasks_key(), f"{outcome} {name}", 1)
        pipe.expire(tasks_key(), TASKS_KEY_SECONDS)
        pipe.execute()
    except Exception as exc:
        logger.info("task outcome not counted: %r", exc)


def task_finished(sender: Any = None, task: Any = None, state: Any = None, **kwargs: Any) -> None:
    """Celery's `task_postrun`: success, failure, retry, ignored or rejected."""
    task_done(str(getattr(task or sender, "name", "unknown")), str(state or "unknown").lower())


def task_revoked(sender: Any = None, expired: bool = False, **kwargs: Any) -> None:
    """Celery's `task_revoked`: a task that expired unrun (a scheduled run too late) or was
    revoked."""
    task_done(str(getattr(sender, "name", "unknown")), "expired" if expired else "revoked")


def redis_readings() -> Iterator[Metric]:
    """The Celery queues' lengths and the tasks' outcomes: one round trip to Redis."""
    from django.conf import settings

    tasks = CounterMetricFamily(
        "patience_celery_tasks",
        "Celery tasks ended, by task and outcome.",
        labels=["task", "outcome"],
    )
    if not settings.REDIS_URL:
        for (name, outcome), count in sorted(_local_tasks.items()):
            tasks.add_metric([name, outcome], count)
        yield tasks
        return
    names = queues()
    pipe = _redis(settings.REDIS_URL).pipeline(transaction=False)
    for name in names:
        pipe.llen(name)
    pipe.hgetall(tasks_key())
    *lengths, counts = pipe.execute()
    waiting = GaugeMetricFamily(
        "patience_celery_queue_length", "Celery jobs waiting in each queue.", labels=["queue"]
    )
    for name, length in zip(names, lengths, strict=True):
        waiting.add_metric([name], length)
    yield waiting
    for field, count in sorted(counts.items()):
        outcome, _, name = field.decode().partition(" ")
        tasks.add_metric([name, outcome], int(count))
    yield tasks


class _Readings:
    """Everything read at scrape time; a reading that fails is left out (and logged)."""

    def collect(self) -> Iterator[Metric]:
        for reading in (redis_readings, *_readings):
            try:
                families = list(reading())
            except Exception as exc:
                logger.warning("metrics: %s not read: %r", reading.__name__, exc)
                continue
            yield from families


class _ThisProcess:
    """The default registry, when this process is the only one."""

    def collect(self) -> Iterable[Metric]:
        return REGISTRY.collect()


_pool_seen: dict[str, float] = {}
_pool_lock = threading.Lock()


def sample_pool(pool: Any = None) -> None:
    """This process's database pool (config/postgresql: psycopg_pool's `get_stats()`), or
    `pool`, in the pool metrics; nothing without a pool (SQLite). Reads the pool without
    connecting."""
    if pool is None:
        from django.db import connections

        pool = getattr(connections["default"], "pool", None)
    if not pool:
        return
    stats = pool.get_stats()
    size, idle = stats.get("pool_size", 0), stats.get("pool_available", 0)
    POOL_CONNECTIONS.labels("in_use").set(max(0, size - idle))
    POOL_CONNECTIONS.labels("idle").set(idle)
    POOL_MAX.set(stats.get("pool_max", 0))
    POOL_WAITING.set(stats.get("requests_waiting", 0))
    # The pool's counters count from its start: what they gained since the last sample.
    with _pool_lock:
        for name, counter, unit in (
            ("requests_errors", POOL_ERRORS.labels("timeout"), 1),
            ("connections_errors", POOL_ERRORS.labels("connect"), 1),
            ("requests_wait_ms", POOL_WAIT_SECONDS, 1000),
        ):
            value = float(stats.get(name, 0))
            seen = _pool_seen.get(name, 0.0)
            gained = value - seen if value >= seen else value  # a new pool starts from 0
            if gained > 0:
                counter.inc(gained / unit)
            _pool_seen[name] = value


_sampler: threading.Thread | None = None


def start_pool_sampler() -> None:
    """In multiprocess mode, this process writes its pool's figures down every
    `POOL_SAMPLE_SECONDS` (a scrape reaches another process)."""
    global _sampler
    if _sampler is not None:
        return

    def sample_forever() -> None:
        while True:
            time.sleep(POOL_SAMPLE_SECONDS)
            try:
                sample_pool()
            except Exception as exc:  # pragma: no cover - the next sample tries again
                logger.info("metrics: pool not sampled: %r", exc)

    _sampler = threading.Thread(target=sample_forever, name="metrics-pool", daemon=True)
    _sampler.start()


def exposition() -> bytes:
    """The metrics in Prometheus' text format: this process's, or every process's in
    multiprocess mode, and what is read now."""
    sample_pool()
    registry = CollectorRegistry()
    if MULTIPROCESS:
        multiprocess.MultiProcessCollector(registry)
    else:
        registry.register(_ThisProcess())
    registry.register(_Readings())
    return generate_latest(registry)


def _scrape() -> bytes:
    """`exposition()` in the scrape's thread, which then gives its connection back."""
    try:
        return exposition()
    finally:
        from django.db import connections

        connections.close_all()  # this thread's, back to the pool


# -- GET /metrics --------------------------------------------------------------------------------


def allowed(scope: Scope) -> bool:
    """Whether the caller may read the metrics (see the module)."""
    from django.conf import settings

    from infra.network import is_loopback_address

    token = settings.METRICS_TOKEN
    if token:
        given = b""
        for name, value in scope.get("headers", []):
            if name == b"authorization":
                given = value
        return hmac.compare_digest(given, b"Bearer " + token.encode())
    client = scope.get("client") or ("", 0)
    return settings.NUM_PROXIES == 0 and is_loopback_address(str(client[0]))


# One thread: scrapes queue behind each other, whoever asks.
_scrape_thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="metrics")


class MetricsEndpoint:
    """ASGI: answers `GET /metrics` itself (to whom `allowed`); everything else, and a caller
    not allowed, goes to `app`."""

    def __init__(self, app: Any) -> None:
        self.app = app
        if MULTIPROCESS:
            start_pool_sampler()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (
            scope["type"] != "http"
            or scope.get("path") != PATH
            or scope.get("method") not in ("GET", "HEAD")
            or not allowed(scope)
        ):
            await self.app(scope, receive, send)
            return
        body = await asyncio.get_running_loop().run_in_executor(_scrape_thread, _scrape)
        await send(
            {
                "type": "http.response.start",
                "status": 200,
                "headers": [
                    # The text format every Prometheus reads (the names need no escaping).
                    (b"content-type", CONTENT_TYPE_PLAIN_0_0_4.encode()),
                    (b"cache-control", b"no-store"),
                    (b"content-length", str(len(body)).encode()),
                ],
            }
        )
        if scope["method"] == "HEAD":
            body = b""
        await send({"type": "http.response.body", "body": body})
