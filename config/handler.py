"""Django's ASGI handler with one thread hop per request for a synchronous stack, on threads
kept for the next request.

Every middleware of the project and every view of its pages and API is synchronous. Django's
own ASGI handler hands a request's work between the event loop and a worker thread several
times: the `request_started` receivers, the middleware chain (and, with the chain in async
mode, once more for URL resolution and again for the view), then closing the response (the
`request_finished` receivers); each hand-over is a future, a wake-up of each side and a switch
of the GIL, under load a sizeable share of a request. Here the chain is built in Django's
synchronous mode (as under WSGI: the middleware, the view and its middleware hooks in one call),
and one call in the request's thread does everything synchronous: `request_started`, the
request object, `BaseHandler.get_response` (the chain, the response's log line) and, for a
response whose content is already made, closing it (`request_finished`: the request's database
connection goes back to the pool before the answer is sent). Only a streaming response (a
static file) is closed after its content has been sent, in a second visit to the thread. An
async-only middleware or an async view would still work: Django adapts each in the synchronous
chain, as it does under WSGI.

Unlike Django's handler, no task listens for the client leaving while the request is served: a
synchronous view runs to its end either way (its thread cannot be stopped), and an answer to a
client that has left is dropped by the server.

The request's thread: Django gives every request a thread of its own (a new single-thread
executor per request, in `ThreadSensitiveContext`), started for it and joined after it, which
cost a thread's start and join per request (a tenth of a busy server's CPU at the daily
rollover). Here each request borrows a thread that is kept: a single-thread executor from this
handler's idle ones, or a new one when none is idle (so there are never more than requests
served at once: `HTTP_CONCURRENCY`, config/concurrency.py), given back when the request is
done. A kept thread holds no database connection between requests.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from tempfile import SpooledTemporaryFile
from typing import Any

from asgiref.sync import ThreadSensitiveContext, sync_to_async
from django.core import signals
from django.core.exceptions import RequestAborted
from django.core.handlers.asgi import ASGIHandler, get_script_prefix
from django.http import FileResponse, HttpResponseBase
from django.urls import set_script_prefix


class SyncStackASGIHandler(ASGIHandler):
    def __init__(self) -> None:
        super().__init__()
        #: Single-thread executors of finished requests, ready for the next ones.
        self._idle: list[ThreadPoolExecutor] = []

    def load_middleware(self, is_async: bool = False) -> None:
        super().load_middleware(is_async=False)

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

    async def handle(self, scope: Any, receive: Any, send: Any) -> None:
        try:
            body_file = await self.read_body(receive)
        except RequestAborted:
            return
        set_script_prefix(get_script_prefix(scope))
        try:
            response = await sync_to_async(self._respond, thread_sensitive=True)(scope, body_file)
            try:
                await self.send_response(response, send)
            finally:
                if response.streaming:
                    await sync_to_async(response.close, thread_sensitive=True)()
        finally:
            body_file.close()

    def _respond(self, scope: Any, body_file: SpooledTemporaryFile[bytes]) -> HttpResponseBase:
        """Everything synchronous of one request, in its thread: the response, closed already
        unless it streams."""
        signals.request_started.send(sender=self.__class__, scope=scope)
        request, response = self.create_request(scope, body_file)
        if request is not None:
            response = self.get_response(request)
            response._handler_class = self.__class__
            if isinstance(response, FileResponse):  # as Django's own handler
                response.block_size = self.chunk_size
        assert response is not None
        if not response.streaming:
            response.close()
        return response
