"""The Redis outage log (config/redislog.py) in this process, with a redis-server of the test's
own that is stopped and started again: one line when the outage begins, a summary per interval
while it lasts, one line when Redis answers again; what is not about an unreachable Redis is
written as before."""

from __future__ import annotations

import logging

import pytest
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import ResponseError

from config import redislog
from tests.support import RedisServer, wait_until

pytestmark = pytest.mark.slow


def record(name: str, message: str, *args: object, exc: BaseException | None = None):
    exc_info = (type(exc), exc, None) if exc is not None else None
    return logging.LogRecord(name, logging.WARNING, __file__, 1, message, args, exc_info)


def wrapped() -> Exception:
    """What django-redis logs: its own exception, caused by redis-py's."""
    try:
        try:
            raise RedisConnectionError("Error 111 connecting. Connection refused.")
        except RedisConnectionError as cause:
            raise RuntimeError("ConnectionInterrupted") from cause
    except RuntimeError as exc:
        return exc


def test_an_outage_is_logged_once_summed_up_and_its_end_logged(monkeypatch, caplog):
    monkeypatch.setattr(redislog, "PROBE_SECONDS", 0.05)
    monkeypatch.setattr(redislog, "SUMMARY_SECONDS", 0.3)
    redis = RedisServer().start()
    redis.stop()
    caplog.set_level(logging.INFO, logger="config.redis")
    log_filter = redislog.RedisOutageFilter(redis.url)
    refused = RedisConnectionError("Error 111 connecting. Connection refused.")

    held = [
        log_filter.filter(record("realtime.layer", "the reader failed: %r", refused)),
        log_filter.filter(record("django_redis.cache", "Exception ignored", exc=wrapped())),
        log_filter.filter(record("leaderboards.index", "index unavailable: %r", refused)),
        log_filter.filter(
            record("celery.backends.redis", "Connection to Redis lost: Retry (%s/%s) now.", 0, 20)
        ),
    ]
    assert held == [False, False, False, False]
    wait_until(lambda: "still unreachable" in caplog.text, timeout=10, what="a summary")
    restarted = RedisServer(redis.port).start()
    try:
        wait_until(lambda: "reachable again" in caplog.text, timeout=10, what="the end")
    finally:
        restarted.stop()

    lines = [r.getMessage() for r in caplog.records if r.name == "config.redis"]
    assert lines[0].startswith("Redis unreachable (ConnectionError")
    assert "from realtime.layer" in lines[0]
    assert sum("Redis unreachable" in line for line in lines) == 1
    summary = next(line for line in lines if "still unreachable" in line)
    assert "4 errors in the last 0 s" in summary
    assert "realtime.layer 1" in summary and "django_redis.cache 1" in summary
    assert "celery.backends.redis 1" in summary
    assert lines[-1].startswith("Redis reachable again") and "(4 errors held back" in lines[-1]


def test_what_is_not_an_outage_is_written():
    log_filter = redislog.RedisOutageFilter("redis://127.0.0.1:1/0")

    assert log_filter.filter(record("games", "a plain message"))
    assert log_filter.filter(record("leaderboards.index", "bad: %r", ResponseError("WRONGTYPE")))
    assert log_filter.filter(record("config.redis", "the filter's own lines pass"))
    assert log_filter.outage is not None and log_filter.outage.since is None
