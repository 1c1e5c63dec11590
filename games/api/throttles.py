"""Throttling per player and per IP address, by scope (`starts`, `moves`, `accounts`).

A view names its scope (`throttle_scope = "moves"`); the rates are the settings'
`REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]` entries `<scope>_player` and `<scope>_ip`, e.g.
`"moves_player": "600/min"`. A scope without a rate is not throttled. A request without a
player yet is counted by its IP address only (the guest it creates is new). Rates are read on
every request, so tests can change them with the `settings` fixture.
"""

from __future__ import annotations

from typing import Any

from rest_framework.settings import api_settings
from rest_framework.throttling import SimpleRateThrottle

from games.api import identity


class _ScopeThrottle(SimpleRateThrottle):
    kind = ""  # "player" or "ip"
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
        return super().allow_request(request, view)

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
