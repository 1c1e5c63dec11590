"""How a web server process serves the application: the one home of the server's settings.

- `python -m config.serving --host H --port P`: one uvicorn process (`make run`, the tests'
  and the benchmarks' servers);
- `gunicorn config.server:application -k config.serving.Worker`: gunicorn managing uvicorn
  workers (the image), with the same settings.

The settings, `SERVER_OPTIONS`, each bound a cost a stranger could otherwise set:

- WebSocket messages of at most `WS_MAX_BYTES` (a client's messages are JSON of at most 4 KiB,
  realtime/sockets.py): a larger one closes the connection (1009) before it is read whole;
- no per-message compression: a compressed frame of a few kilobytes could decompress to the
  old 16 MiB limit at the server's expense, and the project's messages are small (the CPU of
  compressing each event for each watcher costs more than the bytes it saves);
- a request's head (request line and headers, a WebSocket handshake's too) of at most
  `MAX_HEADER_BYTES`, whole within `HEADER_SECONDS`, and a chunked body's trailer section (the
  header fields after its last chunk) of at most `MAX_HEADER_BYTES` as well: `HeadBoundProtocol`,
  below, the HTTP protocol both ways serve with (uvicorn's httptools protocol, extended;
  uvicorn's own bound of a head is h11's, which never runs here). Bodies are not counted:
  config/bodylimit.py bounds their size and the time they take;
- at a graceful stop, open connections (WebSockets included) are closed after
  `GRACEFUL_SECONDS`.

How many connections one client holds is bounded by the reverse proxy in front
(docs/deployment.md), which also sends the app only heads it has read whole: the app's bounds
are for a client that reaches it some other way.

A head is counted as its bytes arrive, before the parser keeps any: past `MAX_HEADER_BYTES` it
is answered 431 (Request Header Fields Too Large) with `Connection: close` and the connection
is closed, so a client streaming an endless header costs the process 16 KiB (and the chunk last
read from the socket), not all it sends. A trailer section past the bound closes the connection
without a word (its request is answered, or being answered). The deadline runs from the moment
a connection is made, or from the first byte of a later request, until the head is complete:
past it, an unfinished head is answered 408 and the connection closed, and a connection that
sent nothing is closed without a word. A request sent in the same chunk as the end of the one
before (pipelining, which browsers and the edge proxy do not do) is counted from the next chunk
on, and the URL, names and values the parser collected are checked against the bound once the
head is complete: such a head may cost one chunk more.

An idle kept-alive connection is closed after `KEEP_ALIVE_SECONDS`, longer than the edge proxy
keeps its idle connections to the app (`keepalive_timeout` of deploy/nginx's upstream): the
proxy, which reuses them, always closes one first. Were the app first, a request the proxy sends
on a connection the app is closing would be lost (nginx answers a POST with 502 rather than
send it again); and the idle timer of a process too busy to read its sockets for a while (the
new day's first minute) could close a connection whose next request was already waiting in it,
as a 5 s timer did to a benchmark's moves. The head's deadline does not run while a connection
is idle between requests: it starts with the next request's first byte, and the proxy sends a
head in one piece, so it never meets it.

Where the process listens is its own business and the settings': before the application
loads, both ways put the listening addresses in the environment (`SERVER_BIND`,
config/security.py), and the settings refuse DEBUG unless every one is a loopback address.
Deployed, gunicorn binds `0.0.0.0:8000` inside the container, on a network only the edge
proxy shares (docker-compose.yml, docs/deployment.md): nothing else can reach it and choose its
own `X-Forwarded-For`. On a machine of its own, bind the app to 127.0.0.1 (or a Unix socket)
with the proxy on the same machine.

This module imports no part of the application: gunicorn's master loads it to find the worker
class, and only the workers load the application (config/server.py).
"""

from __future__ import annotations

import argparse
import asyncio
import http
import os
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn_worker import UvicornWorker

from config.security import SERVER_BIND_VARIABLE

WS_MAX_BYTES = 16 * 1024
#: A request's head: its request line, its headers and the blank line that ends them.
MAX_HEADER_BYTES = 16 * 1024
#: Seconds a head may take to arrive whole (the edge proxy allows a client as many).
HEADER_SECONDS = 10
GRACEFUL_SECONDS = 20
KEEP_ALIVE_SECONDS = 75


class HeadBoundProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol with each request's head bounded in bytes and in time, and
    a chunked body's trailer section (header fields after the last chunk) in bytes.

    It relies on uvicorn's internals (docs/realtime.md, "Framework internals"): the methods it
    extends (`connection_made`, `connection_lost`, `data_received` and the parser's callbacks
    `on_message_begin`, `on_headers_complete`, `on_body`, `on_message_complete`; httptools calls
    `on_chunk_header` and `on_chunk_complete`, which uvicorn does not define, because they are
    here) and the state they share (`transport`, `flow`, `cycle`, `url`, `headers`, `loop`,
    `server_state`).
    """

    max_header_bytes: int = MAX_HEADER_BYTES
    header_seconds: float = HEADER_SECONDS

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.in_head = True  # waiting for, or reading, a request's head
        self.head_begun = False  # the parser has seen the head's first byte
        self.in_trailers = False  # after a chunk's size line, before any of its data
        self.counted = 0  # bytes of this head (or trailer section) read so far
        self.head_timer: asyncio.TimerHandle | None = None
        self.refused = False

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._start_head_timer()

    def connection_lost(self, exc: Exception | None) -> None:
        self._cancel_head_timer()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        """Feeds the parser no more than what is left of the bound while in a head (or a
        trailer section); starts the head's deadline if the chunk leaves one unfinished."""
        if self.refused:
            return
        offset, size = 0, len(data)
        while offset < size:
            if self.in_head or self.in_trailers:
                room = self.max_header_bytes - self.counted
                if room <= 0:
                    self._refuse(http.HTTPStatus.REQUEST_HEADER_FIELDS_TOO_LARGE)
                    return
                end = min(size, offset + room)
                self.counted += end - offset
            else:
                end = size
            piece = data if offset == 0 and end == size else data[offset:end]
            offset = end
            super().data_received(piece)
            if (
                self.refused
                or self.transport.is_closing()
                or self.transport.get_protocol() is not self  # upgraded to a WebSocket
                or self.parser.should_upgrade()  # the parser stops after an upgrade's head
            ):
                return
        if self.in_head and (self.head_begun or self.counted):
            self._start_head_timer()

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self.head_begun = True

    def on_headers_complete(self) -> None:
        self._cancel_head_timer()
        if not self.refused:
            collected = len(self.url) + sum(len(name) + len(value) for name, value in self.headers)
            if collected > self.max_header_bytes:
                self._refuse(http.HTTPStatus.REQUEST_HEADER_FIELDS_TOO_LARGE)
        self.in_head = False
        if self.refused:
            self.headers.clear()  # nothing of this request is served, nor upgraded
            return
        super().on_headers_complete()

    def on_chunk_header(self) -> None:
        self.in_trailers, self.counted = True, 0  # until this chunk's data shows it is none

    def on_body(self, body: bytes) -> None:
        self.in_trailers = False
        if not self.refused:
            super().on_body(body)

    def on_chunk_complete(self) -> None:
        self.in_trailers = False

    def on_message_complete(self) -> None:
        self.in_head, self.head_begun, self.in_trailers, self.counted = True, False, False, 0
        if not self.refused:
            super().on_message_complete()

    def _start_head_timer(self) -> None:
        if self.head_timer is None and not self.refused:
            self.head_timer = self.loop.call_later(self.header_seconds, self._head_too_slow)

    def _cancel_head_timer(self) -> None:
        if self.head_timer is not None:
            self.head_timer.cancel()
            self.head_timer = None

    def _head_too_slow(self) -> None:
        self.head_timer = None
        if not self.transport.is_closing():
            self._refuse(http.HTTPStatus.REQUEST_TIMEOUT if self.head_begun else None)

    def _refuse(self, status: http.HTTPStatus | None) -> None:
        """Closes the connection, first answering a head `status` (None: nothing) with
        `Connection: close`. A head that comes while the answer to the request before it is
        under way closes the connection after that answer instead; a trailer section belongs to
        a request that is answered, or being answered: it closes at once, without a word."""
        self.refused = True
        self._cancel_head_timer()
        if self.in_head and self.cycle is not None and not self.cycle.response_complete:
            self.cycle.keep_alive = False
            self.flow.pause_reading()
            return
        if self.in_head and status is not None:
            body = status.phrase.encode()
            content = [b"HTTP/1.1 %d %s\r\n" % (status.value, body)]
            for name, value in self.server_state.default_headers:
                content += [name, b": ", value, b"\r\n"]
            content += [
                b"content-type: text/plain; charset=utf-8\r\n",
                b"content-length: %d\r\n" % len(body),
                b"connection: close\r\n\r\n",
                body,
            ]
            self.transport.write(b"".join(content))
        self.transport.close()


SERVER_OPTIONS: dict[str, Any] = {
    "http": HeadBoundProtocol,
    "ws_max_size": WS_MAX_BYTES,
    "ws_per_message_deflate": False,
    "timeout_keep_alive": KEEP_ALIVE_SECONDS,
    "timeout_graceful_shutdown": GRACEFUL_SECONDS,
    "lifespan": "on",
}

APPLICATION = "config.server:application"


def announce_binds(binds: list[str]) -> None:
    """Tell the settings where this process listens (before the application loads)."""
    os.environ[SERVER_BIND_VARIABLE] = ",".join(binds)


def bind_text(address: Any) -> str:
    """gunicorn's parsed bind address as `host:port`, `[v6]:port` or `unix:PATH`."""
    if isinstance(address, tuple):
        host, port = address[0], address[1]
        return f"[{host}]:{port}" if ":" in str(host) else f"{host}:{port}"
    return f"unix:{address}"


class Worker(UvicornWorker):
    """gunicorn's uvicorn worker with `SERVER_OPTIONS`; says where gunicorn listens."""

    CONFIG_KWARGS = {**UvicornWorker.CONFIG_KWARGS, **SERVER_OPTIONS}

    def init_process(self) -> None:
        announce_binds([bind_text(address) for address in self.cfg.address])
        super().init_process()


def main(argv: list[str] | None = None) -> None:
    import uvicorn

    parser = argparse.ArgumentParser(description="Serve Patience Daily (HTTP and WebSocket).")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--log-level", default="info")
    options = parser.parse_args(argv)
    host = f"[{options.host}]" if ":" in options.host else options.host
    announce_binds([f"{host}:{options.port}"])
    uvicorn.run(
        APPLICATION,
        host=options.host,
        port=options.port,
        log_level=options.log_level,
        **SERVER_OPTIONS,
    )


if __name__ == "__main__":
    main()
