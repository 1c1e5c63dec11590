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
- a request's headers in at most `MAX_HEADER_BYTES`; at a graceful stop, open connections
  (WebSockets included) are closed after `GRACEFUL_SECONDS`. A request body must arrive
  within its own deadline (config/bodylimit.py); connections and slow headers are bounded by
  the reverse proxy in front (docs/deployment.md).

An idle kept-alive connection is closed after `KEEP_ALIVE_SECONDS`, longer than the edge proxy
keeps its idle connections to the app (`keepalive_timeout` of deploy/nginx's upstream): the
proxy, which reuses them, always closes one first. Were the app first, a request the proxy sends
on a connection the app is closing would be lost (nginx answers a POST with 502 rather than
send it again); and the idle timer of a process too busy to read its sockets for a while (the
new day's first minute) could close a connection whose next request was already waiting in it,
as a 5 s timer did to a benchmark's moves.

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
import os
from typing import Any

from uvicorn_worker import UvicornWorker

from config.security import SERVER_BIND_VARIABLE

WS_MAX_BYTES = 16 * 1024
MAX_HEADER_BYTES = 16 * 1024
GRACEFUL_SECONDS = 20
KEEP_ALIVE_SECONDS = 75

SERVER_OPTIONS: dict[str, Any] = {
    "ws_max_size": WS_MAX_BYTES,
    "ws_per_message_deflate": False,
    "h11_max_incomplete_event_size": MAX_HEADER_BYTES,
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
