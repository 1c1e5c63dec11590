"""The WebSocket origin check: a browser's socket must come from the site's own origin.

A browser sends the page's `Origin` with every WebSocket handshake, and the cookies of the
site it connects to whatever page opened it: without this check another site's page could
open a play socket with a player's cookie. A handshake passes when

- it has no `Origin` (not a browser: a script, a test, a native client): as for HTTP
  (config/middleware.py), a client that is not a browser can write any Origin it likes, so
  refusing one without it would stop honest scripts and no attacker;
- or its Origin's host is one of ALLOWED_HOSTS and the Origin is the Host the socket was opened
  to (scheme aside, port included), or one of CSRF_TRUSTED_ORIGINS. SameSite cookies treat
  another port of the same host as the same site; the Origin does not.

A refused handshake is accepted, then closed at once with code 4403 (`refuse_handshake`),
before anything is read or sent: closed before the handshake, the refusal reached clients as
an HTTP 403 and close code 1006, so they could not tell it from a network failure and never
stopped retrying.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.http.request import split_domain_port, validate_host

from realtime.sockets import CLOSE_FORBIDDEN, refuse_handshake


def _header(scope: dict[str, Any], name: bytes) -> str | None:
    for key, value in scope.get("headers", []):
        if key.lower() == name:
            return value.decode("latin-1")
    return None


def _allowed_hosts() -> list[str]:
    hosts = list(settings.ALLOWED_HOSTS)
    if settings.DEBUG and not hosts:  # as Django and Channels do
        hosts = ["localhost", "127.0.0.1", "[::1]"]
    return hosts


def origin_allowed(origin: str, host: str | None) -> bool:
    try:
        parts = urlsplit(origin.strip())
    except ValueError:
        return False
    if parts.scheme not in {"http", "https"} or not parts.netloc or not parts.hostname:
        return False
    domain, _ = split_domain_port(parts.netloc.lower())
    if not validate_host(domain, _allowed_hosts()):
        return False
    netloc = parts.netloc.lower()
    if host is None:  # nothing to compare with (HTTP/1.1 always sends Host)
        return True
    if netloc == host.strip().lower():
        return True
    for entry in settings.CSRF_TRUSTED_ORIGINS:
        trusted = urlsplit(entry.strip())
        if trusted.scheme.lower() != parts.scheme:
            continue
        if trusted.netloc.lower() == netloc:
            return True
        if trusted.netloc.startswith("*.") and netloc.endswith(trusted.netloc.lower()[1:]):
            return True
    return False


def handshake_allowed(scope: dict[str, Any]) -> bool:
    origin = _header(scope, b"origin")
    return origin is None or origin_allowed(origin, _header(scope, b"host"))


class SameOriginValidator:
    """ASGI middleware of the "websocket" protocol: `handshake_allowed`, else 4403."""

    def __init__(self, application: Any) -> None:
        self.application = application

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        if scope["type"] == "websocket" and not handshake_allowed(scope):
            await refuse_handshake(receive, send, CLOSE_FORBIDDEN)
            return None
        return await self.application(scope, receive, send)
