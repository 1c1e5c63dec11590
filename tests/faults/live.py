"""Helpers of the fault and abuse tests: a real server in a subprocess and the services around it.

- `Server`, `RedisServer`, `server_env`, `database_url`, `wait_until`: tests/support.py's (a
  uvicorn with production settings on the database and Redis it is given, that can be killed
  and started again on the same port; a `redis-server` of the test's own on a free port).
- `TcpProxy`: a tiny asyncio TCP forwarder (in a thread) to PostgreSQL that the test can cut
  (every open connection dropped, new ones refused) and restore: "the database is unreachable,
  then back".
- `Client`: HTTP with the player cookie, as a script would (tests/support.py's too).
- `ws_url`, `ws_headers`: what a browser's WebSocket handshake carries (origin, cookie);
  `close_code`: the code a socket refused at once is closed with.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from typing import Any

import pytest

from tests.support import (
    COOKIE_NAME,
    ROOT,
    Client,
    RedisServer,
    Server,
    add_test_db_suffix,
    database_url,
    free_port,
    server_env,
    wait_until,
)

__all__ = [
    "ROOT",
    "Client",
    "RedisServer",
    "Server",
    "TcpProxy",
    "close_code",
    "dailies_ready",
    "database_url",
    "django_db_modify_db_settings",
    "server_env",
    "start_server",
    "test_database",
    "wait_until",
    "ws_headers",
]


def close_code(
    server: Server, path: str, headers: dict[str, str], timeout: float = 10
) -> int | None:
    """The close code the server ends a socket with, before sending anything (a handshake
    answered with an HTTP status raises)."""
    from websockets.exceptions import ConnectionClosed
    from websockets.sync.client import connect

    with connect(server.ws_url(path), additional_headers=headers, open_timeout=timeout) as sock:
        try:
            message = sock.recv(timeout=timeout)
        except ConnectionClosed as closed:
            return closed.rcvd.code if closed.rcvd is not None else None
    raise AssertionError(f"the socket was not closed; it sent {message!r}")


def ws_headers(server: Server, token: str | None) -> dict[str, str]:
    headers = {"Origin": server.origin}
    if token:
        headers["Cookie"] = f"{COOKIE_NAME}={token}"
    return headers


# -- a TCP forwarder that can be cut -----------------------------------------------------------


class TcpProxy:
    """Forwards 127.0.0.1:<port> to `target`, in an event loop of its own thread. `cut()`
    drops every open connection and refuses new ones; `restore()` forwards again."""

    def __init__(self, target: tuple[str, int]) -> None:
        self.target = target
        self.port = free_port()
        self.open = True
        self.loop = asyncio.new_event_loop()
        self.writers: set[asyncio.StreamWriter] = set()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.server: asyncio.base_events.Server | None = None

    def start(self) -> TcpProxy:
        self.thread.start()
        self.server = asyncio.run_coroutine_threadsafe(
            asyncio.start_server(self._handle, "127.0.0.1", self.port), self.loop
        ).result(10)
        return self

    async def _pipe(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while self.open:
                data = await reader.read(65536)
                if not data:
                    break
                writer.write(data)
                await writer.drain()
        except (ConnectionError, OSError):
            pass
        finally:
            writer.close()

    async def _handle(self, client_r: asyncio.StreamReader, client_w: asyncio.StreamWriter) -> None:
        if not self.open:
            client_w.transport.abort()
            return
        try:
            upstream_r, upstream_w = await asyncio.open_connection(*self.target)
        except OSError:
            client_w.transport.abort()
            return
        self.writers.update({client_w, upstream_w})
        try:
            await asyncio.gather(self._pipe(client_r, upstream_w), self._pipe(upstream_r, client_w))
        finally:
            self.writers.discard(client_w)
            self.writers.discard(upstream_w)

    async def _abort_all(self) -> None:
        for writer in list(self.writers):
            writer.transport.abort()
        self.writers.clear()

    def cut(self) -> None:
        self.open = False
        asyncio.run_coroutine_threadsafe(self._abort_all(), self.loop).result(10)

    def restore(self) -> None:
        self.open = True

    def close(self) -> None:
        self.cut()

        async def shutdown() -> None:
            if self.server is not None:
                self.server.close()

        asyncio.run_coroutine_threadsafe(shutdown(), self.loop).result(10)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(timeout=10)


# -- fixtures (imported by the conftest.py of tests/faults and tests/abuse) ---------------------


@pytest.fixture
def test_database(django_db_setup) -> dict[str, Any]:
    """The settings of the test database pytest-django made (PostgreSQL in these tests)."""
    from django.db import connection

    return dict(connection.settings_dict)


@pytest.fixture
def start_server(test_database, tmp_path) -> Iterator[Any]:
    """`start_server(redis=..., database=...)`: a uvicorn on the test database (or `database`),
    with Redis at `redis` (none: the embedded layer and cache); all stopped when the test ends.
    """
    servers: list[Server] = []

    def start(*, redis: str | None = None, database: str | None = None, **extra: str) -> Server:
        env = server_env(database=database or database_url(test_database), redis=redis, **extra)
        server = Server(env, tmp_path / f"server-{len(servers)}.log")
        servers.append(server)
        return server.start()

    yield start
    for server in servers:
        server.stop()
        # Shown by pytest when the test fails.
        print(f"--- {server.log_path.name} ---\n{server.log()[:8000]}")


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings_parallel_suffix) -> None:
    """These tests' servers hold connections to the test database while they run: a database
    of their own ("test_patience_resilience"; with TEST_DB_SUFFIX=x,
    "test_patience_x_resilience") keeps them out of the way of other runs of the suite on the
    same PostgreSQL (which drop and create "test_patience")."""
    from pytest_django.fixtures import _set_suffix_to_test_databases

    add_test_db_suffix()  # a run's own (TEST_DB_SUFFIX), then these tests' own
    _set_suffix_to_test_databases(suffix="resilience")


def dailies_ready(game: str = "munger") -> Any:
    """Today's and tomorrow's dailies of both games (so that a server has no day to prepare:
    games/supply.py would otherwise solve deals in the background while the test runs); answers
    today's daily of `game`."""
    import datetime as dt

    from games import clock
    from games.models import DailyChallenge
    from tests.games import factories

    today = clock.today()
    for name in ("munger", "masterpiece"):
        for date in (today, today + dt.timedelta(days=1)):
            if not DailyChallenge.objects.filter(game=name, date=date).exists():
                factories.daily(name, date)
    return DailyChallenge.objects.select_related("deal").get(game=game, date=today)
