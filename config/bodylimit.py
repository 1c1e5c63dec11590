"""Refuse oversized request bodies before Django reads them (pure ASGI middleware).

Under ASGI, Django reads a request's whole body into a spooled temporary file before any
middleware or view runs, so a view's own size check comes after the disk has filled. This
wrapper (config/asgi.py) answers 413 first:

- a declared Content-Length above the limit: at once, without reading any of the body;
- a body without Content-Length (chunked): it counts the bytes as they arrive, holding at most
  the limit in memory, and answers 413 as soon as the count passes the limit. A body within the
  limit is handed on to Django unchanged.

The limits, in bytes, by path: `API_MAX_BODY_BYTES` for /api/ (16 KiB), `ADMIN_MAX_BODY_BYTES`
for /admin/ (1 MiB), `MAX_BODY_BYTES` for everything else (64 KiB), all in config/settings.py.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

DEFAULT_LIMITS = {"api": 16 * 1024, "admin": 1024 * 1024, "other": 64 * 1024}


def body_limit(path: str) -> int:
    """The largest body accepted for `path`, from the settings."""
    from django.conf import settings

    if path.startswith("/api/"):
        return int(getattr(settings, "API_MAX_BODY_BYTES", DEFAULT_LIMITS["api"]))
    if path.startswith("/admin/"):
        return int(getattr(settings, "ADMIN_MAX_BODY_BYTES", DEFAULT_LIMITS["admin"]))
    return int(getattr(settings, "MAX_BODY_BYTES", DEFAULT_LIMITS["other"]))


def _content_length(scope: Scope) -> int | None:
    for name, value in scope.get("headers", []):
        if name.lower() == b"content-length":
            text = value.decode("latin-1").strip()
            return int(text) if text.isdigit() else None
    return None


async def _too_large(scope: Scope, send: Send, limit: int) -> None:
    path = scope.get("path", "")
    if path.startswith("/api/"):
        body = json.dumps(
            {"code": "too_large", "detail": f"A request body has at most {limit} bytes."}
        ).encode()
        content_type = b"application/json"
    else:
        body = f"Request body too large: at most {limit} bytes.\n".encode()
        content_type = b"text/plain; charset=utf-8"
    await send(
        {
            "type": "http.response.start",
            "status": 413,
            "headers": [
                (b"content-type", content_type),
                (b"content-length", str(len(body)).encode()),
                # The rest of the body is not read: the connection cannot be reused.
                (b"connection", b"close"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body, "more_body": False})


class BodySizeLimitMiddleware:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = body_limit(scope.get("path", ""))
        declared = _content_length(scope)
        if declared is not None:
            if declared > limit:
                await _too_large(scope, send, limit)
                return
            # The server delivers no more than the declared length.
            await self.app(scope, receive, send)
            return

        # No declared length: read up to the limit here, then replay it to the app.
        received: list[Message] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":  # http.disconnect: the client went away
                received.append(message)
                break
            size += len(message.get("body", b""))
            if size > limit:
                await _too_large(scope, send, limit)
                return
            received.append(message)
            if not message.get("more_body", False):
                break

        async def replay() -> Message:
            if received:
                return received.pop(0)
            return await receive()

        await self.app(scope, replay, send)
