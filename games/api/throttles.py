"""Throttling per player, per IP address and per network, by scope (`starts`, `moves`, ...).

A view names its scope (`throttle_scope = "moves"`) and uses `THROTTLE_CLASSES` (one throttle,
`ScopeThrottle`, for every kind); the rates are the settings'
`REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]` entries `<scope>_player`, `<scope>_ip` and
`<scope>_net`, e.g. `"moves_player": "600/min"`. A kind without a rate for the scope does not
throttle it. A request without a player yet is counted by its address only (the guest it
creates is new), and, where the view would make a guest of it, in the `guests` scope too. The
address is the one games/addresses.py trusts; the network, its IPv4 /24 or IPv6 /64. Rates are
read on every request, so tests can change them with the `settings` fixture.

Each counter is a sliding window of request times, counted atomically (`count`): in Redis by
one script for all the counters of a request (one round trip), in another cache (the local
memory of a server without Redis) under a lock of the process. Parallel requests can no longer
pass together on counts read before the others wrote theirs.

When the cache fails, throttles let the request through ("fail open": play matters more than
rate limits; PostgreSQL holds every game) and log a warning at most once a minute; they count
again as soon as the cache answers.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
import uuid
import weakref
from typing import Any

import redis
import redis.asyncio
from django.core.cache import caches
from django.core.signals import setting_changed
from django.dispatch import receiver
from rest_framework.settings import api_settings
from rest_framework.throttling import BaseThrottle, SimpleRateThrottle

from games import addresses
from games.api import identity
from games.errors import REDIS_ERRORS

logger = logging.getLogger(__name__)

#: What a cache that cannot be reached raises (django-redis raises none with IGNORE_EXCEPTIONS,
#: as configured; these cover a cache configured otherwise). A database error, say while the
#: player is looked up, is not one of them: it goes on to the 503 of the database's absence.
CACHE_ERRORS = REDIS_ERRORS

#: Seconds between two "throttles degraded" warnings.
DEGRADED_WARNING_INTERVAL = 60.0

_degraded_lock = threading.Lock()
_degraded_warned_at: float | None = None


def _warn_degraded(exc: BaseException) -> None:
    global _degraded_warned_at
    now = time.monotonic()
    with _degraded_lock:
        if (
            _degraded_warned_at is not None
            and now - _degraded_warned_at < DEGRADED_WARNING_INTERVAL
        ):
            return
        _degraded_warned_at = now
    logger.warning("throttles degraded: cache unavailable (%s: %s)", type(exc).__name__, exc)


_shared_caches: dict[str, Any] = {}


def shared_cache() -> Any:
    """The default cache as one object for the whole process. Under ASGI, Django's `caches`
    hands each request an object of its own (the handler is local to the request's context),
    and django-redis builds a new Redis client for each, a cost paid on every request; the
    backends are safe to share between threads, so the throttles share one."""
    cache = _shared_caches.get("default")
    if cache is None:
        cache = _shared_caches.setdefault("default", caches.create_connection("default"))
    return cache


@receiver(setting_changed)
def _forget_shared_cache(*, setting: str, **kwargs: Any) -> None:
    if setting == "CACHES":
        _shared_caches.clear()


#: The kinds of counter, in the order they are checked.
KINDS = ("player", "ip", "net")

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


#: An event loop's connections to count on, and how long a count waits for one to be free when
#: the cache's settings give no socket timeout.
ASYNC_CONNECTIONS = 100
ASYNC_WAIT_SECONDS = 1.0


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
                max_connections=ASYNC_CONNECTIONS,
                timeout=self.async_settings.get("socket_timeout") or ASYNC_WAIT_SECONDS,
                **self.async_settings,
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


def count(
    counters: list[Counter], *, cache: Any = None, now: float | None = None, whole: bool = False
) -> float:
    """Count one request in every counter: 0.0 when all had room, else the seconds until every
    refusing counter has room again. A refused request is counted by the counters with room
    all the same, as separate throttles would, unless `whole` (all or nothing: counted only
    when every counter lets it through). 0.0 too when the cache fails (logged at most once a
    minute): play matters more than rate limits."""
    if not counters:
        return 0.0
    cache = cache if cache is not None else shared_cache()
    now = ScopeThrottle.timer() if now is None else now
    try:
        frees = windows_of(cache).count(counters, now, whole)
    except CACHE_ERRORS as exc:  # the cache is down: let the request through
        _warn_degraded(exc)
        return 0.0
    return _longest_wait(frees, now)


async def count_async(
    counters: list[Counter], *, cache: Any = None, now: float | None = None, whole: bool = False
) -> float:
    """`count` from an event loop, awaited instead of blocking it (the same counters, the same
    answer, the same letting through when the cache fails)."""
    if not counters:
        return 0.0
    cache = cache if cache is not None else shared_cache()
    now = ScopeThrottle.timer() if now is None else now
    try:
        frees = await windows_of(cache).count_async(counters, now, whole)
    except CACHE_ERRORS as exc:  # the cache is down: let the request through
        _warn_degraded(exc)
        return 0.0
    return _longest_wait(frees, now)


def _longest_wait(frees: list[float | None], now: float) -> float:
    waits = [max(0.001, free - now) for free in frees if free is not None]
    return max(waits, default=0.0)


def counters_for(base: str, idents: dict[str, str | None]) -> list[Counter]:
    """The counters of scope `base` for the idents of each kind (`KINDS`), of the kinds with a
    rate (`<base>_<kind>` in the settings) and an ident."""
    found = []
    for kind in KINDS:
        scope = f"{base}_{kind}"
        rate = api_settings.DEFAULT_THROTTLE_RATES.get(scope)
        ident = idents.get(kind)
        if rate is None or not ident:
            continue
        requests, duration = ScopeThrottle().parse_rate(rate)
        found.append(
            (ScopeThrottle.cache_format % {"scope": scope, "ident": ident}, requests, duration)
        )
    return found


def client_idents(player_id: int | None, address: str) -> dict[str, str | None]:
    """The ident of each kind for a player (None: none yet) at a client address."""
    return {
        "player": None if player_id is None else f"p{player_id}",
        "ip": address or None,
        "net": addresses.network_of(address) if address else None,
    }


class ScopeThrottle(SimpleRateThrottle):
    """Counts a request of the view's scope once per kind with a rate: the player (wherever the
    request comes from), the client address (games/addresses.py) and its network (/24 or /64).
    The request is refused when any kind is over its rate; the kinds that allowed it count it
    all the same, as separate throttles would. A view that may make a guest of a request
    without a player (`creates_guest = True`) counts it in the "guests" scope as well: starting
    a game as a new guest is creating a guest.

    A sliding window per counter, as DRF's `SimpleRateThrottle` (whose rate format and key
    format it takes), counted atomically (`count`): one cache round trip a request, whatever
    the number of kinds, and parallel requests cannot pass together on a count each read
    before the other wrote.
    """

    cache: Any = None  # None: the process's `shared_cache()`

    def __init__(self) -> None:  # the rates depend on the view: see `counters`
        self.waiting = 0.0

    def counters(self, request: Any, view: Any) -> list[Counter]:
        base = getattr(view, "throttle_scope", None)
        if not base:
            return []
        player = identity.current_player(request)
        idents = client_idents(
            None if player is None else player.pk, addresses.request_address(request)
        )
        found = counters_for(base, idents)
        if player is None and getattr(view, "creates_guest", False) and base != GUESTS:
            found += counters_for(GUESTS, idents)
        return found

    def allow_request(self, request: Any, view: Any) -> bool:
        self.waiting = count(self.counters(request, view), cache=self.cache)
        return self.waiting == 0.0

    def wait(self) -> float:
        """Seconds until every refusing counter has room again (DRF's estimate gives up when
        rates were lowered)."""
        return self.waiting


#: The scope of creating a guest.
GUESTS = "guests"


def scope_wait(base: str, *, player_id: int | None, address: str) -> float:
    """Count one request of scope `base` outside a DRF view: 0.0 when let through, else the
    seconds to wait, as `ScopeThrottle` counts a view's requests."""
    return count(counters_for(base, client_idents(player_id, address)), cache=ScopeThrottle.cache)


async def scope_wait_async(base: str, *, player_id: int | None, address: str) -> float:
    """`scope_wait` from an event loop (a socket's message): the same counters, awaited."""
    return await count_async(
        counters_for(base, client_idents(player_id, address)), cache=ScopeThrottle.cache
    )


#: The throttles of every API view, by the view's `throttle_scope`.
THROTTLE_CLASSES: list[type[BaseThrottle]] = [ScopeThrottle]
