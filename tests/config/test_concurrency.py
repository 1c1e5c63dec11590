"""At most `limit` HTTP requests inside Django at once per process; the rest wait their turn and
are all answered (config/concurrency.py)."""

from __future__ import annotations

import asyncio

from django.conf import settings

from config.concurrency import ConcurrencyLimitMiddleware


class Inner:
    """An ASGI app that takes a while and notes how many requests were inside at once."""

    def __init__(self) -> None:
        self.inside = 0
        self.most = 0
        self.served = 0

    async def __call__(self, scope, receive, send) -> None:
        self.inside += 1
        self.most = max(self.most, self.inside)
        await asyncio.sleep(0.02)
        self.inside -= 1
        self.served += 1


async def test_requests_beyond_the_limit_wait_and_all_are_served():
    inner = Inner()
    app = ConcurrencyLimitMiddleware(inner, limit=3)

    await asyncio.gather(*(app({"type": "http"}, None, None) for _ in range(20)))

    assert inner.most == 3 and inner.served == 20


async def test_websockets_are_not_counted():
    inner = Inner()
    app = ConcurrencyLimitMiddleware(inner, limit=1)

    await asyncio.gather(*(app({"type": "websocket"}, None, None) for _ in range(5)))

    assert inner.most == 5


def test_the_server_lets_in_as_many_requests_as_the_pool_has_connections():
    assert settings.HTTP_CONCURRENCY == settings.DATABASE_POOL_SIZE
