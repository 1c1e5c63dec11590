"""Settings helpers that keep the site safe by default: the secret key, loopback hosts and the
addresses the server listens on.

Imported by config/settings.py before Django is set up, so it imports nothing from Django but
its exceptions.

DEBUG pages show settings and source code, so they must reach this machine only. That rests on
what the server listens on, never on the Host header a client sends: `config.serving` (uvicorn
alone, or gunicorn's workers) puts its listening addresses in `SERVER_BIND_VARIABLE` before the
application loads, and the settings refuse DEBUG on an address other machines can reach
(`debug_exposed_binds`). Whatever server runs it, with DEBUG on the application also refuses a
connection that reached the server at any but a loopback address (`LoopbackOnly`).
"""

from __future__ import annotations

import os
import secrets
import time
from collections.abc import Awaitable, Callable, MutableMapping
from pathlib import Path
from typing import Any

from django.core.exceptions import ImproperlyConfigured

from infra.network import is_loopback_address

#: Host names that only this machine can reach.
LOOPBACK_HOSTS = frozenset({"localhost", "127.0.0.1", "[::1]", "::1"})

#: Django's own deployment check (security.W009) refuses keys below these.
SECRET_KEY_MIN_LENGTH = 50
SECRET_KEY_MIN_UNIQUE_CHARACTERS = 5
SECRET_KEY_INSECURE_PREFIX = "django-insecure"

SECRET_KEY_FILE_NAME = ".secret_key"


def is_loopback(host: str) -> bool:
    """Whether an ALLOWED_HOSTS entry names only this machine (a port is ignored)."""
    host = host.strip().lower()
    if host in LOOPBACK_HOSTS:
        return True
    if host.startswith("["):  # [::1]:8000
        return host.split("]", 1)[0] + "]" in LOOPBACK_HOSTS
    return host.rsplit(":", 1)[0] in LOOPBACK_HOSTS


def all_loopback(hosts: list[str]) -> bool:
    return bool(hosts) and all(is_loopback(host) for host in hosts)


#: The environment variable in which the server process says where it listens: comma-separated
#: `host:port` (`[::1]:8000` for IPv6) or `unix:PATH`. Set by config/serving.py, never by hand.
SERVER_BIND_VARIABLE = "SERVER_BIND"


def bind_host(bind: str) -> str | None:
    """The host of one `SERVER_BIND` entry; None for a Unix socket (this machine's only)."""
    bind = bind.strip()
    if bind.startswith("unix:"):
        return None
    if bind.startswith("["):
        return bind[1:].split("]", 1)[0]
    return bind.rsplit(":", 1)[0] if ":" in bind else bind


def debug_exposed_binds(binds: list[str]) -> list[str]:
    """The listening addresses of `binds` that other machines can reach."""
    exposed = []
    for bind in binds:
        host = bind_host(bind)
        if host is not None and not is_loopback_address(host):
            exposed.append(bind)
    return exposed


Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]


class LoopbackOnly:
    """ASGI wrapper used with DEBUG on: a connection that reached the server at an address other
    than a loopback one (`scope["server"]`: the local address the client connected to, whatever
    its Host header says) is refused, HTTP with 403, a WebSocket before its handshake."""

    def __init__(self, app: Callable[..., Awaitable[None]]) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        server = scope.get("server")
        reached = server[0] if server else None  # None: a Unix socket
        if (
            scope["type"] in ("http", "websocket")
            and reached is not None
            and not is_loopback_address(str(reached))
        ):
            await self.refuse(scope, send)
            return
        await self.app(scope, receive, send)

    @staticmethod
    async def refuse(scope: Scope, send: Send) -> None:
        if scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 1008})
            return
        body = b"DEBUG is on: this server answers this machine only.\n"
        headers = [(b"content-type", b"text/plain; charset=utf-8")]
        headers.append((b"content-length", str(len(body)).encode()))
        await send({"type": "http.response.start", "status": 403, "headers": headers})
        await send({"type": "http.response.body", "body": body})


def weak_secret_key_reason(key: str) -> str | None:
    """Why `key` is too weak to sign cookies with, or None when it is strong enough."""
    if key.startswith(SECRET_KEY_INSECURE_PREFIX):
        return f"it starts with {SECRET_KEY_INSECURE_PREFIX!r}"
    if len(key) < SECRET_KEY_MIN_LENGTH:
        return f"it has fewer than {SECRET_KEY_MIN_LENGTH} characters"
    if len(set(key)) < SECRET_KEY_MIN_UNIQUE_CHARACTERS:
        return f"it has fewer than {SECRET_KEY_MIN_UNIQUE_CHARACTERS} distinct characters"
    return None


def new_secret_key() -> str:
    return secrets.token_urlsafe(64)  # 86 characters


MAKE_ONE = "Make one with: python -c 'import secrets; print(secrets.token_urlsafe(64))'"


def secret_key(
    environ: os._Environ[str] | dict[str, str], base_dir: Path, *, required: bool = False
) -> str:
    """The SECRET_KEY: the environment's, which must be strong; else this checkout's own.

    Without SECRET_KEY in the environment, a random key is made once per checkout in
    `base_dir/.secret_key` (mode 0600, never committed) and reused, so that the cookies
    and sessions of a local server survive restarts. Nobody else knows it. With `required`
    (a site served to other machines) the environment must give one: every process of a
    deployment needs the same key, and a file made inside an image would ship with it.
    """
    provided = environ.get("SECRET_KEY", "")
    if provided.strip():
        reason = weak_secret_key_reason(provided)
        if reason:
            raise ImproperlyConfigured(f"SECRET_KEY is too weak: {reason}. {MAKE_ONE}")
        return provided
    if required:
        raise ImproperlyConfigured(
            "SECRET_KEY must be set when ALLOWED_HOSTS names a host other than this machine. "
            + MAKE_ONE
        )
    return checkout_secret_key(base_dir / SECRET_KEY_FILE_NAME)


def checkout_secret_key(path: Path) -> str:
    """Read the key in `path`, creating it first when there is none.

    The file is created with O_EXCL, so when two processes start at once exactly one writes
    it; the other waits until it can read a whole key.
    """
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        pass
    else:
        key = new_secret_key()
        with os.fdopen(fd, "w") as out:
            out.write(key + "\n")
        return key

    deadline = time.monotonic() + 5
    while True:
        key = path.read_text().strip()
        if key and not weak_secret_key_reason(key):
            return key
        if time.monotonic() > deadline:
            raise ImproperlyConfigured(
                f"{path} does not hold a usable secret key: delete it to make a new one, or "
                "set SECRET_KEY."
            )
        time.sleep(0.05)  # another process is writing it
