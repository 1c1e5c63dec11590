"""Sliding windows of request times, counted atomically: the counting under the throttles
(games/api/throttles.py, where `RedisWindows` and `LockedWindows` were written first).

A counter is (cache key, requests allowed, window in seconds). `windows_of(cache)` counts in
Redis itself for django-redis's cache (`RedisWindows`: one script for all the counters of a
request, one round trip), and under a lock of the process for any other cache (`LockedWindows`:
the local memory of a server without Redis). Each answers, for each counter, None when it had
room, else the time at which a place frees. Nothing here knows the apps: the throttles above
choose the counters and the cache, and decide what a failing cache means.
"""

from __future__ import annotations

import asyncio
import threading
import uuid
import weakref
from typing import Any

import redis
import redis.asyncio

#: (cache key, requests allowed, window in seconds) of one counter.
Counter = tuple[str, int, int]

# One call counts a request in every counter it names: for each, the times older than the window
# go, then the request is added if the window has room, else the counter answers the time at
# which a place frees (the oldest time whose leaving makes room). With ARGV[3] = "1" (all or
# nothing), the request is added nowhere when any counter is full. Redis runs a script whole,
# so counting is atomic across the processes and threads of a deployment, in one round trip.
_COUNT_SCRIPT = """
local now = tonumber(ARGV[1])
local answers = {}
local full = false
for i, key in ipairs(KEYS) do
  local limit = tonumber(ARGV[2 * i + 2])
  local window = tonumber(ARGV[2 * i + 3])
  redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
  local count = redis.call('ZCARD', key)
  if count < limit then
    answers[i] = ''
  else
    answers[i] = redis.call('ZRANGE', key, count - limit, count - limit, 'WITHSCORES')[2]
    full = true
  end
end
if full and ARGV[3] == '1' then
  return answers
end
for i, key in ipairs(KEYS) do
  if answers[i] == '' then
    redis.call('ZADD', key, now, ARGV[2])
    redis.call('PEXPIRE', key, math.ceil(tonumber(ARGV[2 * i + 3]) * 1000))
  end
end
return answers
"""


#: An event loop's connections to count on, and how long a count of a burst waits for one to be
#: free (a Redis that does not answer fails sooner, by the connections' own timeouts).
ASYNC_CONNECTIONS = 100
ASYNC_WAIT_SECONDS = 2.0


class RedisWindows:
    """Sliding windows in Redis (django-redis's client and connections): one sorted set of
    request times per counter, counted by `_COUNT_SCRIPT` in one round trip.

    `count_async` makes the same count from an event loop (a socket's message), through an
    asyncio client of the same Redis with the same settings, one per event loop: no thread is
    woken for it. A cache reached otherwise than by TCP (a Unix socket, TLS) is counted in a
    thread by `count`."""

    #: What an asyncio connection takes of the cache's connections' settings (the others, such
    #: as the reply parser, are the synchronous client's own).
    ASYNC_SETTINGS = (
        "host",
        "port",
        "db",
        "username",
        "password",
        "socket_timeout",
        "socket_connect_timeout",
        "driver_info",
    )

    def __init__(self, cache: Any) -> None:
        self.cache = cache
        client = cache.client.get_client(write=True)
        self.script = client.register_script(_COUNT_SCRIPT)
        pool = client.connection_pool
        self.async_settings: dict[str, Any] | None = (
            {k: v for k, v in pool.connection_kwargs.items() if k in self.ASYNC_SETTINGS}
            if pool.connection_class is redis.Connection
            else None
        )
        self.async_scripts: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Any] = (
            weakref.WeakKeyDictionary()
        )

    def count(self, counters: list[Counter], now: float, whole: bool) -> list[float | None]:
        keys, args = self._request(counters, now, whole)
        return self._frees(self.script(keys=keys, args=args), counters)

    async def count_async(
        self, counters: list[Counter], now: float, whole: bool
    ) -> list[float | None]:
        if self.async_settings is None:
            return await asyncio.to_thread(self.count, counters, now, whole)
        keys, args = self._request(counters, now, whole)
        return self._frees(await self._async_script()(keys=keys, args=args), counters)

    def _async_script(self) -> Any:
        """The counting script on this event loop's asyncio client (made at its first use)."""
        loop = asyncio.get_running_loop()
        script = self.async_scripts.get(loop)
        if script is None:
            assert self.async_settings is not None
            # Blocking: a burst of messages past the pool's connections waits for one (a
            # script takes a fraction of a millisecond) rather than failing, and so going
            # uncounted, as redis-py's default pool does past its hundredth connection.
            pool = redis.asyncio.BlockingConnectionPool(
                max_connections=ASYNC_CONNECTIONS, timeout=ASYNC_WAIT_SECONDS, **self.async_settings
            )
            client = redis.asyncio.Redis(connection_pool=pool)
            script = self.async_scripts[loop] = client.register_script(_COUNT_SCRIPT)
        return script

    def _request(self, counters: list[Counter], now: float, whole: bool) -> tuple[list, list]:
        keys = [self.cache.make_key(key) for key, _, _ in counters]
        args: list[Any] = [repr(now), f"{now!r}:{uuid.uuid4().hex[:12]}", "1" if whole else "0"]
        for _, requests, duration in counters:
            args += [requests, duration]
        return keys, args

    @staticmethod
    def _frees(answers: list[Any], counters: list[Counter]) -> list[float | None]:
        return [
            None if not answer else float(answer) + duration
            for answer, (_, _, duration) in zip(answers, counters, strict=True)
        ]


class LockedWindows:
    """Sliding windows in any other cache (the local-memory one of a server without Redis):
    lists of request times, read and written under this process's lock, so that counting is
    atomic among the process's threads (such a cache is the process's own anyway)."""

    _lock = threading.Lock()

    def __init__(self, cache: Any) -> None:
        self.cache = cache

    def count(self, counters: list[Counter], now: float, whole: bool) -> list[float | None]:
        answers: list[float | None] = []
        with self._lock:
            histories = self.cache.get_many([key for key, _, _ in counters])
            writes: dict[int, dict[str, list[float]]] = {}
            for key, requests, duration in counters:
                history = [t for t in histories.get(key) or [] if t > now - duration]
                if len(history) >= requests:
                    answers.append(history[requests - 1] + duration)  # newest first
                else:
                    answers.append(None)
                    writes.setdefault(duration, {})[key] = [now, *history]
            if whole and any(answer is not None for answer in answers):
                return answers
            for duration, values in writes.items():
                self.cache.set_many(values, duration)
        return answers

    async def count_async(
        self, counters: list[Counter], now: float, whole: bool
    ) -> list[float | None]:
        """`count`, in place: the process's memory, held for a moment under the lock."""
        return self.count(counters, now, whole)


_windows: dict[int, tuple[Any, RedisWindows | LockedWindows]] = {}


def windows_of(cache: Any) -> RedisWindows | LockedWindows:
    """The counting of `cache`: in Redis itself for django-redis, under a lock otherwise."""
    found = _windows.get(id(cache))
    if found is None or found[0] is not cache:
        client = getattr(cache, "client", None)
        kind = RedisWindows if callable(getattr(client, "get_client", None)) else LockedWindows
        found = _windows[id(cache)] = (cache, kind(cache))
    return found[1]
