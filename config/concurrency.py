"""At most a pool's worth of HTTP requests inside Django at once, per server process.

Under ASGI, Django runs each request's view in a thread of its own, and each such thread holds a
database connection until the request ends. A crowd (the players of a new day, all at 00:00)
puts hundreds of requests in flight in one process; with more threads than pooled connections,
the surplus waited on the pool and was refused with 503 after its 5 s timeout, although the
server was only busy, not broken. Here the requests beyond `limit` wait their turn on the event
loop (no thread, no connection, no time limit of their own) and go in as others finish: late
rather than refused. WebSockets are not counted; their database work has threads of its own.
How many wait is a metric (`patience_http_requests_waiting`, infra/metrics.py).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from infra.metrics import HTTP_WAITING

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]


class ConcurrencyLimitMiddleware:
    """An ASGI middleware letting at most `limit` HTTP requests into `app` at once."""

    def __init__(self, app: Any, limit: int) -> None:
        self.app = app
        self.limit = limit
        # One semaphore per event loop (a process has one; tests may run several in turn).
        self._gates: dict[asyncio.AbstractEventLoop, asyncio.Semaphore] = {}

    def _gate(self) -> asyncio.Semaphore:
        loop = asyncio.get_running_loop()
        gate = self._gates.get(loop)
        if gate is None:
            self._gates = {k: v for k, v in self._gates.items() if not k.is_closed()}
            gate = self._gates[loop] = asyncio.Semaphore(self.limit)
        return gate

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        gate = self._gate()
        with HTTP_WAITING.track_inprogress():
            await gate.acquire()
        try:
            await self.app(scope, receive, send)
        finally:
            gate.release()
