"""What the tests that run the project in other processes share: one way to build a clean
environment, find a free port, wait, stop a process, and start a server or a Celery worker.

- `clean_env`: this process's environment without any variable the settings read, so that a
  subprocess gets only the settings a test gives it.
- `free_port`, `wait_for_port`, `wait_until`, `stop`: the plumbing.
- `database_url`: the test database pytest-django made, as a `DATABASE_URL` for a subprocess.
- `Server`: `python -m config.serving` (uvicorn) on a free port of 127.0.0.1 (`server_env`:
  production settings on the database and Redis it is given, throttles raised); it can be
  killed (SIGKILL) and started again on the same port. `Client`: HTTP to it with the player
  cookie, as a script would (urllib, no Origin header).
- `RedisServer`: a `redis-server` of the test's own on a free port, nothing on disk.
- `CeleryWorker`: `celery -A config worker` (solo pool) on a queue of the test's own;
  `routed_to(queue)` sends this process's tasks there.

Used by tests/config/support.py, tests/faults/live.py, tests/games/test_tasks.py and
tests/faults/test_worker_killed.py; the browser tests' server and the benchmarks' servers
could start theirs through `Server` and `clean_env` as well.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

ROOT = Path(__file__).resolve().parents[1]
PYTHON = sys.executable
COOKIE_NAME = "patience_player"

#: Variables that the settings read; a subprocess starts without any of them unless given.
SETTINGS_VARIABLES = (
    "DEBUG",
    "SECRET_KEY",
    "ALLOWED_HOSTS",
    "CSRF_TRUSTED_ORIGINS",
    "DATABASE_URL",
    "DATABASE_POOL_SIZE",
    "HTTP_CONCURRENCY",
    "REQUEST_BODY_SECONDS",
    "SQLITE_PATH",
    "REDIS_URL",
    "REDIS_KEY_PREFIX",
    "HTTPS",
    "HSTS_SECONDS",
    "NUM_PROXIES",
    "RANKED_STARTS_PER_ADDRESS",
    "RANKED_STARTS_PER_NETWORK",
    "RANKED_STARTS_PER_NETWORK56",
    "STATIC_MANIFEST",
    "STATIC_ROOT",
    "LOG_LEVEL",
    "LOG_FORMAT",
    "METRICS_TOKEN",
    "SENTRY_DSN",
    "SENTRY_ENVIRONMENT",
    "SERVER_BIND",
    # Not a setting, but it switches the metrics to multiprocess mode (config/gunicorn.py).
    "PROMETHEUS_MULTIPROC_DIR",
)
#: Django's own, which a subprocess does not inherit either (the settings module is set anew).
DJANGO_VARIABLES = ("DJANGO_SETTINGS_MODULE", "DJANGO_ALLOW_ASYNC_UNSAFE")

#: Every test request comes from 127.0.0.1: the throttles (and the ranked attempts an address
#: may start) would otherwise get in the way.
RAISED_THROTTLES = {
    f"THROTTLE_{scope}": "100000/min"
    for scope in (
        "STARTS_PLAYER",
        "STARTS_IP",
        "STARTS_NET",
        "MOVES_PLAYER",
        "MOVES_IP",
        "ACCOUNTS_IP",
        "ACCOUNTS_NET",
        "GUESTS_IP",
        "GUESTS_NET",
        "RACES_IP",
        "RACES_NET",
        "RENAMES_PLAYER",
        "RENAMES_IP",
    )
} | {
    "RANKED_STARTS_PER_ADDRESS": "100000",
    "RANKED_STARTS_PER_NETWORK": "100000",
    "RANKED_STARTS_PER_NETWORK56": "100000",
}


def clean_env(**overrides: str) -> dict[str, str]:
    """This process's environment without the settings' variables (throttles included) and
    Django's, with `DJANGO_SETTINGS_MODULE=config.settings`, plus `overrides`."""
    env = {
        name: value
        for name, value in os.environ.items()
        if name not in (*SETTINGS_VARIABLES, *DJANGO_VARIABLES) and not name.startswith("THROTTLE_")
    }
    env["DJANGO_SETTINGS_MODULE"] = "config.settings"
    env.update(overrides)
    return env


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_for_port(
    port: int, timeout: float = 60.0, process: subprocess.Popen | None = None
) -> None:
    """Until something listens on 127.0.0.1:`port`; fails at once if `process` exits."""
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


def wait_until(
    condition: Callable[[], Any], *, timeout: float = 30, step: float = 0.2, what: str = ""
) -> Any:
    """`condition()` once it is true; an AssertionError after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout:g} s waiting for {what or condition}")
        time.sleep(step)


def cpu_seconds(pid: int) -> float:
    """CPU time (user and system) the process has used so far, from /proc."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def stop(process: subprocess.Popen | None, timeout: float = 10) -> None:
    """SIGTERM, then SIGKILL if it is still there after `timeout` seconds."""
    if process is None or process.poll() is not None:
        return
    process.terminate()
    try:
        process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=5)


def kill(process: subprocess.Popen | None) -> None:
    """SIGKILL: no shutdown of any kind, as when a machine or container dies."""
    if process is not None and process.poll() is None:
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=10)


def database_url(
    settings_dict: dict[str, Any] | None = None, host: str | None = None, port: int | None = None
) -> str:
    """A postgres:// URL of `settings_dict` (by default the connection's: the test database
    pytest-django made), optionally through another host and port (a proxy)."""
    if settings_dict is None:
        from django.db import connection

        settings_dict = connection.settings_dict
    auth = quote(settings_dict["USER"] or "", safe="")
    if settings_dict["PASSWORD"]:
        auth += ":" + quote(settings_dict["PASSWORD"], safe="")
    host = host or settings_dict["HOST"] or "127.0.0.1"
    port = port or settings_dict["PORT"] or 5432
    return f"postgres://{auth}@{host}:{port}/{settings_dict['NAME']}"


def add_test_db_suffix() -> None:
    """Add `_<TEST_DB_SUFFIX>` to the test name of every PostgreSQL database (nothing without
    the variable; SQLite's test databases are in memory and each process's own). Called by the
    `django_db_modify_db_settings` fixtures (tests/conftest.py, tests/faults/live.py)."""
    from pytest_django.fixtures import _set_suffix_to_test_databases

    suffix = os.environ.get("TEST_DB_SUFFIX", "").strip()
    if suffix:
        _set_suffix_to_test_databases(suffix=suffix)


# -- a server --------------------------------------------------------------------------------


def server_env(*, database: str, redis: str | None = None, **extra: str) -> dict[str, str]:
    """Production settings (DEBUG off, loopback hosts, a strong key, throttles raised) on
    `database`, with Redis at `redis` (none: the embedded layer and cache)."""
    env = clean_env(
        DATABASE_URL=database,
        DEBUG="false",
        HTTPS="false",
        ALLOWED_HOSTS="127.0.0.1,localhost",
        STATIC_MANIFEST="false",
        SECRET_KEY=secrets.token_urlsafe(64),
        PYTHONPATH=str(ROOT),
        PYTHONUNBUFFERED="1",
        DATABASE_POOL_SIZE="4",
        **RAISED_THROTTLES,
    )
    if redis:
        env["REDIS_URL"] = redis
        # Its own names in the shared Redis (its database's ids repeat other servers').
        env["REDIS_KEY_PREFIX"] = f"test-{uuid.uuid4().hex[:12]}"
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
        """Start it and wait until `/healthz/` answers (a 503, degraded, answers too)."""
        with self.log_path.open("ab") as out:
            self.process = subprocess.Popen(
                [PYTHON, "-m", "config.serving"]
                + ["--host", "127.0.0.1", "--port", str(self.port), "--log-level", "warning"],
                cwd=ROOT,
                env=self.env,
                stdout=out,
                stderr=subprocess.STDOUT,
            )
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
        kill(self.process)

    def stop(self) -> None:
        stop(self.process)

    def log(self) -> str:
        try:
            return self.log_path.read_text(errors="replace")
        except FileNotFoundError:
            return ""

    def ws_url(self, path: str) -> str:
        return f"ws://127.0.0.1:{self.port}{path}"

    def client(self) -> Client:
        return Client(self.url)


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


# -- Redis of the test's own -----------------------------------------------------------------


class RedisServer:
    """`redis-server` on a free port of 127.0.0.1, nothing on disk. Only this one is stopped."""

    def __init__(self, port: int | None = None) -> None:
        self.port = port or free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process: subprocess.Popen | None = None

    def start(self) -> RedisServer:
        self.process = subprocess.Popen(
            [shutil.which("redis-server") or "redis-server", "--port", str(self.port)]
            + ["--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--daemonize", "no"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        wait_for_port(self.port, process=self.process)
        return self

    def stop(self) -> None:
        """SIGKILL: Redis vanishes as when its machine dies."""
        kill(self.process)


# -- PostgreSQL of the run's own -------------------------------------------------------------


class PostgresServer:
    """A PostgreSQL cluster of its own in a temporary folder, on a free port of 127.0.0.1
    (trust authentication for `postgres`), that can be restarted as an operator would; only
    this one is. Debian's server binaries; run as the `postgres` user when this is root
    (PostgreSQL refuses to run as root)."""

    def __init__(self, port: int | None = None) -> None:
        self.port = port or free_port()
        self.folder = Path(tempfile.mkdtemp(prefix="patience-pg-"))
        self.data = self.folder / "data"
        self.log = self.folder / "server.log"
        found = sorted(Path("/usr/lib/postgresql").glob("*/bin/pg_ctl"))
        if not found:
            raise RuntimeError("no PostgreSQL server binaries under /usr/lib/postgresql")
        self.bin = found[-1].parent

    def url(self, database: str) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/{database}"

    def _run(self, *argv: str, timeout: float = 120) -> None:
        command = [str(self.bin / argv[0]), *argv[1:]]
        if os.geteuid() == 0:
            command = ["runuser", "-u", "postgres", "--", *command]
        subprocess.run(command, check=True, capture_output=True, timeout=timeout)

    def _pg_ctl(self, action: str, *options: str) -> None:
        self._run(
            "pg_ctl",
            action,
            "-D",
            str(self.data),
            "-l",
            str(self.log),
            "-w",
            "-t",
            "60",
            *options,
        )

    def start(self) -> PostgresServer:
        if not self.data.exists():
            if os.geteuid() == 0:
                shutil.chown(self.folder, "postgres", "postgres")
            self._run(
                "initdb", "-D", str(self.data), "-U", "postgres", "--auth=trust", "-E", "UTF8"
            )
        listen = f"-c listen_addresses=127.0.0.1 -p {self.port} -c unix_socket_directories="
        self._pg_ctl("start", "-o", listen)
        return self

    def restart(self) -> None:
        """A quiet restart, as for maintenance: fast shutdown (every connection closed, the
        data kept), then up again on the same port."""
        self._pg_ctl("restart", "-m", "fast")

    def stop(self) -> None:
        if self.data.exists():
            with contextlib.suppress(subprocess.SubprocessError):
                self._pg_ctl("stop", "-m", "immediate")
        shutil.rmtree(self.folder, ignore_errors=True)


# -- a Celery worker -------------------------------------------------------------------------


class CeleryWorker:
    """`celery -A config worker` in a subprocess on the database `database` (and the broker of
    REDIS_URL), one task at a time, consuming `queue` only; its node is `name@<host>`. With
    `pool="prefork"` (the deployment's), the task runs in a pool process of its own
    (`pool_processes()`), which a test can kill while the worker itself lives on."""

    def __init__(
        self,
        *,
        queue: str,
        database: str,
        log: Path,
        name: str | None = None,
        pool: str = "solo",
    ) -> None:
        from django.conf import settings

        self.queue = queue
        self.pool = pool
        self.node = f"{name or queue}@{socket.gethostname()}"
        self.env = {
            **os.environ,
            "DATABASE_URL": database,
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "REDIS_KEY_PREFIX": settings.REDIS_KEY_PREFIX,  # the names of the tests' process
        }
        self.log_path = log
        self.process: subprocess.Popen | None = None

    def start(self, timeout: float = 60) -> CeleryWorker:
        """Start it and wait until it answers a ping (pytest fails the test if it does not)."""
        import pytest

        from config.celery import app

        with self.log_path.open("wb") as out:
            self.process = subprocess.Popen(
                [PYTHON, "-m", "celery", "-A", "config", "worker", f"--pool={self.pool}"]
                + ["--concurrency=1", "-l", "warning", "-Q", self.queue, "-n", self.node]
                + ["--without-gossip", "--without-mingle", "--without-heartbeat"],
                cwd=ROOT,
                env=self.env,
                stdout=out,
                stderr=subprocess.STDOUT,
            )
        deadline = time.monotonic() + timeout
        while not app.control.ping(destination=[self.node], timeout=0.5):
            if self.process.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"the worker did not start:\n{self.log()}")
        return self

    def kill(self) -> None:
        kill(self.process)

    def pool_processes(self) -> list[int]:
        """The ids of the worker's pool processes (none with the solo pool)."""
        if self.process is None:
            return []
        children = Path(f"/proc/{self.process.pid}/task/{self.process.pid}/children")
        try:
            return [int(pid) for pid in children.read_text().split()]
        except FileNotFoundError:
            return []

    def stop(self) -> None:
        stop(self.process, timeout=15)

    def log(self) -> str:
        try:
            return self.log_path.read_text(errors="replace")
        except FileNotFoundError:
            return ""


@contextlib.contextmanager
def routed_to(queue: str) -> Iterator[str]:
    """Every task this process sends (`.delay()`, the "solve" queue's too) goes to `queue`."""
    from config.celery import app

    default_queue, routes = app.conf.task_default_queue, app.conf.task_routes

    def reroute(default: str, task_routes: Any) -> None:
        app.conf.task_default_queue, app.conf.task_routes = default, task_routes
        app.amqp.flush_routes()
        app.amqp.__dict__.pop("router", None)  # the router caches the routes it was made with

    reroute(queue, {"*": {"queue": queue}})
    try:
        yield queue
    finally:
        reroute(default_queue, routes)
