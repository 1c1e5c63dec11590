"""Fixtures of the leaderboards tests: travel in time, named players, results with exact
numbers, a Redis index under a key prefix of its own, and a fresh view of Redis's health."""

from __future__ import annotations

import datetime as dt
import os
import uuid
from collections.abc import Callable, Iterator

import pytest

from games import clock
from games.api import throttles
from games.models import DailyChallenge
from leaderboards import index
from tests.games import factories
from tests.leaderboards.helpers import NOON


@pytest.fixture
def travel(monkeypatch) -> Iterator[Callable[[dt.datetime], None]]:
    """`travel(datetime)` sets the server clock (aware or naive UTC) until the test ends."""

    def go(when: dt.datetime) -> None:
        moment = when if when.tzinfo else when.replace(tzinfo=dt.UTC)
        monkeypatch.setattr(clock, "now", lambda: moment)

    yield go


@pytest.fixture(autouse=True)
def fresh_health(monkeypatch):
    """Each test starts with Redis taken to be up and no warning given yet."""
    monkeypatch.setattr(index, "_health", index._Health())


@pytest.fixture(autouse=True)
def fresh_throttles(monkeypatch):
    monkeypatch.setattr(
        throttles.ScopeThrottle, "cache_format", f"throttle_{uuid.uuid4().hex}_%(scope)s_%(ident)s"
    )


@pytest.fixture
def no_redis(settings):
    """The embedded default: no Redis, boards from the database."""
    settings.REDIS_URL = ""


@pytest.fixture
def redis_index(settings) -> Iterator[index.redis.Redis]:
    """The real Redis (REDIS_URL), keys under a prefix of this test's own, deleted after."""
    settings.REDIS_URL = os.environ["REDIS_URL"]
    prefix = f"test:lb:{uuid.uuid4().hex}:"
    settings.LEADERBOARD_KEY_PREFIX = prefix
    conn = index.client()
    assert conn is not None
    yield conn
    for key in conn.scan_iter(match=f"{prefix}*"):
        conn.delete(key)


@pytest.fixture
def today_daily(db, travel) -> DailyChallenge:
    travel(NOON)
    return factories.daily("masterpiece")
