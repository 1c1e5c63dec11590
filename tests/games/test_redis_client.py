"""The process's one object of a kind (infra/redis.py `PerProcess`): Redis when
REDIS_URL is set, memory otherwise, made once."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from infra.redis import PerProcess


def test_without_redis_one_object_in_memory_is_made_for_every_caller(settings):
    settings.REDIS_URL = ""
    made = []
    registry = PerProcess(lambda url, prefix: ("redis", url, prefix), lambda: made.append(1) or {})

    with ThreadPoolExecutor(4) as pool:
        seen = {id(found) for found in pool.map(lambda _: registry(), range(16))}

    assert len(seen) == 1 and made == [1]


def test_with_redis_it_is_made_from_the_url_and_the_deployments_prefix(settings):
    settings.REDIS_URL = "redis://127.0.0.1:6379/9"
    settings.REDIS_KEY_PREFIX = "elsewhere"
    registry = PerProcess(lambda url, prefix: ("redis", url, prefix), dict)

    assert registry() == ("redis", "redis://127.0.0.1:6379/9", "elsewhere")


def test_an_object_put_in_is_the_one_served(settings):
    registry = PerProcess(lambda url, prefix: "made", lambda: "made")
    registry.instance = "the test's own"

    assert registry() == "the test's own"
