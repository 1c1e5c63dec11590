"""Redis down must not stop play: the cache (throttle counters) fails fast and is ignored, and
everything counts again when Redis is back. This test runs its own redis-server on a free port
and stops only that one."""

from __future__ import annotations

import logging
import shutil
import subprocess
import uuid

import pytest
from django.core.cache import caches
from rest_framework.test import APIClient

from games.api import throttles
from infra import ratewindows
from tests.config.support import free_port, stop, wait_for_port
from tests.games import factories

pytestmark = pytest.mark.slow


def start_redis(port: int) -> subprocess.Popen:
    server = subprocess.Popen(
        [
            shutil.which("redis-server") or "redis-server",
            "--port",
            str(port),
            "--bind",
            "127.0.0.1",
            "--save",
            "",
            "--appendonly",
            "no",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    wait_for_port(port, process=server)
    return server


@pytest.fixture
def redis_port():
    return free_port()


@pytest.fixture
def redis_cache(settings, redis_port, monkeypatch):
    """The settings' Redis cache (config/settings.py), on this test's own server."""
    settings.CACHES = {
        "default": {
            "BACKEND": "django_redis.cache.RedisCache",
            "LOCATION": f"redis://127.0.0.1:{redis_port}/0",
            "KEY_PREFIX": "patience",
            "OPTIONS": {
                "IGNORE_EXCEPTIONS": True,
                "SOCKET_CONNECT_TIMEOUT": 0.25,
                "SOCKET_TIMEOUT": 0.5,
            },
        }
    }
    settings.DJANGO_REDIS_LOG_IGNORED_EXCEPTIONS = True
    monkeypatch.setattr(
        throttles.ScopeThrottle, "cache_format", f"throttle_{uuid.uuid4().hex}_%(scope)s_%(ident)s"
    )
    yield
    caches["default"].close()


def play(client: APIClient, state: dict) -> tuple[int, dict]:
    response = client.post(
        f"/api/attempts/{state['id']}/moves/",
        {"seq": state["seq"], "move": state["legal"][0]},
        format="json",
    )
    return response.status_code, response.json()


@pytest.mark.django_db
def test_play_goes_on_while_redis_is_down_and_throttles_resume_when_it_is_back(
    settings, redis_cache, redis_port, caplog
):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {
            **settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"],
            "starts_ip": "3/min",
        },
    }
    # Every start comes from one address: a household's limit of ranked rows is not the point.
    settings.RANKED_STARTS_PER_ADDRESS = settings.RANKED_STARTS_PER_NETWORK = 100
    daily = factories.daily("masterpiece")
    path = f"/api/dailies/{daily.game}/{daily.date.isoformat()}/attempts/"
    redis = start_redis(redis_port)
    try:
        client = APIClient()
        response = client.post(path)
        assert response.status_code == 201
        state = response.json()
        status, state = play(client, state)
        assert status == 200
        assert caches["default"].keys("throttle_*")  # counted in Redis

        stop(redis)
        with caplog.at_level(logging.WARNING):
            down = [play(client, state)]
            down.append(play(client, down[-1][1]))
            starts_while_down = [APIClient().post(path).status_code for _ in range(4)]
        assert [status for status, _ in down] == [200, 200]
        assert starts_while_down == [201] * 4  # not counted: the throttle fails open
        assert "django_redis" in caplog.text or "throttles degraded" in caplog.text

        redis = start_redis(redis_port)
        status, state = play(client, down[-1][1])
        assert status == 200
        starts_after = [APIClient().post(path).status_code for _ in range(4)]
        assert starts_after[:2] == [201, 201]
        assert starts_after[-1] == 429  # counting again
    finally:
        stop(redis)


async def test_a_socket_messages_count_lets_through_while_redis_is_down_and_counts_after(
    redis_cache, redis_port, caplog, monkeypatch
):
    """The count a play socket makes from its event loop (`count_async`, an asyncio client of
    the cache's Redis): let through while Redis is down, counting again once it is back on the
    same port (empty: its script is loaded again)."""
    counter = [(f"throttle_{uuid.uuid4().hex}_socket", 2, 60)]
    monkeypatch.setattr(throttles, "_degraded_warned_at", None)  # said at most once a minute
    assert ratewindows.windows_of(throttles.shared_cache()).async_settings is not None
    redis = start_redis(redis_port)
    try:
        assert await throttles.count_async(counter) == 0.0  # the loop's client connects

        stop(redis)
        with caplog.at_level(logging.WARNING, logger="games.api.throttles"):
            down = [await throttles.count_async(counter) for _ in range(3)]
        assert down == [0.0, 0.0, 0.0]
        assert "throttles degraded" in caplog.text

        redis = start_redis(redis_port)
        back = [await throttles.count_async(counter) for _ in range(4)]
        assert back[-1] > 0  # counting again: a limit of 2 refuses the rest
        assert back.count(0.0) <= 3  # at most the first try meets the connection Redis closed
    finally:
        stop(redis)
