"""Helpers of the fault and abuse tests: a real server in a subprocess and the services around it.

- `Server`: `uvicorn config.asgi:application` on a free port of 127.0.0.1 with production
  settings (DEBUG=false, HTTPS=false, loopback hosts, a strong SECRET_KEY, STATIC_MANIFEST=false,
  raised throttles), on the database and Redis it is given. It can be killed (SIGKILL) and
  started again on the same port.
- `RedisServer`: a `redis-server` of the test's own on a free port (never the shared one),
  keeping nothing on disk; it can be stopped and started again on the same port.
- `TcpProxy`: a tiny asyncio TCP forwarder (in a thread) to PostgreSQL that the test can cut
  (every open connection dropped, new ones refused) and restore: "the database is unreachable,
  then back".
- `Client`: HTTP with the player cookie, as a script would (urllib, no Origin header).
- `ws_url`, `ws_headers`: what a browser's WebSocket handshake carries (origin, cookie).
"""

from __future__ import annotations

import asyncio
import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest

ROOT = Path(__file__).resolve().parents[2]
PYTHON = sys.executable
COOKIE_NAME = "patience_player"

#: Variables that the settings read; the server starts without any of them unless given.
SETTINGS_VARIABLES = (
    "DEBUG",
    "SECRET_KEY",
    "ALLOWED_HOSTS",
    "CSRF_TRUSTED_ORIGINS",
    "DATABASE_URL",
    "DATABASE_POOL_SIZE",
    "SQLITE_PATH",
    "REDIS_URL",
    "HTTPS",
    "HSTS_SECONDS",
    "NUM_PROXIES",
    "STATIC_MANIFEST",
    "STATIC_ROOT",
    "LOG_LEVEL",
    "DJANGO_SETTINGS_MODULE",
    "DJANGO_ALLOW_ASYNC_UNSAFE",
)

#: Every test request comes from 127.0.0.1: the throttles would otherwise get in the way.
RAISED_THROTTLES = {
    f"THROTTLE_{scope}": "100000/min"
    for scope in (
        "STARTS_PLAYER",
        "STARTS_IP",
        "STARTS_NET",
        "MOVES_PLAYER",
        "MOVES_IP",
        "ACCOUNTS_IP",
        "GUESTS_IP",
        "GUESTS_NET",
        "RENAMES_PLAYER",
        "RENAMES_IP",
    )
}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_for_port(
    port: int, timeout: float = 30.0, process: subprocess.Popen | None = None
) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process is not None and process.poll() is not None:
            raise RuntimeError(f"the process exited with {process.returncode}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            time.sleep(0.05)
    raise TimeoutError(f"nothing listens on port {port}")


def database_url(
    settings_dict: dict[str, Any], host: str | None = None, port: int | None = None
) -> str:
    """A postgres:// URL of `settings_dict` (the test database), optionally through another
    host and port (a proxy)."""
    auth = quote(settings_dict["USER"] or "", safe="")
    if settings_dict["PASSWORD"]:
        auth += ":" + quote(settings_dict["PASSWORD"], safe="")
    host = host or settings_dict["HOST"] or "127.0.0.1"
    port = port or settings_dict["PORT"] or 5432
    return f"postgres://{auth}@{host}:{port}/{settings_dict['NAME']}"


def server_env(*, database: str, redis: str | None = None, **extra: str) -> dict[str, str]:
    env = {
        name: value
        for name, value in os.environ.items()
        if name not in SETTINGS_VARIABLES and not name.startswith("THROTTLE_")
    }
    env.update(
        {
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "DATABASE_URL": database,
            "DEBUG": "false",
            "HTTPS": "false",
            "ALLOWED_HOSTS": "127.0.0.1,localhost",
            "STATIC_MANIFEST": "false",
            "SECRET_KEY": secrets.token_urlsafe(64),
            "PYTHONPATH": str(ROOT),
            "PYTHONUNBUFFERED": "1",
            "DATABASE_POOL_SIZE": "4",
            **RAISED_THROTTLES,
        }
    )
    if redis:
        env["REDIS_URL"] = redis
    env.update(extra)
    return env


class Server:
    """uvicorn serving the project on a free port; `kill()` and `start()` again keep the port."""

    def __init__(self, env: dict[str, str], log: Path) -> None:
        self.env = env
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.origin = self.url
        self.log_path = log
        self.process: subprocess.Popen | None = None

    def start(self, timeout: float = 60.0) -> Server:
        out = self.log_path.open("ab")
        self.process = subprocess.Popen(
            [
                PYTHON,
                "-m",
                "uvicorn",
                "config.asgi:application",
                "--host",
                "127.0.0.1",
                "--port",
                str(self.port),
                "--log-level",
                "warning",
            ],
            cwd=ROOT,
            env=self.env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
        out.close()
        deadline = time.monotonic() + timeout
        while True:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server exited at start:\n{self.log()[-4000:]}")
            try:
                with urllib.request.urlopen(f"{self.url}/healthz/", timeout=5):
                    return self
            except urllib.error.HTTPError:  # 503 degraded: it answers, that is enough
                return self
            except (urllib.error.URLError, ConnectionError, TimeoutError, OSError):
                if time.monotonic() > deadline:
                    raise RuntimeError(
                        f"the server did not answer:\n{self.log()[-4000:]}"
                    ) from None
                time.sleep(0.1)

    def kill(self) -> None:
        """SIGKILL: no shutdown of any kind, as when a machine or container dies."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=5)

    def log(self) -> str:
        try:
            return self.log_path.read_text(errors="replace")
        except FileNotFoundError:
            return ""

    def client(self) -> Client:
        return Client(self.url)

    def ws_url(self, path: str) -> str:
        return f"ws://127.0.0.1:{self.port}{path}"


class Client:
    """A script's HTTP client holding the player cookie."""

    def __init__(self, base: str, token: str | None = None) -> None:
        self.base = base
        self.token = token

    def request(
        self,
        method: str,
        path: str,
        body: Any = None,
        *,
        raw: bytes | None = None,
        headers: dict[str, str] | None = None,
        timeout: float = 30,
    ) -> tuple[int, dict[str, str], bytes]:
        data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
        request = urllib.request.Request(self.base + path, data=data, method=method)
        if data is not None:
            request.add_header("Content-Type", "application/json")
        if self.token:
            request.add_header("Cookie", f"{COOKIE_NAME}={self.token}")
        for name, value in (headers or {}).items():
            request.add_header(name, value)
        try:
            with urllib.request.urlopen(request, timeout=timeout) as response:
                status, head, content = response.status, response.headers, response.read()
        except urllib.error.HTTPError as error:
            status, head, content = error.code, error.headers, error.read()
        for cookie in head.get_all("Set-Cookie") or []:
            name, _, rest = cookie.partition("=")
            if name.strip() == COOKIE_NAME:
                value = rest.split(";", 1)[0]
                self.token = value or None
        return status, {k.lower(): v for k, v in head.items()}, content

    def call(self, method: str, path: str, body: Any = None, **kwargs: Any) -> tuple[int, Any]:
        """(status, the decoded JSON body, or the text when it is not JSON)."""
        status, headers, content = self.request(method, path, body, **kwargs)
        text = content.decode(errors="replace")
        if headers.get("content-type", "").startswith("application/json"):
            return status, json.loads(text)
        return status, text

    def get(self, path: str) -> tuple[int, Any]:
        return self.call("GET", path)

    def post(self, path: str, body: Any = None) -> tuple[int, Any]:
        return self.call("POST", path, body)


def ws_headers(server: Server, token: str | None) -> dict[str, str]:
    headers = {"Origin": server.origin}
    if token:
        headers["Cookie"] = f"{COOKIE_NAME}={token}"
    return headers


# -- Redis of the test's own -----------------------------------------------------------------


class RedisServer:
    """`redis-server` on a free port of 127.0.0.1, nothing on disk. Only this one is stopped."""

    def __init__(self, port: int | None = None) -> None:
        self.port = port or free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process: subprocess.Popen | None = None

    def start(self) -> RedisServer:
        self.process = subprocess.Popen(
            [
                shutil.which("redis-server") or "redis-server",
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--daemonize",
                "no",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        wait_for_port(self.port, process=self.process)
        return self

    def stop(self) -> None:
        """SIGKILL: Redis vanishes as when its machine dies."""
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=10)


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


def wait_until(condition: Any, *, timeout: float = 30, step: float = 0.2, what: str = "") -> Any:
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout:g} s waiting for {what or condition}")
        time.sleep(step)


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
    of their own ("test_patience_resilience") keeps them out of the way of other runs of the
    suite on the same PostgreSQL (which drop and create "test_patience")."""
    from pytest_django.fixtures import _set_suffix_to_test_databases

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
