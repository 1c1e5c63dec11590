"""Django's ASGI handler with one thread hop per request for a synchronous stack.

Every middleware of the project and every view of its pages and API is synchronous. Django's
own ASGI handler then runs the middleware chain in a worker thread, comes back to the event
loop for the innermost step (URL resolution and `process_view`) and goes to the thread once
more for the view: three hand-overs between the loop and the thread per request, each a
future, a wake-up of each side and a switch of the GIL, under load a sizeable share of a
request. This handler builds the chain in Django's synchronous mode (as under WSGI: the
middleware, the view and its middleware hooks in one call) and runs that call in the request's
thread once. An async-only middleware or an async view would still work: Django adapts each
in the synchronous chain, as it does under WSGI.
"""

from __future__ import annotations

from typing import Any

from asgiref.sync import sync_to_async
from django.core.handlers.asgi import ASGIHandler


class SyncStackASGIHandler(ASGIHandler):
    def load_middleware(self, is_async: bool = False) -> None:
        super().load_middleware(is_async=False)
        chain: Any = getattr(self, "_middleware_chain")  # noqa: B009 - set by Django, untyped here
        self._middleware_chain = sync_to_async(chain, thread_sensitive=True)
