"""A request's id, from the edge to every log line it causes (docs/deployment.md, "Errors and
logs").

- The edge sends `X-Request-ID`: the client's own, or nginx's `$request_id` when it sent none
  (deploy/nginx/patience.conf.template).
- `RequestIdMiddleware` (ASGI, outermost: config/asgi.py) takes it when it is sane (1 to 64 of
  `[A-Za-z0-9._-]`), else makes one (32 hex digits), and keeps it in a context variable for the
  request, or for a WebSocket's whole life (its consumer's tasks start in that context); an HTTP
  answer carries it back in its own `X-Request-ID` header.
- `RequestIdFilter`, on the log handler (config/settings.py LOGGING), writes it into every
  record as `request_id` ("-" outside any request), which both log formats show.
- A Celery task published meanwhile carries it in a header of its message (`before_publish`);
  the worker restores it while the task runs (`task_started`, `task_ended`): config/celery.py
  connects them. An eager task runs in the publisher's context and keeps it as it is.

Django's synchronous work runs in a thread, in a copy of the request's context (asgiref), so
the view's log lines, and the tasks it publishes, see the id too.
"""

from __future__ import annotations

import logging
import re
import uuid
from collections.abc import Awaitable, Callable, MutableMapping
from contextvars import ContextVar
from typing import Any

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]

HEADER = b"x-request-id"
#: The name of the Celery message header that carries it.
TASK_HEADER = "request_id"
SANE = re.compile(r"[A-Za-z0-9._-]{1,64}")

_current: ContextVar[str | None] = ContextVar("request_id", default=None)


def current() -> str | None:
    """The id of the request (or socket, or task) being served, if any."""
    return _current.get()


def sane(value: Any) -> str | None:
    """`value` when it may be used as an id, else None."""
    if isinstance(value, bytes):
        try:
            value = value.decode("ascii")
        except UnicodeDecodeError:
            return None
    return value if isinstance(value, str) and SANE.fullmatch(value) else None


def new_id() -> str:
    return uuid.uuid4().hex


class RequestIdMiddleware:
    """See the module: the id of each HTTP request and WebSocket, in the context of its work."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        given = next((value for name, value in scope.get("headers", []) if name == HEADER), None)
        request_id = sane(given) or new_id()
        token = _current.set(request_id)
        try:
            if scope["type"] == "http":
                await self.app(scope, receive, _answering(send, request_id.encode()))
            else:
                await self.app(scope, receive, send)
        finally:
            _current.reset(token)


def _answering(send: Send, request_id: bytes) -> Send:
    async def with_id(message: Message) -> None:
        if message["type"] == "http.response.start":
            headers = [(k, v) for k, v in message.get("headers", []) if k.lower() != HEADER]
            message = {**message, "headers": [*headers, (HEADER, request_id)]}
        await send(message)

    return with_id


class RequestIdFilter(logging.Filter):
    """On the log handler: every record gets `request_id` ("-" outside a request)."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.request_id = _current.get() or "-"
        return True


# -- Celery (connected in config/celery.py) ------------------------------------------------------


def before_publish(headers: dict[str, Any] | None = None, **kwargs: Any) -> None:
    """`before_task_publish`: the message of a task published during a request carries its
    id."""
    request_id = _current.get()
    if request_id is not None and headers is not None:
        headers.setdefault(TASK_HEADER, request_id)


def task_started(task: Any = None, **kwargs: Any) -> None:
    """`task_prerun`, in the worker: the task's log lines carry the id its message brought."""
    request = getattr(task, "request", None)
    if request is None or getattr(request, "is_eager", False):
        return  # run inline: the publisher's context is this one
    _current.set(sane(getattr(request, TASK_HEADER, None)))


def task_ended(task: Any = None, **kwargs: Any) -> None:
    """`task_postrun`: the next task starts without it."""
    request = getattr(task, "request", None)
    if request is not None and not getattr(request, "is_eager", False):
        _current.set(None)
