"""The process's Redis client for short commands (the leaderboard index, the live boards' marks
and versions, the registry of open play sockets): one per URL, so one connection pool, with
timeouts short enough that a Redis that is down costs a quarter or half a second, not a move."""

from __future__ import annotations

import threading

import redis

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
                    url, socket_connect_timeout=CONNECT_TIMEOUT, socket_timeout=COMMAND_TIMEOUT
                )
                _clients[url] = found
    return found
