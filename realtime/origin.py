"""The WebSocket origin check: a browser's socket must come from the site's own origin.

Channels' AllowedHostsOriginValidator (config/asgi.py) accepts any Origin whose host name is in
ALLOWED_HOSTS, whatever its port, so a page on another port of the same host could open a play
socket with the player's cookie (SameSite treats it as the same site). `SameOriginValidator`,
inside it, also wants the Origin's host and port to be the Host the socket was opened to, or
the origin to be one of CSRF_TRUSTED_ORIGINS. A handshake without Origin (not a browser) passes,
as for HTTP (config/middleware.py).
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from channels.security.websocket import WebsocketDenier
from django.conf import settings


def _header(scope: dict[str, Any], name: bytes) -> str | None:
    for key, value in scope.get("headers", []):
        if key.lower() == name:
            return value.decode("latin-1")
    return None


def origin_allowed(origin: str, host: str | None) -> bool:
    try:
        parts = urlsplit(origin.strip())
    except ValueError:
        return False
    if parts.scheme not in {"http", "https"} or not parts.netloc:
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


class SameOriginValidator:
    def __init__(self, application: Any) -> None:
        self.application = application

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        if scope["type"] == "websocket":
            origin = _header(scope, b"origin")
            if origin is not None and not origin_allowed(origin, _header(scope, b"host")):
                denier = WebsocketDenier()
                return await denier(scope, receive, send)
        return await self.application(scope, receive, send)
