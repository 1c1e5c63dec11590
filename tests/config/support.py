"""Helpers of the tests of config/: settings loaded in a subprocess with a chosen environment.
The plumbing (clean environments, ports, stopping processes) is tests/support.py's."""

from __future__ import annotations

import json
import secrets
import subprocess

from tests.support import (
    PYTHON,
    ROOT,
    SETTINGS_VARIABLES,
    clean_env,
    free_port,
    stop,
    wait_for_port,
)

__all__ = [
    "PYTHON",
    "ROOT",
    "SETTINGS_VARIABLES",
    "clean_env",
    "free_port",
    "settings_error",
    "settings_of",
    "stop",
    "strong_key",
    "wait_for_port",
]


def strong_key() -> str:
    return secrets.token_urlsafe(64)


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
