"""Throttling per player, per IP address and per network, by scope (`starts`, `moves`, ...).

A view names its scope (`throttle_scope = "moves"`) and uses `THROTTLE_CLASSES` (one throttle,
`ScopeThrottle`, for every kind: two cache round trips a request); the rates are
the settings' `REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]` entries `<scope>_player`, `<scope>_ip`
and `<scope>_net`, e.g. `"moves_player": "600/min"`. A kind without a rate for the scope does
not throttle it. A request without a player yet is counted by its address only (the guest it
creates is new). The network is the client's IPv4 /24 or IPv6 /64: one household, office or
host whose addresses are all alike. Rates are read on every request, so tests can change them
with the `settings` fixture.

The counters live in the cache (Redis in production). When the cache fails, throttles let the
request through ("fail open": play matters more than rate limits; PostgreSQL holds every game)
and log a warning at most once a minute; they count again as soon as the cache answers.
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Any

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


class ScopeThrottle(SimpleRateThrottle):
    """Counts a request of the view's scope once per kind with a rate: the player (wherever the
    request comes from), the IP address (REMOTE_ADDR, or the client address that NUM_PROXIES
    trusted proxies put in X-Forwarded-For) and the network (that address widened to its /24 or
    /64). The request is refused when any kind is over its rate; the kinds that allowed it
    count it all the same, as separate throttles would.

    A sliding window per counter, as DRF's `SimpleRateThrottle` (whose rate format, clock and
    key format it takes): the times of the requests of the last `duration` seconds, newest
    first. All the counters of a request are read with one
    `get_many` and written with one `set_many` per window length (one in practice): two cache
    round trips whatever the number of kinds.
    """

    cache: Any = None  # None: the process's `shared_cache()`

    def __init__(self) -> None:  # the rates depend on the view: see `counters`
        self.refused: list[tuple[list[float], int, int]] = []  # (history, requests, duration)
        self.now = 0.0

    def counters(self, request: Any, base: str) -> list[tuple[str, int, int]]:
        """(cache key, requests allowed, window in seconds) of each kind with a rate."""
        found = []
        for kind in KINDS:
            scope = f"{base}_{kind}"
            rate = api_settings.DEFAULT_THROTTLE_RATES.get(scope)
            if rate is None:
                continue
            ident = self._ident(request, kind)
            if ident is None:
                continue
            requests, duration = self.parse_rate(rate)
            found.append((self.cache_format % {"scope": scope, "ident": ident}, requests, duration))
        return found

    def _ident(self, request: Any, kind: str) -> str | None:
        if kind == "player":
            player = identity.current_player(request)
            # A first visit has no player yet: the address counts it (the guest it creates is new).
            return None if player is None else f"p{player.pk}"
        address = addresses.request_address(request)
        if kind == "ip":
            return address or None
        return addresses.network_of(address) if address else None

    def allow_request(self, request: Any, view: Any) -> bool:
        base = getattr(view, "throttle_scope", None)
        if not base:
            return True
        counters = self.counters(request, base)
        if not counters:
            return True
        cache = self.cache if self.cache is not None else shared_cache()
        try:
            histories = cache.get_many([key for key, _, _ in counters])
            self.now = now = self.timer()
            writes: dict[int, dict[str, list[float]]] = {}
            for key, requests, duration in counters:
                history = [t for t in histories.get(key) or [] if t > now - duration]
                if len(history) >= requests:
                    self.refused.append((history, requests, duration))
                else:
                    writes.setdefault(duration, {})[key] = [now, *history]
            for duration, values in writes.items():
                cache.set_many(values, duration)
        except CACHE_ERRORS as exc:  # the cache is down: let the request through
            _warn_degraded(exc)
            return True
        return not self.refused

    def wait(self) -> float:
        """Seconds until every refusing counter allows again: until enough of its counted
        requests are older than its window (DRF's estimate gives up when rates were lowered)."""
        return max(
            max(0.0, duration - (self.now - history[requests - 1]))
            for history, requests, duration in self.refused
        )


#: The throttles of every API view, by the view's `throttle_scope`.
THROTTLE_CLASSES: list[type[BaseThrottle]] = [ScopeThrottle]
