"""Every request body read whole, small and in time, before Django (pure ASGI middleware).

Under ASGI, Django reads a request's whole body into a spooled temporary file before any
middleware or view runs, so a view's own size check comes after the disk has filled; and it
reads it inside the request's slot (config/concurrency.py), so a client that sends its body one
byte at a time held a slot as long as it liked: twenty such clients held every slot of a
process. This wrapper (config/asgi.py) reads the body first, outside any slot:

- a declared Content-Length above the limit: 413 at once, without reading any of the body;
- otherwise it reads the body as it arrives (chunked or not), holding at most the limit in
  memory, and answers 413 as soon as the count passes the limit;
- the whole body must arrive within `REQUEST_BODY_SECONDS` (a setting, 10 s) of the request's
  start: else 408, and the connection is closed.

A body within the limit and on time is handed on to Django unchanged. A slow client then costs
its connection only; the server bounds a request's head in size and time (config/serving.py),
and the reverse proxy in front the connections of each client (docs/deployment.md).

The limits, in bytes, by path: `API_MAX_BODY_BYTES` for /api/ (16 KiB), `ADMIN_MAX_BODY_BYTES`
for /admin/ (1 MiB), `MAX_BODY_BYTES` for everything else (64 KiB), all in config/settings.py.
"""

from __future__ import annotations

import asyncio
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


def _answer(scope: Scope, code: str, detail: str) -> tuple[bytes, bytes]:
    if scope.get("path", "").startswith("/api/"):
        return json.dumps({"code": code, "detail": detail}).encode(), b"application/json"
    return f"{detail}\n".encode(), b"text/plain; charset=utf-8"


async def _refuse(scope: Scope, send: Send, status: int, code: str, detail: str) -> None:
    body, content_type = _answer(scope, code, detail)
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", content_type),
                (b"content-length", str(len(body)).encode()),
                # The rest of the body is not read: the connection cannot be reused.
                (b"connection", b"close"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body, "more_body": False})


async def _too_large(scope: Scope, send: Send, limit: int) -> None:
    await _refuse(scope, send, 413, "too_large", f"A request body has at most {limit} bytes.")


def body_seconds() -> float:
    """Seconds a request's whole body may take to arrive, from the settings."""
    from django.conf import settings

    return float(getattr(settings, "REQUEST_BODY_SECONDS", 10.0))


async def _too_slow(scope: Scope, send: Send, seconds: float) -> None:
    await _refuse(
        scope,
        send,
        408,
        "request_timeout",
        f"The request body did not arrive within {seconds:g} seconds.",
    )


class BodySizeLimitMiddleware:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = body_limit(scope.get("path", ""))
        declared = _content_length(scope)
        if declared is not None and declared > limit:
            await _too_large(scope, send, limit)
            return

        received: list[Message] = []
        seconds = body_seconds()
        try:
            async with asyncio.timeout(seconds):
                size = 0
                while True:
                    message = await receive()
                    if message["type"] != "http.request":  # http.disconnect: the client left
                        received.append(message)
                        break
                    size += len(message.get("body", b""))
                    if size > limit:
                        await _too_large(scope, send, limit)
                        return
                    received.append(message)
                    if not message.get("more_body", False):
                        break
        except TimeoutError:
            await _too_slow(scope, send, seconds)
            return

        async def replay() -> Message:
            if received:
                return received.pop(0)
            return await receive()

        await self.app(scope, replay, send)
