"""A request's id (config/requestid.py): kept from the edge's `X-Request-ID` when sane, made
otherwise, answered back, and carried by every log line of the request, of a socket's whole
life and of the Celery task the request publishes (in a real worker too). And the log formats
that show it (LOG_FORMAT: plain, json)."""

from __future__ import annotations

import asyncio
import json
import logging
import re
import subprocess
import uuid
from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

import pytest
from celery import signals
from channels.db import database_sync_to_async
from channels.testing import HttpCommunicator, WebsocketCommunicator

from config import requestid
from config.celery import app as celery_app
from games import services
from games.identity import COOKIE_NAME
from tests.config.support import PYTHON, ROOT, clean_env, strong_key
from tests.games import factories
from tests.support import CeleryWorker, database_url, wait_until

NEW_ID = re.compile(r"[0-9a-f]{32}")


def application() -> Any:
    from config.asgi import application as app

    return app


@pytest.fixture
def records(caplog) -> Iterator[pytest.LogCaptureFixture]:
    """caplog, whose records carry `request_id` as the project's log handler wrote it (its
    filter, config/settings.py LOGGING, sets it on the record, which caplog's handler, after it
    on the root logger, then keeps). The ASGI application is loaded first: loading it sets
    Django up, which configures logging again, and would take caplog's handler off."""
    application()
    yield caplog


async def not_found(request_id: bytes | None) -> tuple[bytes, Any]:
    headers = [(b"host", b"localhost")]
    if request_id is not None:
        headers.append((b"x-request-id", request_id))
    response = await HttpCommunicator(
        application(), "GET", "/api/no-such-endpoint/", headers=headers
    ).get_response(timeout=10)
    assert response["status"] == 404
    answered = [value for name, value in response["headers"] if name == b"x-request-id"]
    assert len(answered) == 1
    return answered[0], response


def logged_for(records: pytest.LogCaptureFixture) -> list[str]:
    return [
        record.request_id  # type: ignore[attr-defined]
        for record in records.records
        if record.name == "django.request" and "/api/no-such-endpoint/" in record.getMessage()
    ]


@pytest.mark.django_db(transaction=True)
async def test_a_sane_id_is_kept_answered_and_carried_by_the_requests_log_lines(records):
    answered, _ = await not_found(b"edge-id_1.2")

    assert answered == b"edge-id_1.2"
    assert logged_for(records) == ["edge-id_1.2"]
    assert requestid.current() is None  # nothing left behind


@pytest.mark.parametrize(
    "given",
    [None, b"", b"x" * 65, b"two words", b"semi;colon", "caf\u00e9".encode(), b"a/b"],
    ids=["none", "empty", "too-long", "space", "semicolon", "non-ascii", "slash"],
)
@pytest.mark.django_db(transaction=True)
async def test_a_missing_or_insane_id_is_replaced_by_a_new_one(records, given):
    answered, _ = await not_found(given)

    assert NEW_ID.fullmatch(answered.decode()), answered
    assert answered != given
    assert logged_for(records) == [answered.decode()]


@pytest.mark.django_db(transaction=True)
async def test_each_request_gets_an_id_of_its_own(records):
    first, _ = await not_found(None)
    second, _ = await not_found(None)
    assert first != second


# -- the log formats -----------------------------------------------------------------------------

LOG_SCRIPT = """
import asyncio, logging, django
django.setup()
from channels.testing import HttpCommunicator
from config.asgi import application
async def main():
    response = await HttpCommunicator(
        application, "GET", "/api/no-such-endpoint/",
        headers=[(b"host", b"localhost"), (b"x-request-id", b"format-check-1")],
    ).get_response(timeout=10)
    assert response["status"] == 404
asyncio.run(main())
logging.getLogger("config.check").warning("outside any request")
"""


def log_lines(**env: str) -> list[str]:
    done = subprocess.run(
        [PYTHON, "-c", LOG_SCRIPT],
        cwd=ROOT,
        env=clean_env(SECRET_KEY=strong_key(), STATIC_MANIFEST="false", **env),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    return done.stderr.splitlines()


@pytest.mark.slow
def test_json_lines_carry_the_request_id():
    lines = [json.loads(line) for line in log_lines(LOG_FORMAT="json") if line.startswith("{")]

    request_lines = [line for line in lines if line["logger"] == "django.request"]
    assert request_lines, lines
    line = request_lines[0]
    assert line["request_id"] == "format-check-1"
    assert line["level"] == "WARNING"
    assert line["message"] == "Not Found: /api/no-such-endpoint/"
    assert "time" in line
    outside = next(line for line in lines if line["logger"] == "config.check")
    assert outside["request_id"] == "-" and outside["message"] == "outside any request"


@pytest.mark.slow
def test_plain_lines_carry_the_request_id():
    lines = log_lines()

    assert any(
        "[format-check-1] WARNING django.request: Not Found: /api/no-such-endpoint/" in line
        for line in lines
    ), lines
    assert any("[-] WARNING config.check: outside any request" in line for line in lines)


def test_an_unknown_log_format_is_refused():
    from tests.config.support import settings_error

    assert "LOG_FORMAT is plain or json" in settings_error(LOG_FORMAT="xml")


# -- a socket ------------------------------------------------------------------------------------


@database_sync_to_async
def a_game() -> tuple[str, int]:
    daily = factories.daily("masterpiece")
    player = factories.player("alice")
    attempt, _ = services.attempt_start(player=player, daily=daily)
    return services.player_token_issue(player=player), attempt.pk


@pytest.mark.django_db(transaction=True)
async def test_a_sockets_log_lines_carry_its_id_for_its_whole_life(records, monkeypatch):
    from realtime.play import PlayConsumer

    # The idle socket is closed by a task of the socket's, started when it connected.
    monkeypatch.setattr(PlayConsumer, "idle_seconds", 0.3)
    monkeypatch.setattr(PlayConsumer, "idle_check_seconds", 0.1)
    records.set_level(logging.INFO, logger="realtime.sockets")
    token, attempt_id = await a_game()
    socket = WebsocketCommunicator(
        application(),
        f"/ws/play/{attempt_id}/",
        headers=[
            (b"origin", b"http://localhost"),
            (b"host", b"localhost"),
            (b"cookie", f"{COOKIE_NAME}={token}".encode()),
            (b"x-request-id", b"socket-7"),
        ],
    )
    assert (await socket.connect())[0]
    assert (await socket.receive_json_from(timeout=5))["type"] == "state"
    closed = await socket.receive_output(timeout=5)
    assert closed["type"] == "websocket.close" and closed["code"] == 4408

    idle = [r for r in records.records if r.getMessage().startswith("closing an idle socket")]
    assert [r.request_id for r in idle] == ["socket-7"]  # type: ignore[attr-defined]
    await socket.disconnect()


# -- Celery --------------------------------------------------------------------------------------


@celery_app.task(name="tests.config.request_id_probe")
def probe() -> str | None:
    logging.getLogger("config.probe").warning("probe ran")
    return requestid.current()


@pytest.fixture
def eager() -> Iterator[Any]:
    """`eager(True or False)`: Celery's eager mode for the test (as it was after)."""
    saved = celery_app.conf.task_always_eager

    def set_to(value: bool) -> None:
        celery_app.conf.task_always_eager = value

    yield set_to
    celery_app.conf.task_always_eager = saved


def test_a_task_published_during_a_request_carries_its_id_in_its_message(settings, eager):
    eager(False)
    queue = f"test-request-id-{uuid.uuid4().hex[:8]}"
    published: list[dict[str, Any]] = []

    def seen(headers: dict[str, Any] | None = None, **kwargs: Any) -> None:
        published.append(dict(headers or {}))

    signals.before_task_publish.connect(seen, weak=False)
    token = requestid._current.set("publish-3")
    try:
        celery_app.send_task("celery.accumulate", args=(1,), queue=queue)
    finally:
        requestid._current.reset(token)
        signals.before_task_publish.disconnect(seen)
        if settings.REDIS_URL:
            import redis

            redis.Redis.from_url(settings.REDIS_URL).delete(queue)

    assert published[-1][requestid.TASK_HEADER] == "publish-3"


def test_a_worker_runs_the_task_with_the_id_its_message_brought(records):
    task = SimpleNamespace(request=SimpleNamespace(request_id="worker-4", is_eager=False))

    requestid.task_started(task=task)
    try:
        logging.getLogger("config.probe").warning("in the task")
    finally:
        requestid.task_ended(task=task)

    assert [r.request_id for r in records.records] == ["worker-4"]  # type: ignore[attr-defined]
    assert requestid.current() is None
    # A message without the header (beat's): no id; one with an insane id: none either.
    for request in (SimpleNamespace(is_eager=False), SimpleNamespace(request_id="a b")):
        requestid.task_started(task=SimpleNamespace(request=request))
        assert requestid.current() is None


def test_an_eager_task_keeps_the_id_of_the_request_that_ran_it(records, eager):
    eager(True)
    token = requestid._current.set("eager-5")
    try:
        assert probe.delay().get() == "eager-5"
        assert requestid.current() == "eager-5"
    finally:
        requestid._current.reset(token)
    assert [r.request_id for r in records.records if r.name == "config.probe"] == ["eager-5"]  # type: ignore[attr-defined]


@pytest.mark.slow
@pytest.mark.redis
@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_real_worker_logs_the_id_of_the_request_that_published_its_task(tmp_path):
    queue = f"test-request-id-{uuid.uuid4().hex[:8]}"
    worker = CeleryWorker(queue=queue, database=database_url(), log=tmp_path / "worker.log")
    worker.start(timeout=60)
    try:

        async def publishing(scope: Any, receive: Any, send: Any) -> None:
            celery_app.send_task("celery.accumulate", args=(1,), queue=queue)
            await send({"type": "http.response.start", "status": 204, "headers": []})
            await send({"type": "http.response.body", "body": b""})

        request = HttpCommunicator(
            requestid.RequestIdMiddleware(publishing),
            "POST",
            "/",
            headers=[(b"x-request-id", b"from-request-6")],
        )
        assert asyncio.run(request.get_response(timeout=10))["status"] == 204

        def succeeded() -> list[str]:
            return [
                line
                for line in worker.log().splitlines()
                if "celery.accumulate" in line and "succeeded" in line
            ]

        [line] = wait_until(succeeded, timeout=30, what="the task's success line")
        assert "[from-request-6]" in line, worker.log()
    finally:
        worker.stop()
        # The worker counted the task's outcome for the metrics, under this process's prefix.
        import redis
        from django.conf import settings

        from infra.metrics import tasks_key

        redis.Redis.from_url(settings.REDIS_URL).delete(tasks_key())
