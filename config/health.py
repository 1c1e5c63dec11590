"""Health checks for load balancers and containers, answered before Django (ASGI middleware).

- `GET /healthz/live/`: liveness. 200 `{"status": "ok"}` from the event loop itself, touching
  nothing: the process is up and its loop turns. For "restart it?" decisions.
- `GET /healthz/`: readiness. Can this process serve players? It checks the database
  (`SELECT 1`), Redis when REDIS_URL is set (a PING) and the channel layer (a message sent to a
  channel of this process and received back, through the same reader as the sockets'):

  - 200 `{"status": "ok", "checks": {"database": "ok", "redis": "ok", "channel_layer": "ok"}}`
    ("redis": "not configured" without REDIS_URL);
  - 200 `"status": "degraded"` when Redis is down: play goes on (the database holds every game),
    live updates and throttles do not, and every process is in the same state, so taking them
    all out of service would only turn a partial outage into a whole one;
  - 503 `"status": "degraded"` when this process's channel layer fails while Redis answers: the
    fault is this process's own (its sockets would hear nothing), others can take its players;
  - 503 `"status": "down"` when the database is down: nothing can be played.

Bounded and cheap, whoever asks and however often: the checks run at most once per
`CACHE_SECONDS` per process (callers in between get the last answer; callers during a check
wait for that one check), each has a deadline (the whole check is over within
`DATABASE_TIMEOUT` seconds), the database and Redis are asked from one thread each of their
own, and no request slot of Django's is taken (the answer never reaches Django: no middleware,
no database connection of a request, not counted by `HTTP_CONCURRENCY`). A check that is still
stuck when the next one is due makes that one "down" rather than starting another thread.

Reasons for a failed check go to the log when a check's state changes (once, not on every
poll), never to the client. Over plain HTTP, with any Host header: the answer carries nothing
but these words.
"""

from __future__ import annotations

import asyncio
import json
import logging
import weakref
from collections.abc import Awaitable, Callable, MutableMapping
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from channels.layers import get_channel_layer
from django.conf import settings
from django.db import connections

logger = logging.getLogger(__name__)

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

LIVE_PATH = "/healthz/live/"
READY_PATH = "/healthz/"

OK, DOWN, NOT_CONFIGURED = "ok", "down", "not configured"

#: Seconds an answer is reused.
CACHE_SECONDS = 2.0
#: Seconds each check may take.
DATABASE_TIMEOUT = 2.0
REDIS_TIMEOUT = 1.0
CHANNEL_LAYER_TIMEOUT = 1.0

# One thread each: a check that hangs holds its own thread, never a pile of them.
_database_thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="healthz-db")
_redis_thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="healthz-redis")


def check_database() -> str:
    connection = connections["default"]
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    finally:
        connection.close()  # back to the pool: the thread keeps nothing between checks
    return OK


def check_redis() -> str:
    from infra.redis import client_for

    client_for(settings.REDIS_URL).ping()
    return OK


async def check_channel_layer() -> str:
    layer = get_channel_layer()
    if layer is None:
        raise RuntimeError("no channel layer is configured")
    channel = await layer.new_channel()
    await layer.send(channel, {"type": "health.ping"})
    message = await layer.receive(channel)
    if message.get("type") != "health.ping":
        raise RuntimeError(f"unexpected message {message!r}")
    return OK


class _Checks:
    """The last answer of one event loop (a server process has one), and the check running."""

    def __init__(self) -> None:
        self.answer: tuple[int, dict[str, Any]] | None = None
        self.answered_at = 0.0
        self.running: asyncio.Future[tuple[int, dict[str, Any]]] | None = None
        self.states: dict[str, str] = {}

    async def answer_now(self) -> tuple[int, dict[str, Any]]:
        loop = asyncio.get_running_loop()
        if self.answer is not None and loop.time() - self.answered_at < CACHE_SECONDS:
            return self.answer
        if self.running is None or self.running.done():
            self.running = asyncio.ensure_future(self._run())
        return await asyncio.shield(self.running)

    async def _one(self, name: str, check: Awaitable[str], timeout: float) -> str:
        try:
            async with asyncio.timeout(timeout):
                state = await check
        except Exception as error:
            state = DOWN
            if self.states.get(name) != DOWN:
                logger.warning("health: %s is down: %r", name, error)
        else:
            if self.states.get(name) == DOWN:
                logger.warning("health: %s is back", name)
        self.states[name] = state
        return state

    async def _run(self) -> tuple[int, dict[str, Any]]:
        loop = asyncio.get_running_loop()
        redis_check: Awaitable[str]
        if settings.REDIS_URL:
            redis_check = loop.run_in_executor(_redis_thread, check_redis)
        else:
            redis_check = _constant(NOT_CONFIGURED)
        database, redis, channel_layer = await asyncio.gather(
            self._one(
                "database", loop.run_in_executor(_database_thread, check_database), DATABASE_TIMEOUT
            ),
            self._one("redis", redis_check, REDIS_TIMEOUT),
            self._one("channel_layer", check_channel_layer(), CHANNEL_LAYER_TIMEOUT),
        )
        checks = {"database": database, "redis": redis, "channel_layer": channel_layer}
        if database == DOWN:
            answer = (503, {"status": "down", "checks": checks})
        elif channel_layer == DOWN and redis != DOWN:
            answer = (503, {"status": "degraded", "checks": checks})
        elif DOWN in checks.values():
            answer = (200, {"status": "degraded", "checks": checks})
        else:
            answer = (200, {"status": "ok", "checks": checks})
        self.answer, self.answered_at = answer, loop.time()
        return answer


async def _constant(value: str) -> str:
    return value


_checks: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Checks] = weakref.WeakKeyDictionary()


def _checks_of_this_loop() -> _Checks:
    loop = asyncio.get_running_loop()
    found = _checks.get(loop)
    if found is None:
        found = _checks[loop] = _Checks()
    return found


async def _respond(send: Send, status: int, body: dict[str, Any], *, head: bool) -> None:
    content = json.dumps(body).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"cache-control", b"no-store"),
                (b"content-length", str(len(content)).encode()),
            ],
        }
    )
    await send({"type": "http.response.body", "body": b"" if head else content})


class HealthCheckMiddleware:
    """Answers `LIVE_PATH` and `READY_PATH` itself; everything else goes to `app`."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = scope.get("path")
        if scope["type"] != "http" or path not in (LIVE_PATH, READY_PATH):
            await self.app(scope, receive, send)
            return
        method = scope.get("method", "GET")
        if method not in ("GET", "HEAD"):
            await _respond(
                send, 405, {"code": "method_not_allowed", "detail": "GET or HEAD."}, head=False
            )
            return
        if path == LIVE_PATH:
            await _respond(send, 200, {"status": "ok"}, head=method == "HEAD")
            return
        status, body = await _checks_of_this_loop().answer_now()
        await _respond(send, status, body, head=method == "HEAD")
