"""The real services behind the settings: PostgreSQL, the Redis channel layer and cache, Celery.

The postgres- and redis-marked tests run only when DATABASE_URL / REDIS_URL are set
(see tests/conftest.py); CI sets both.
"""

import asyncio
import uuid

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.core.cache import caches
from django.db import connection


@pytest.mark.postgres
@pytest.mark.django_db
def test_default_database_is_postgresql_through_psycopg3():
    assert connection.vendor == "postgresql"
    assert connection.Database.__name__ == "psycopg"

    User.objects.create_user(username="alice", email="alice@example.com")

    alice = User.objects.get(username="alice")
    assert alice.email == "alice@example.com"


@pytest.mark.redis
async def test_channel_layer_is_redis_and_delivers_a_message():
    from channels.layers import get_channel_layer
    from channels_redis.core import RedisChannelLayer

    layer = get_channel_layer()
    assert isinstance(layer, RedisChannelLayer)

    channel = await layer.new_channel()
    await layer.send(channel, {"type": "test.ping", "text": "hello"})
    message = await asyncio.wait_for(layer.receive(channel), timeout=5)

    assert message == {"type": "test.ping", "text": "hello"}


@pytest.mark.redis
def test_cache_is_redis_and_round_trips_a_value():
    from django_redis.cache import RedisCache

    assert isinstance(caches["default"], RedisCache)
    key = f"test:{uuid.uuid4().hex}"
    cache = caches["default"]
    cache.set(key, {"game": "munger", "moves": 87}, timeout=30)
    try:
        assert cache.get(key) == {"game": "munger", "moves": 87}
    finally:
        cache.delete(key)


def test_celery_runs_eagerly_only_without_redis():
    from config import celery_app

    assert celery_app.conf.task_always_eager is (not settings.REDIS_URL)
    if settings.REDIS_URL:
        assert celery_app.conf.broker_url == settings.REDIS_URL
