"""Settings helpers that keep the site safe by default: the secret key and loopback hosts.

Imported by config/settings.py before Django is set up, so it imports nothing from Django but
its exceptions.
"""

from __future__ import annotations

import os
import secrets
import time
from pathlib import Path

from django.core.exceptions import ImproperlyConfigured

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
