"""DEBUG reaches this machine only, by where the server listens and the address a connection
reached, never by the Host header a client sends.

- the settings refuse DEBUG when the server says (SERVER_BIND) it listens on an address other
  machines reach;
- `python -m config.serving` and gunicorn with `config.serving.Worker` say where they listen:
  with DEBUG on, either refuses to start on 0.0.0.0 and serves on 127.0.0.1;
- with DEBUG on, the application refuses a connection that reached a non-loopback address of
  the machine, even one that names `Host: localhost` (`config.security.LoopbackOnly`).
"""

from __future__ import annotations

import subprocess
import urllib.request
from typing import Any

import pytest

from config.security import LoopbackOnly, debug_exposed_binds
from tests.config.support import (
    PYTHON,
    ROOT,
    clean_env,
    free_port,
    settings_error,
    settings_of,
    stop,
    wait_for_port,
)
from tests.support import wait_until


@pytest.mark.parametrize(
    "bind", ["0.0.0.0:8000", "[::]:8000", "192.0.2.7:80", "127.0.0.1:8000,0.0.0.0:9000"]
)
def test_debug_refuses_a_server_listening_where_other_machines_reach(bind):
    error = settings_error(DEBUG="true", SERVER_BIND=bind)

    assert "ImproperlyConfigured" in error
    assert "the server may only listen on this machine" in error


def test_debug_serves_a_server_listening_on_loopback_or_a_unix_socket():
    binds = "127.0.0.1:8000,[::1]:8000,localhost:8000,unix:/run/patience.sock"

    assert settings_of(["DEBUG", "SERVER_BIND"], DEBUG="true", SERVER_BIND=binds) == {
        "DEBUG": True,
        "SERVER_BIND": binds.split(","),
    }
    # Without DEBUG, any address is the operator's choice (behind the proxy).
    assert settings_of(["DEBUG"], SERVER_BIND="0.0.0.0:8000") == {"DEBUG": False}


def test_exposed_binds_are_told_apart_from_loopback_ones():
    assert debug_exposed_binds(["127.0.0.2:80", "[::1]:1", "unix:/x"]) == []
    assert debug_exposed_binds(["0.0.0.0:1", "[::]:1", "10.0.0.1:1"]) == [
        "0.0.0.0:1",
        "[::]:1",
        "10.0.0.1:1",
    ]


# -- the application, by the address a connection reached ----------------------------------------


async def exchange(scope: dict[str, Any]) -> list[dict[str, Any]]:
    reached: list[str] = []

    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        reached.append(scope["type"])
        await send({"type": "http.response.start", "status": 200, "headers": []})

    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return {"type": "http.request"}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    await LoopbackOnly(app)(scope, receive, send)
    return sent


def scope_at(kind: str, server: tuple[str, int] | None) -> dict[str, Any]:
    return {
        "type": kind,
        "path": "/",
        "server": server,
        "client": ("192.0.2.99", 50000),
        "headers": [(b"host", b"localhost")],  # what the client says does not matter
    }


@pytest.mark.parametrize("server", [("192.0.2.2", 8000), ("0.0.0.0", 8000), ("fd00::2", 8000)])
async def test_with_debug_a_connection_to_another_address_is_refused_whatever_its_host(server):
    (start, _body) = await exchange(scope_at("http", server))
    assert start["status"] == 403

    assert await exchange(scope_at("websocket", server)) == [
        {"type": "websocket.close", "code": 1008}
    ]


@pytest.mark.parametrize("server", [("127.0.0.1", 8000), ("::1", 8000), None])
async def test_with_debug_a_connection_to_a_loopback_address_or_a_unix_socket_passes(server):
    assert await exchange(scope_at("http", server)) == [
        {"type": "http.response.start", "status": 200, "headers": []}
    ]


# -- the servers say where they listen -------------------------------------------------------------


def start_with_debug(command: list[str], tmp_path) -> subprocess.Popen:
    env = clean_env(DEBUG="true", SQLITE_PATH=str(tmp_path / "db.sqlite3"), PYTHONPATH=str(ROOT))
    with (tmp_path / "server.log").open("wb") as log:
        return subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)


def uvicorn_command(host: str, port: int) -> list[str]:
    return [PYTHON, "-m", "config.serving", "--host", host, "--port", str(port)]


def gunicorn_command(host: str, port: int) -> list[str]:
    return [
        PYTHON,
        "-m",
        "gunicorn",
        "config.server:application",
        "-k",
        "config.serving.Worker",
    ] + [
        "--bind",
        f"{host}:{port}",
        "--workers",
        "1",
    ]


@pytest.mark.slow
@pytest.mark.parametrize(
    "command", [uvicorn_command, gunicorn_command], ids=["uvicorn", "gunicorn"]
)
def test_with_debug_the_servers_refuse_to_listen_on_every_address(command, tmp_path):
    process = start_with_debug(command("0.0.0.0", free_port()), tmp_path)
    try:
        status = process.wait(timeout=90)  # gunicorn's master stops when its worker cannot boot
    finally:
        stop(process)
    log = (tmp_path / "server.log").read_text()

    assert status != 0, log
    assert "the server may only listen on this machine" in log


@pytest.mark.slow
@pytest.mark.parametrize(
    "command", [uvicorn_command, gunicorn_command], ids=["uvicorn", "gunicorn"]
)
def test_with_debug_the_servers_serve_on_loopback(command, tmp_path):
    port = free_port()
    process = start_with_debug(command("127.0.0.1", port), tmp_path)
    try:
        wait_for_port(port, timeout=60, process=process)
        live = f"http://127.0.0.1:{port}/healthz/live/"
        wait_until(lambda: answers(live), timeout=60, what="the worker's answer")
    finally:
        stop(process)


def answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=10) as page:
            return page.status == 200
    except OSError:
        return False
