"""Django's ASGI handler with one thread hop per request for a synchronous stack, on threads
kept for the next request.

Every middleware of the project and every view of its pages and API is synchronous. Django's
own ASGI handler then runs the middleware chain in a worker thread, comes back to the event
loop for the innermost step (URL resolution and `process_view`) and goes to the thread once
more for the view: three hand-overs between the loop and the thread per request, each a
future, a wake-up of each side and a switch of the GIL, under load a sizeable share of a
request. This handler builds the chain in Django's synchronous mode (as under WSGI: the
middleware, the view and its middleware hooks in one call) and runs that call in the request's
thread once. An async-only middleware or an async view would still work: Django adapts each
in the synchronous chain, as it does under WSGI.

The request's thread: Django gives every request a thread of its own (a new single-thread
executor per request, in `ThreadSensitiveContext`), started for it and joined after it, which
cost a thread's start and join per request (a tenth of a busy server's CPU at the daily
rollover). Here each request borrows a thread that is kept: a single-thread executor from this
handler's idle ones, or a new one when none is idle (so there are never more than requests
served at once: `HTTP_CONCURRENCY`, config/concurrency.py), given back when the request is
done. The request's synchronous work (the `request_started` and `request_finished` receivers,
the chain, closing the response) still runs in that one thread, as Django's own handler runs
it; `request_finished` gives the thread's database connection back to the pool, so a kept
thread holds none between requests.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Any

from asgiref.sync import ThreadSensitiveContext, sync_to_async
from django.core.handlers.asgi import ASGIHandler


class SyncStackASGIHandler(ASGIHandler):
    def __init__(self) -> None:
        super().__init__()
        #: Single-thread executors of finished requests, ready for the next ones.
        self._idle: list[ThreadPoolExecutor] = []

    def load_middleware(self, is_async: bool = False) -> None:
        super().load_middleware(is_async=False)
        chain: Any = getattr(self, "_middleware_chain")  # noqa: B009 - set by Django, untyped here
        self._middleware_chain = sync_to_async(chain, thread_sensitive=True)

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":  # as Django's own handler
            raise ValueError(f"Django can only handle ASGI/HTTP connections, not {scope['type']}.")
        thread = self._idle.pop() if self._idle else self._new_thread()
        try:
            async with ThreadSensitiveContext(executor=thread):
                await self.handle(scope, receive, send)
        finally:
            self._idle.append(thread)

    def _new_thread(self) -> ThreadPoolExecutor:
        return ThreadPoolExecutor(max_workers=1, thread_name_prefix="request")
