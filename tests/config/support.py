"""Helpers of the tests of config/: free ports, subprocesses with a chosen environment."""

from __future__ import annotations

import json
import os
import secrets
import socket
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PYTHON = sys.executable

#: Variables that the settings read; subprocesses start without any of them unless given.
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
)


def strong_key() -> str:
    return secrets.token_urlsafe(64)


def clean_env(**overrides: str) -> dict[str, str]:
    """This process's environment without the settings' variables, plus `overrides`."""
    env = {
        name: value
        for name, value in os.environ.items()
        if name not in SETTINGS_VARIABLES and not name.startswith("THROTTLE_")
    }
    env.pop("DJANGO_SETTINGS_MODULE", None)
    env["DJANGO_SETTINGS_MODULE"] = "config.settings"
    env.update(overrides)
    return env


def settings_of(names: list[str], **env: str) -> dict:
    """The values of settings `names` when config.settings is loaded with `env`."""
    code = (
        "import json, config.settings as s; "
        f"print(json.dumps({{n: getattr(s, n, None) for n in {names!r}}}, default=str))"
    )
    done = subprocess.run(
        [PYTHON, "-c", code],
        cwd=ROOT,
        env=clean_env(**env),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def settings_error(**env: str) -> str:
    """The error that loading config.settings with `env` fails with."""
    done = subprocess.run(
        [PYTHON, "-c", "import config.settings"],
        cwd=ROOT,
        env=clean_env(**env),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode != 0, "the settings loaded"
    return done.stderr


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_for_port(
    port: int, timeout: float = 60.0, process: subprocess.Popen | None = None
) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process is not None and process.poll() is not None:
            raise RuntimeError(f"the server exited with {process.returncode}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            time.sleep(0.1)
    raise TimeoutError(f"nothing listens on port {port}")


def stop(process: subprocess.Popen) -> None:
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
