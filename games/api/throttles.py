"""Throttling per player, per IP address and per network, by scope (`starts`, `moves`, ...).

A view names its scope (`throttle_scope = "moves"`) and uses `THROTTLE_CLASSES`; the rates are
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

import ipaddress
import logging
import threading
import time
from typing import Any

from rest_framework.settings import api_settings
from rest_framework.throttling import SimpleRateThrottle

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


class _ScopeThrottle(SimpleRateThrottle):
    kind = ""  # "player", "ip" or "net"
    cache_format = "throttle_%(scope)s_%(ident)s"

    def __init__(self) -> None:  # the rate depends on the view: see allow_request
        pass

    def allow_request(self, request: Any, view: Any) -> bool:
        base = getattr(view, "throttle_scope", None)
        if not base:
            return True
        self.scope = f"{base}_{self.kind}"
        self.rate = api_settings.DEFAULT_THROTTLE_RATES.get(self.scope)
        if self.rate is None:
            return True
        self.num_requests, self.duration = self.parse_rate(self.rate)
        try:
            return super().allow_request(request, view)
        except CACHE_ERRORS as exc:  # the cache is down: let the request through
            _warn_degraded(exc)
            return True

    def wait(self) -> float:
        """Seconds until the next request is allowed: until enough of the counted requests
        are older than the window (DRF's estimate gives up when rates were lowered)."""
        if len(self.history) >= self.num_requests:
            blocking = self.history[self.num_requests - 1]
            return max(0.0, self.duration - (self.now - blocking))
        return super().wait()


class PlayerRateThrottle(_ScopeThrottle):
    """Counts a player's requests of a scope, wherever they come from."""

    kind = "player"

    def get_cache_key(self, request: Any, view: Any) -> str | None:
        player = identity.current_player(request)
        if player is None:
            return None  # a first visit: the IP throttle counts it
        return self.cache_format % {"scope": self.scope, "ident": f"p{player.pk}"}


class IPRateThrottle(_ScopeThrottle):
    """Counts the requests of a scope from one IP address (REMOTE_ADDR, or the client address
    that NUM_PROXIES trusted proxies put in X-Forwarded-For)."""

    kind = "ip"

    def get_cache_key(self, request: Any, view: Any) -> str | None:
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


def network_of(address: str) -> str:
    """The /24 (IPv4) or /64 (IPv6) network of an address; the text itself if it is none."""
    try:
        ip = ipaddress.ip_address(address.strip())
    except ValueError:
        return address.strip()
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    prefix = 24 if ip.version == 4 else 64
    return str(ipaddress.ip_network(f"{ip}/{prefix}", strict=False))


class NetworkRateThrottle(_ScopeThrottle):
    """Counts the requests of a scope from one network: the client address (as for
    `IPRateThrottle`) widened to its /24 (IPv4) or /64 (IPv6)."""

    kind = "net"

    def get_cache_key(self, request: Any, view: Any) -> str | None:
        ident = self.get_ident(request)
        if not ident:
            return None
        return self.cache_format % {"scope": self.scope, "ident": network_of(ident)}


#: The throttles of every API view, by the view's `throttle_scope`.
THROTTLE_CLASSES: list[type[_ScopeThrottle]] = [
    PlayerRateThrottle,
    IPRateThrottle,
    NetworkRateThrottle,
]
