"""The outage log (config/outagelog.py) in this process: for Redis, with a redis-server of the
test's own that is stopped and started again; for the database, with its answer switched off
and on: one line when the outage begins, a summary per interval while it lasts, one line when
the service answers again; what is not about an outage is written as before. A bad Host is one
line without its traceback."""

from __future__ import annotations

import logging

import pytest
from django.db import OperationalError
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import ResponseError

from config import outagelog
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
    monkeypatch.setattr(outagelog, "PROBE_SECONDS", 0.05)
    monkeypatch.setattr(outagelog, "SUMMARY_SECONDS", 0.3)
    redis = RedisServer().start()
    redis.stop()
    caplog.set_level(logging.INFO, logger="config.redis")
    log_filter = outagelog.RedisOutageFilter(redis.url)
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
    wait_until(lambda: "Redis still unreachable" in caplog.text, timeout=10, what="a summary")
    restarted = RedisServer(redis.port).start()
    try:
        wait_until(lambda: "Redis reachable again" in caplog.text, timeout=10, what="the end")
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
    log_filter = outagelog.RedisOutageFilter("redis://127.0.0.1:1/0")

    assert log_filter.filter(record("games", "a plain message"))
    assert log_filter.filter(record("leaderboards.index", "bad: %r", ResponseError("WRONGTYPE")))
    assert log_filter.filter(record("config.redis", "the filter's own lines pass"))
    assert log_filter.outage is not None and log_filter.outage.since is None


def database_down() -> Exception:
    """What a request that found the database down logs: Django's error, caused by psycopg's."""
    try:
        try:
            raise ConnectionRefusedError("connection refused")
        except ConnectionRefusedError as cause:
            raise OperationalError("connection failed: connection refused") from cause
    except OperationalError as exc:
        return exc


def test_a_database_outage_is_logged_once_summed_up_and_its_end_logged(monkeypatch, caplog):
    monkeypatch.setattr(outagelog, "PROBE_SECONDS", 0.05)
    monkeypatch.setattr(outagelog, "SUMMARY_SECONDS", 0.3)
    up = {"answers": False}
    monkeypatch.setattr(outagelog, "database_answers", lambda: up["answers"])
    caplog.set_level(logging.INFO, logger="config.database")
    log_filter = outagelog.DatabaseOutageFilter()

    held = [
        log_filter.filter(
            record("config.middleware", "database unavailable: GET /", exc=database_down())
        )
        for _ in range(30)
    ]
    held.append(log_filter.filter(record("django.request", "Error: /", exc=database_down())))
    answered_503 = record("django.request", "Service Unavailable: /api/")
    answered_503.request = type("Request", (), {"database_unavailable": True})()
    held.append(log_filter.filter(answered_503))
    held.append(log_filter.filter(record("psycopg.pool", "error connecting in 'pool-1'")))
    held.append(
        log_filter.filter(record("config.database.pool", "unreachable", exc=TimeoutError()))
    )
    assert held == [False] * 33 + [True]  # a plain timeout is not the database's
    wait_until(lambda: "database still unreachable" in caplog.text, timeout=10, what="a summary")
    up["answers"] = True
    wait_until(lambda: "database reachable again" in caplog.text, timeout=10, what="the end")

    lines = [r.getMessage() for r in caplog.records if r.name == "config.database"]
    assert lines[0].startswith("database unreachable (OperationalError")
    assert sum("database unreachable" in line for line in lines) == 1
    summary = next(line for line in lines if "still unreachable" in line)
    assert "33 errors" in summary and "config.middleware 30" in summary
    assert "django.request 2" in summary and "psycopg.pool 1" in summary
    [end] = [line for line in lines if line.startswith("database reachable again")]
    assert "(33 errors held" in end


def test_the_database_answers_check_asks_the_database(db):
    assert outagelog.database_answers() is True


def test_what_is_not_a_database_outage_is_written():
    log_filter = outagelog.DatabaseOutageFilter()

    assert log_filter.filter(record("games", "a plain message"))
    assert log_filter.filter(record("django.request", "boom", exc=ValueError("a bug")))
    assert log_filter.filter(record("config.database", "the filter's own lines pass"))
    # Outside an outage, the pool's lines and Django's 503 lines are written.
    assert log_filter.filter(record("psycopg.pool", "discarding closed connection"))
    answered_503 = record("django.request", "Service Unavailable: /api/")
    answered_503.request = type("Request", (), {"database_unavailable": True})()
    assert log_filter.filter(answered_503)
    assert log_filter.outage is not None and log_filter.outage.since is None


def test_a_bad_host_is_one_line_without_its_traceback(client, caplog):
    with caplog.at_level(logging.WARNING, logger="django.security.DisallowedHost"):
        response = client.get("/api/dailies/", HTTP_HOST="evil.example")

    assert response.status_code == 400
    [line] = [r for r in caplog.records if r.name == "django.security.DisallowedHost"]
    assert "evil.example" in line.getMessage()
    assert line.exc_info is None and line.exc_text is None and line.levelname == "WARNING"
