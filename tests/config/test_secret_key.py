"""The secret key: from the environment and strong, or this checkout's own (config/security.py)."""

from __future__ import annotations

import stat
import threading

import pytest
from django.core.exceptions import ImproperlyConfigured

from config import security


def test_without_secret_key_a_random_one_is_made_once_and_kept_private(tmp_path):
    first = security.secret_key({}, tmp_path)
    again = security.secret_key({}, tmp_path)

    path = tmp_path / ".secret_key"
    assert first == again == path.read_text().strip()
    assert security.weak_secret_key_reason(first) is None
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_another_checkout_gets_another_key(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()

    assert security.secret_key({}, tmp_path / "a") != security.secret_key({}, tmp_path / "b")


def test_processes_starting_at_once_agree_on_one_key(tmp_path):
    keys: list[str] = []

    def start() -> None:
        keys.append(security.secret_key({}, tmp_path))

    threads = [threading.Thread(target=start) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert len(keys) == 8 and len(set(keys)) == 1


def test_a_key_from_the_environment_is_used_as_it_is(tmp_path):
    key = security.new_secret_key()

    assert security.secret_key({"SECRET_KEY": key}, tmp_path) == key
    assert not (tmp_path / ".secret_key").exists()


@pytest.mark.parametrize(
    "key",
    [
        security.new_secret_key()[:49],
        "abcd" * 20,
        "django-insecure-" + security.new_secret_key(),
    ],
    ids=["one-character-short", "four-distinct-characters", "django-insecure"],
)
def test_a_weak_key_from_the_environment_is_refused(tmp_path, key):
    with pytest.raises(ImproperlyConfigured, match="too weak"):
        security.secret_key({"SECRET_KEY": key}, tmp_path)


def test_an_unusable_key_file_is_refused(tmp_path, monkeypatch):
    (tmp_path / ".secret_key").write_text("short\n")
    monkeypatch.setattr(security.time, "monotonic", iter([0.0, 10.0, 20.0]).__next__)

    with pytest.raises(ImproperlyConfigured, match="does not hold a usable secret key"):
        security.secret_key({}, tmp_path)


@pytest.mark.parametrize(
    ("host", "loopback"),
    [
        ("localhost", True),
        ("127.0.0.1", True),
        ("[::1]", True),
        ("localhost:8000", True),
        ("patience.example", False),
        (".localhost.example", False),
        ("*", False),
        ("0.0.0.0", False),
    ],
)
def test_loopback_hosts(host, loopback):
    assert security.is_loopback(host) is loopback


def test_a_public_site_must_be_given_its_key(tmp_path):
    with pytest.raises(ImproperlyConfigured, match="SECRET_KEY must be set"):
        security.secret_key({}, tmp_path, required=True)
    assert not (tmp_path / ".secret_key").exists()
