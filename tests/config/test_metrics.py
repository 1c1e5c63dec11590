"""The metrics (config/monitoring/): who may read `GET /metrics`, and that each metric counts
what it says, in this process (the default registry) and added up over several processes
(prometheus_client's multiprocess mode, as gunicorn's workers run it: test_gunicorn_metrics.py
runs gunicorn itself; tests/deploy/test_prometheus.py a real Prometheus)."""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
import re
import subprocess
import threading
import uuid
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import HttpCommunicator, WebsocketCommunicator
from prometheus_client import REGISTRY
from prometheus_client.parser import text_string_to_metric_families
from redis.exceptions import ConnectionError as RedisConnectionError

from config import outagelog
from games import clock, errors, services
from games.identity import COOKIE_NAME
from infra import metrics
from tests.config.support import PYTHON, ROOT, clean_env
from tests.games import factories

TOKEN = "t" * 40


def value(name: str, **labels: str) -> float:
    """A sample of this process's default registry (0 when it has not been counted yet)."""
    return REGISTRY.get_sample_value(name, labels) or 0.0


def samples(text: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """The samples of an exposition, by name and labels."""
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


def application() -> Any:
    from config.asgi import application as app

    return app


async def get(path: str, headers: list[tuple[bytes, bytes]], client: tuple[str, int] | None):
    communicator = HttpCommunicator(application(), "GET", path, headers=headers)
    if client is not None:
        communicator.scope["client"] = client
    else:
        communicator.scope.pop("client", None)
    return await communicator.get_response(timeout=10)


# -- who may read them ---------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
async def test_with_a_token_the_metrics_answer_it_alone_and_anyone_else_gets_a_404(settings):
    settings.METRICS_TOKEN = TOKEN
    host = (b"host", b"localhost")
    outsider = ("203.0.113.7", 50000)

    for headers in (
        [host],
        [host, (b"authorization", b"Bearer " + b"u" * 40)],
        [host, (b"authorization", TOKEN.encode())],  # no "Bearer"
        [host, (b"authorization", b"Basic " + TOKEN.encode())],
    ):
        refused = await get("/metrics", headers, outsider)
        assert refused["status"] == 404, headers
        assert b"patience_" not in refused["body"]
    # This machine needs the token too once there is one.
    assert (await get("/metrics", [host], ("127.0.0.1", 50000)))["status"] == 404

    answer = await get(
        "/metrics", [host, (b"authorization", b"Bearer " + TOKEN.encode())], outsider
    )
    assert answer["status"] == 200
    headers = dict(answer["headers"])
    assert headers[b"content-type"].startswith(b"text/plain; version=0.0.4")
    assert headers[b"cache-control"] == b"no-store"
    text = answer["body"].decode()
    # Events, and what is read at scrape time (the database, and the tasks without Redis).
    for name in (
        "patience_http_requests_total",
        "patience_moves_total",
        "patience_sockets_open",
        'patience_dailies_ready{game="munger"}',
        'patience_dailies_ready{game="masterpiece"}',
        "patience_fairplay_held",
        "patience_celery_tasks_total",
    ):
        assert name in text, name


def test_without_a_token_only_this_machine_may_read_and_only_with_no_proxy_in_front(settings):
    settings.METRICS_TOKEN = ""

    def scope(client: Any) -> dict[str, Any]:
        return {"type": "http", "path": "/metrics", "headers": [], "client": client}

    settings.NUM_PROXIES = 0
    assert metrics.allowed(scope(("127.0.0.1", 1)))
    assert metrics.allowed(scope(("::1", 1)))
    assert not metrics.allowed(scope(("10.0.0.8", 1)))
    assert not metrics.allowed(scope(None))
    # Behind a proxy on this machine every request comes from loopback: nobody then.
    settings.NUM_PROXIES = 1
    assert not metrics.allowed(scope(("127.0.0.1", 1)))


def test_a_short_token_is_refused_at_start():
    from tests.config.support import settings_error

    assert "METRICS_TOKEN must be at least 32 characters" in settings_error(METRICS_TOKEN="short")


# -- requests ------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_requests_are_counted_by_route_name_and_status_never_by_path(client):
    route = "games_api:attempt"
    before = (
        value("patience_http_requests_total", route=route, method="GET", status="404"),
        value("patience_http_request_duration_seconds_count", route=route),
    )

    for attempt_id in (123457, 987653):
        assert client.get(f"/api/attempts/{attempt_id}/").status_code == 404
    client.generic("BREW", "/api/attempts/5/")
    client.get("/api/no-such-endpoint/")

    assert value("patience_http_requests_total", route=route, method="GET", status="404") == (
        before[0] + 2
    )
    assert value("patience_http_request_duration_seconds_count", route=route) == before[1] + 3
    assert value("patience_http_requests_total", route=route, method="other", status="405") >= 1
    assert (
        value("patience_http_requests_total", route="api-not-found", method="GET", status="404")
        >= 1
    )
    routes = {
        sample.labels["route"]
        for family in REGISTRY.collect()
        if family.name == "patience_http_requests"
        for sample in family.samples
    }
    assert not [r for r in routes if "123457" in r or "987653" in r or r.startswith("/")]


def test_a_route_is_its_patterns_name():
    class Match:
        view_name = "games_api:attempt-moves"

    class Request:
        path = "/api/attempts/12/moves/"
        resolver_match = Match()

    assert metrics.route_of(Request()) == "games_api:attempt-moves"
    Request.resolver_match = None  # type: ignore[assignment]
    Request.path = "/static/frontend/app.js"
    assert metrics.route_of(Request()) == "static"
    Request.path = "/somewhere/"
    assert metrics.route_of(Request()) == "unmatched"


# -- moves ---------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_moves_accepted_and_refused_are_counted_by_reason(django_capture_on_commit_callbacks):
    daily = factories.daily("masterpiece")
    player = factories.player("alice")
    attempt, _ = services.attempt_start(player=player, daily=daily)
    moves = list(daily.deal.certificate)
    accepted = value("patience_moves_total", outcome="accepted", reason="")
    wrong_seq = value("patience_moves_total", outcome="refused", reason="wrong_seq")
    malformed = value("patience_moves_total", outcome="refused", reason="malformed_move")

    with django_capture_on_commit_callbacks(execute=True):
        for seq in range(3):
            services.attempt_play(attempt_id=attempt.pk, player=player, seq=seq, move=moves[seq])
        # The same move sent again is answered again, not stored again.
        services.attempt_play(attempt_id=attempt.pk, player=player, seq=2, move=moves[2])
    with pytest.raises(errors.Conflict):
        services.attempt_play(attempt_id=attempt.pk, player=player, seq=9, move=moves[3])
    with pytest.raises(errors.Malformed):
        services.attempt_play(attempt_id=attempt.pk, player=player, seq=3, move="nonsense")

    assert value("patience_moves_total", outcome="accepted", reason="") == accepted + 3
    assert value("patience_moves_total", outcome="refused", reason="wrong_seq") == wrong_seq + 1
    assert (
        value("patience_moves_total", outcome="refused", reason="malformed_move") == malformed + 1
    )


# -- sockets -------------------------------------------------------------------------------------


def test_every_socket_route_has_its_kind():
    from realtime.routing import websocket_urlpatterns

    for pattern in websocket_urlpatterns:
        path = "/" + re.sub(r"<[^>]+>", "1", str(pattern.pattern))
        assert metrics.socket_kind(path) in metrics.SOCKET_KINDS, path
    assert metrics.socket_kind("/ws/nothing/") == "other"
    assert metrics.socket_kind("/play/1/") == "other"


@database_sync_to_async
def a_game() -> tuple[Any, str, int, list[str]]:
    daily = factories.daily("masterpiece")
    player = factories.player("alice")
    attempt, _ = services.attempt_start(player=player, daily=daily)
    return player, services.player_token_issue(player=player), attempt.pk, daily.deal.certificate


def play_socket(attempt_id: int, token: str) -> WebsocketCommunicator:
    headers = [
        (b"origin", b"http://localhost"),
        (b"host", b"localhost"),
        (b"cookie", f"{COOKIE_NAME}={token}".encode()),
    ]
    return WebsocketCommunicator(application(), f"/ws/play/{attempt_id}/", headers=headers)


@pytest.mark.django_db(transaction=True)
async def test_open_sockets_messages_and_live_events_are_counted():
    _, token, attempt_id, moves = await a_game()
    opened = value("patience_sockets_open", kind="play")
    resyncs = value("patience_socket_messages_total", kind="play", type="resync")
    socket_moves = value("patience_socket_messages_total", kind="play", type="move")
    pushed = value("patience_live_events_sent_total", kind="play")

    first, second = play_socket(attempt_id, token), play_socket(attempt_id, token)
    for socket in (first, second):
        assert (await socket.connect())[0]
        assert (await socket.receive_json_from(timeout=5))["type"] == "state"
    assert value("patience_sockets_open", kind="play") == opened + 2

    await first.send_json_to({"type": "resync", "version": 0})
    assert (await first.receive_json_from(timeout=5))["type"] == "state"
    await first.send_json_to({"type": "move", "seq": 0, "move": moves[0]})
    assert (await first.receive_json_from(timeout=5))["type"] == "state"
    # The other tab gets the new state pushed: a live event.
    assert (await second.receive_json_from(timeout=5))["state"]["version"] == 1

    assert value("patience_socket_messages_total", kind="play", type="resync") == resyncs + 1
    assert value("patience_socket_messages_total", kind="play", type="move") == socket_moves + 1
    assert value("patience_live_events_sent_total", kind="play") == pushed + 1

    await first.disconnect()
    await second.disconnect()
    await asyncio.sleep(0.1)
    assert value("patience_sockets_open", kind="play") == opened


async def test_a_refused_socket_is_open_only_while_it_is_being_closed():
    opened = value("patience_sockets_open", kind="other")
    socket = WebsocketCommunicator(
        application(), "/ws/nowhere/", headers=[(b"origin", b"http://localhost")]
    )
    assert (await socket.connect())[0]
    assert (await socket.receive_output(timeout=3))["code"] == 4404
    assert value("patience_sockets_open", kind="other") == opened
    await socket.wait()


# -- errors of an outage -------------------------------------------------------------------------


def test_the_errors_an_outage_filter_holds_back_are_counted(caplog):
    counted = value("patience_outage_errors_total", service="redis", logger="django_redis.cache")
    back = threading.Event()  # Redis "answers again" when the test ends: the watcher stops
    outage = outagelog.Outage("Redis", answers=back.is_set)
    redis_filter = outagelog.OutageFilter(outage, outagelog.outage_error)

    def record() -> logging.LogRecord:
        try:
            raise RedisConnectionError("Error 111 connecting to 127.0.0.1:1")
        except RedisConnectionError as exc:
            error = exc
        return logging.LogRecord(
            "django_redis.cache",
            logging.ERROR,
            __file__,
            1,
            "cache failed",
            (),
            (
                type(error),
                error,
                None,
            ),
        )

    try:
        with caplog.at_level(logging.ERROR, logger="config.redis"):
            assert redis_filter.filter(record()) is False  # starts the outage
            assert redis_filter.filter(record()) is False
            assert outage.hold(record()) is True
    finally:
        back.set()
    assert (
        value("patience_outage_errors_total", service="redis", logger="django_redis.cache")
        == counted + 3
    )


# -- the database pool ---------------------------------------------------------------------------


class FakePool:
    def __init__(self) -> None:
        self.stats: dict[str, int] = {}

    def get_stats(self) -> dict[str, int]:
        return dict(self.stats)


def test_the_pool_is_read_from_its_stats_and_its_counters_only_grow():
    pool = FakePool()
    errors_before = value("patience_db_pool_errors_total", kind="timeout")
    connect_before = value("patience_db_pool_errors_total", kind="connect")
    waited_before = value("patience_db_pool_wait_seconds_total")
    pool.stats = {
        "pool_max": 20,
        "pool_size": 7,
        "pool_available": 2,
        "requests_waiting": 3,
        "requests_errors": 4,
        "connections_errors": 1,
        "requests_wait_ms": 1500,
    }
    metrics._pool_seen.clear()
    metrics.sample_pool(pool)

    assert value("patience_db_pool_connections", state="in_use") == 5
    assert value("patience_db_pool_connections", state="idle") == 2
    assert value("patience_db_pool_max") == 20
    assert value("patience_db_pool_waiting") == 3
    assert value("patience_db_pool_errors_total", kind="timeout") == errors_before + 4
    assert value("patience_db_pool_errors_total", kind="connect") == connect_before + 1
    assert value("patience_db_pool_wait_seconds_total") == pytest.approx(waited_before + 1.5)

    # Sampled again: only what the pool's counters gained since; a new pool starts from 0.
    pool.stats.update(requests_errors=6, requests_waiting=0)
    metrics.sample_pool(pool)
    assert value("patience_db_pool_errors_total", kind="timeout") == errors_before + 6
    assert value("patience_db_pool_waiting") == 0
    pool.stats.update(requests_errors=1)
    metrics.sample_pool(pool)
    assert value("patience_db_pool_errors_total", kind="timeout") == errors_before + 7
    metrics._pool_seen.clear()


@pytest.mark.postgres
@pytest.mark.django_db
def test_the_pool_of_the_database_connection_is_the_one_read(settings):
    from django.db import connection

    connection.ensure_connection()
    metrics.sample_pool()
    assert value("patience_db_pool_max") == settings.DATABASE_POOL_SIZE
    assert value("patience_db_pool_connections", state="in_use") >= 1
    metrics._pool_seen.clear()


# -- read at scrape time -------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_dailies_ready_count_published_certified_days_from_today_on():
    from config.monitoring.receivers import dailies_ready, fairplay_held

    today = clock.today()
    for days in (-1, 0, 1, 2):
        factories.daily("masterpiece", today + dt.timedelta(days=days))
    unpublished = factories.daily("masterpiece", today + dt.timedelta(days=3))
    unpublished.published = False
    unpublished.save()

    [family] = list(dailies_ready())
    counts = {sample.labels["game"]: sample.value for sample in family.samples}
    assert counts == {"masterpiece": 3, "munger": 0}
    [held] = list(fairplay_held())
    assert held.samples[0].value == 0


def test_celery_tasks_are_counted_without_redis_in_this_process(settings):
    from config.celery import app

    settings.REDIS_URL = ""
    metrics._local_tasks.clear()
    app.tasks["celery.accumulate"].apply(args=(1,))
    app.tasks["celery.accumulate"].apply(args=(2,))

    [tasks] = list(metrics.redis_readings())
    assert [(s.labels, s.value) for s in tasks.samples] == [
        ({"task": "celery.accumulate", "outcome": "success"}, 2.0)
    ]
    metrics._local_tasks.clear()


@pytest.mark.redis
def test_celery_queues_and_task_outcomes_are_read_from_redis(settings, monkeypatch):
    import redis

    client = redis.Redis.from_url(settings.REDIS_URL)
    queue = f"test-metrics-{uuid.uuid4().hex[:8]}"
    monkeypatch.setattr(metrics, "queues", lambda: [queue])
    # A key of the test's own: this process's workers (other tests') count under its prefix.
    key = f"{metrics.tasks_key()}-{uuid.uuid4().hex[:8]}"
    monkeypatch.setattr(metrics, "tasks_key", lambda: key)
    client.rpush(queue, "a", "b", "c")
    try:
        metrics.task_done("games.tasks.ensure_dailies", "success")
        metrics.task_done("games.tasks.ensure_dailies", "success")
        metrics.task_done("games.tasks.solve_deal", "failure")
        waiting, tasks = list(metrics.redis_readings())
    finally:
        client.delete(queue, metrics.tasks_key())

    assert [(s.labels, s.value) for s in waiting.samples] == [({"queue": queue}, 3)]
    assert {(s.labels["task"], s.labels["outcome"]): s.value for s in tasks.samples} == {
        ("games.tasks.ensure_dailies", "success"): 2,
        ("games.tasks.solve_deal", "failure"): 1,
    }


def test_what_redis_cannot_answer_is_left_out_of_the_scrape(settings, caplog):
    settings.REDIS_URL = "redis://127.0.0.1:1/0"  # nothing listens there
    collected = {family.name for family in metrics._Readings().collect()}
    assert "patience_celery_queue_length" not in collected
    assert "patience_celery_tasks" not in collected


# -- several processes ---------------------------------------------------------------------------

COUNT = """
import os, sys
from infra import metrics
metrics.MOVES.labels("accepted", "").inc(int(sys.argv[1]))
metrics.SOCKETS_OPEN.labels("daily").inc(int(sys.argv[2]))
print(os.getpid())
"""

EXPOSE = """
import sys
from prometheus_client import multiprocess
from infra import metrics
if len(sys.argv) > 1:
    multiprocess.mark_process_dead(int(sys.argv[1]))
sys.stdout.write(metrics.exposition().decode())
"""


@pytest.mark.slow
def test_several_processes_are_added_up_in_multiprocess_mode(tmp_path):
    env = clean_env(PROMETHEUS_MULTIPROC_DIR=str(tmp_path), PYTHONPATH=str(ROOT))

    def run(code: str, *args: str) -> str:
        done = subprocess.run(
            [PYTHON, "-c", code, *args], cwd=ROOT, env=env, capture_output=True, text=True
        )
        assert done.returncode == 0, done.stderr
        return done.stdout

    first = run(COUNT, "3", "1").strip()
    run(COUNT, "4", "2")
    both = samples(run(EXPOSE))
    assert both[("patience_moves_total", (("outcome", "accepted"), ("reason", "")))] == 7
    assert both[("patience_sockets_open", (("kind", "daily"),))] == 3

    # A process that died: its sockets are no longer open, its moves were still played.
    after = samples(run(EXPOSE, first))
    assert after[("patience_moves_total", (("outcome", "accepted"), ("reason", "")))] == 7
    assert after[("patience_sockets_open", (("kind", "daily"),))] == 2


def test_gunicorns_settings_choose_multiprocess_mode_before_any_worker_imports_the_client(
    tmp_path,
):
    code = (
        "import os, sys, config.gunicorn as g; "
        "print(os.environ['PROMETHEUS_MULTIPROC_DIR'], 'prometheus_client' in sys.modules)"
    )
    done = subprocess.run(
        [PYTHON, "-c", code], cwd=ROOT, env=clean_env(), capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["/tmp/patience-metrics", "False"]

    folder = tmp_path / "metrics"
    folder.mkdir()
    (folder / "counter_12345.db").write_bytes(b"stale")
    with pytest.MonkeyPatch.context() as patch:
        # Set before the module is imported: it sets the variable when it is unset, and this
        # process's later subprocesses must not inherit it.
        patch.setenv("PROMETHEUS_MULTIPROC_DIR", str(folder))
        from config import gunicorn

        gunicorn.on_starting(server=None)
        assert folder.is_dir() and not list(folder.iterdir())
        (folder / "gauge_livesum_12345.db").write_bytes(b"")
        (folder / "counter_12345.db").write_bytes(b"")

        class Worker:
            pid = 12345

        gunicorn.child_exit(server=None, worker=Worker())
        assert [path.name for path in folder.iterdir()] == ["counter_12345.db"]
