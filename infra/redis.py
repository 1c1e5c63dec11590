"""The process's Redis client for short commands (the leaderboard index, the live boards' marks
and versions, the registry of open play sockets): one per URL, so one connection pool, with
timeouts short enough that a Redis that is down costs a quarter or half a second, not a move.

`PerProcess` is the one object of such a kind a process uses: kept in Redis when REDIS_URL is
set (shared by the server processes), in memory otherwise (the embedded default, one process).

`REDIS_ERRORS` is what a Redis that cannot be reached raises. Moved here from
games/redis_client.py and games/errors.py: nothing of it belongs to an app.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Generic, TypeVar

import redis
from django.conf import settings
from redis.exceptions import RedisError

T = TypeVar("T")

#: What a Redis server that cannot be reached raises (redis-py's errors and the socket's own):
#: the one list every Redis user of the project (throttle cache, channel layer, leaderboard
#: index) catches to degrade instead of failing.
REDIS_ERRORS: tuple[type[BaseException], ...] = (RedisError, OSError)

#: Seconds to connect, and to wait for an answer.
CONNECT_TIMEOUT = 0.25
COMMAND_TIMEOUT = 0.5

_clients: dict[str, redis.Redis] = {}
_lock = threading.Lock()


def client_for(url: str) -> redis.Redis:
    """The process's client of the Redis at `url` (made at the first call)."""
    found = _clients.get(url)
    if found is None:
        with _lock:
            found = _clients.get(url)
            if found is None:
                found = redis.Redis.from_url(
                    url,
                    socket_connect_timeout=CONNECT_TIMEOUT,
                    socket_timeout=COMMAND_TIMEOUT,
                    driver_info=settings.REDIS_DRIVER_INFO,
                )
                _clients[url] = found
    return found


class PerProcess(Generic[T]):
    """`registry()`: the process's one object, made at the first call, by
    `on_redis(REDIS_URL, REDIS_KEY_PREFIX)` when REDIS_URL is set, else by `in_memory()`. Tests
    may put their own in `instance`."""

    def __init__(self, on_redis: Callable[[str, str], T], in_memory: Callable[[], T]) -> None:
        self.on_redis, self.in_memory = on_redis, in_memory
        self.instance: T | None = None
        self._lock = threading.Lock()

    def __call__(self) -> T:
        with self._lock:
            if self.instance is None:
                self.instance = (
                    self.on_redis(settings.REDIS_URL, settings.REDIS_KEY_PREFIX)
                    if settings.REDIS_URL
                    else self.in_memory()
                )
            return self.instance
