"""Throttling per player, per IP address and per network, by scope (`starts`, `moves`, ...).

A view names its scope (`throttle_scope = "moves"`) and uses `THROTTLE_CLASSES` (one throttle,
`ScopeThrottle`, for every kind); the rates are the settings'
`REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]` entries `<scope>_player`, `<scope>_ip` and
`<scope>_net`, e.g. `"moves_player": "600/min"`. A kind without a rate for the scope does not
throttle it. A request without a player yet is counted by its address only (the guest it
creates is new), and, where the view would make a guest of it, in the `guests` scope too. The
address is the one infra/addresses.py trusts; the network, its IPv4 /24 or IPv6 /64. Rates are
read on every request, so tests can change them with the `settings` fixture.

Each counter is a sliding window of request times, counted atomically (`count`, with the
windows of infra/ratewindows.py): in Redis by one script for all the counters of a request
(one round trip), in another cache (the local memory of a server without Redis) under a lock of
the process. Parallel requests can no longer pass together on counts read before the others
wrote theirs.

When the cache fails, throttles let the request through ("fail open": play matters more than
rate limits; PostgreSQL holds every game) and log a warning at most once a minute; they count
again as soon as the cache answers.
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

from games.api import identity
from infra import addresses
from infra.ratewindows import Counter, windows_of
from infra.redis import REDIS_ERRORS

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
    request comes from), the client address (infra/addresses.py) and its network (/24 or /64).
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
