"""The ASGI application: HTTP goes through the body-size limit to Django, WebSockets through the
origin check to Channels (an unknown path is refused with close code 4404)."""

from collections.abc import Iterator

import pytest
from channels.routing import ProtocolTypeRouter
from channels.testing import HttpCommunicator, WebsocketCommunicator

from tests.realtime.conftest import refused_with


def asgi_application() -> ProtocolTypeRouter:
    # Imported in the test, after pytest-django has set up the test environment.
    from config.asgi import application

    return application


def allowed_origin() -> bytes:
    from django.conf import settings

    hosts = [h for h in settings.ALLOWED_HOSTS if h not in {"*", ""} and not h.startswith(".")]
    return f"http://{hosts[0] if hosts else 'localhost'}".encode()


def test_application_routes_http_and_websocket():
    application = asgi_application()

    assert isinstance(application, ProtocolTypeRouter)
    assert set(application.application_mapping) == {"http", "websocket", "lifespan"}


async def test_the_lifespan_runs_the_live_boards_flusher_from_start_to_stop():
    """What the live side runs per process starts with the server and stops with it."""
    from asgiref.testing import ApplicationCommunicator

    from realtime import boards

    server = ApplicationCommunicator(asgi_application(), {"type": "lifespan"})
    await server.send_input({"type": "lifespan.startup"})
    assert (await server.receive_output(5))["type"] == "lifespan.startup.complete"
    running = boards.flusher.task
    assert running is not None and not running.done()

    await server.send_input({"type": "lifespan.shutdown"})
    assert (await server.receive_output(5))["type"] == "lifespan.shutdown.complete"
    assert running.done() and boards.flusher.task is None


@pytest.mark.django_db(transaction=True)
async def test_http_is_served_by_django(settings):
    from config.testing import PLAIN_STATIC_FILES

    for name, value in PLAIN_STATIC_FILES.items():  # pages without collectstatic
        setattr(settings, name, value)
    communicator = HttpCommunicator(
        asgi_application(), "GET", "/", headers=[(b"host", b"localhost")]
    )

    # A first page renders its templates (and may load the URLconf) on a busy machine: the
    # communicator's default of 1 s is a deadline for a hung app, not a speed test.
    response = await communicator.get_response(timeout=30)

    assert response["status"] == 200
    assert b"Patience Daily" in response["body"]


async def test_websocket_from_a_foreign_origin_is_refused():
    communicator = WebsocketCommunicator(
        asgi_application(), "/ws/anything/", headers=[(b"origin", b"http://evil.example")]
    )

    assert await refused_with(communicator) == 4403


async def test_websocket_to_an_unknown_path_is_refused_cleanly_with_4404():
    communicator = WebsocketCommunicator(
        asgi_application(), "/ws/no-such-route/", headers=[(b"origin", allowed_origin())]
    )

    assert await refused_with(communicator) == 4404
    await communicator.wait()


async def test_an_oversized_http_body_is_refused_before_django_reads_it():
    communicator = HttpCommunicator(
        asgi_application(),
        "POST",
        "/api/practice/",
        body=b"x" * (16 * 1024 + 1),
        headers=[(b"host", b"localhost"), (b"content-length", str(16 * 1024 + 1).encode())],
    )

    response = await communicator.get_response()

    assert response["status"] == 413
    assert b'"too_large"' in response["body"]


async def test_websocket_from_another_port_of_the_same_host_is_refused():
    communicator = WebsocketCommunicator(
        asgi_application(),
        "/ws/no-such-route/",
        headers=[(b"origin", b"http://localhost:8081"), (b"host", b"localhost:8000")],
    )

    assert await refused_with(communicator) == 4403  # the origin check, before any route


async def test_websocket_from_the_sites_own_origin_reaches_the_routes():
    communicator = WebsocketCommunicator(
        asgi_application(),
        "/ws/no-such-route/",
        headers=[(b"origin", b"http://localhost:8000"), (b"host", b"localhost:8000")],
    )

    assert await refused_with(communicator) == 4404  # past the origin check, no such route


async def _hand_overs_to_the_loop(application, monkeypatch, path: str) -> tuple[int, int]:
    """(status, how many times the request's thread handed work back to the event loop)."""
    from asgiref import sync

    calls = []
    original = sync.AsyncToSync.__call__

    def counted(self, *args, **kwargs):
        calls.append(self.awaitable)
        return original(self, *args, **kwargs)

    monkeypatch.setattr(sync.AsyncToSync, "__call__", counted)
    communicator = HttpCommunicator(application, "GET", path, headers=[(b"host", b"localhost")])
    response = await communicator.get_response()
    return response["status"], len(calls)


@pytest.mark.django_db(transaction=True)
@pytest.mark.optimisation
async def test_a_request_runs_its_middleware_and_view_in_one_visit_to_the_thread(
    settings, monkeypatch
):
    from django.core.handlers.asgi import ASGIHandler

    from config.handler import SyncStackASGIHandler
    from config.testing import PLAIN_STATIC_FILES

    for name, value in PLAIN_STATIC_FILES.items():
        setattr(settings, name, value)

    ours = await _hand_overs_to_the_loop(SyncStackASGIHandler(), monkeypatch, "/api/dailies/")
    djangos = await _hand_overs_to_the_loop(ASGIHandler(), monkeypatch, "/api/dailies/")

    assert ours == (200, 0)
    assert djangos[0] == 200 and djangos[1] >= 1  # the innermost step went back to the loop


@pytest.mark.django_db(transaction=True)
async def test_the_handler_answers_an_unknown_path_with_the_sites_404(settings):
    from config.handler import SyncStackASGIHandler

    communicator = HttpCommunicator(
        SyncStackASGIHandler(), "GET", "/no-such-page/", headers=[(b"host", b"localhost")]
    )

    response = await communicator.get_response()

    assert response["status"] == 404


@pytest.fixture
def finished_requests() -> Iterator[list[tuple[int, bool]]]:
    """Per request, as `request_finished` sees it in the request's thread (after Django's own
    receivers, which give the request's connection back): the thread, and whether that
    thread's database connection is still open."""
    import threading

    from django.core import signals
    from django.db import connection

    seen: list[tuple[int, bool]] = []

    def finished(**kwargs):
        seen.append((threading.get_ident(), connection.connection is not None))

    signals.request_finished.connect(finished, weak=False, dispatch_uid="finished_requests")
    yield seen
    signals.request_finished.disconnect(dispatch_uid="finished_requests")


async def _one_after_another(requests: int) -> None:
    from config.handler import SyncStackASGIHandler

    handler = SyncStackASGIHandler()
    for _ in range(requests):
        communicator = HttpCommunicator(
            handler, "GET", "/api/dailies/", headers=[(b"host", b"localhost")]
        )
        assert (await communicator.get_response())["status"] == 200
        await communicator.wait()  # the request's end: its response closed


@pytest.mark.django_db(transaction=True)
@pytest.mark.optimisation
async def test_requests_one_after_another_are_served_by_one_kept_thread(finished_requests):
    """No thread is started per request."""
    await _one_after_another(3)

    assert len(finished_requests) == 3
    assert len({thread for thread, _ in finished_requests}) == 1


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
async def test_a_kept_thread_holds_no_database_connection_between_requests(finished_requests):
    """The request's connection goes back to the pool when the request ends (an in-memory
    SQLite database is never closed, hence PostgreSQL)."""
    await _one_after_another(2)

    assert [still_open for _, still_open in finished_requests] == [False, False]


@pytest.mark.django_db(transaction=True)
@pytest.mark.optimisation
async def test_a_request_visits_its_thread_once(monkeypatch):
    """`request_started`, the chain and `request_finished` in one call to the thread."""
    from asgiref import sync

    from config.handler import SyncStackASGIHandler

    visits = []
    original = sync.SyncToAsync.__call__

    async def counted(self, *args, **kwargs):
        visits.append(self.func)
        return await original(self, *args, **kwargs)

    monkeypatch.setattr(sync.SyncToAsync, "__call__", counted)
    communicator = HttpCommunicator(
        SyncStackASGIHandler(), "GET", "/api/dailies/", headers=[(b"host", b"localhost")]
    )
    assert (await communicator.get_response())["status"] == 200
    await communicator.wait()

    assert len(visits) == 1


@pytest.mark.django_db(transaction=True)
async def test_a_streamed_static_file_is_sent_whole_then_its_response_closed(
    settings, finished_requests
):
    from pathlib import Path

    from config.handler import SyncStackASGIHandler
    from config.testing import PLAIN_STATIC_FILES

    for name, value in PLAIN_STATIC_FILES.items():
        setattr(settings, name, value)
    path = "frontend/race/race.js"
    communicator = HttpCommunicator(
        SyncStackASGIHandler(),
        "GET",
        "/" + f"{settings.STATIC_URL}{path}".lstrip("/"),
        headers=[(b"host", b"localhost")],
    )

    await communicator.send_input({"type": "http.request", "body": b""})
    start = await communicator.receive_output(5)
    body = b""
    while True:  # as a server reads a streamed answer (the last message may carry no body)
        chunk = await communicator.receive_output(5)
        body += chunk.get("body", b"")
        if not chunk.get("more_body", False):
            break
    await communicator.wait()

    assert start["status"] == 200
    assert body == (Path("frontend/static") / path).read_bytes()
    assert len(finished_requests) == 1  # closed once, after its content went out


@pytest.mark.django_db(transaction=True)
async def test_requests_at_the_same_time_are_each_served_by_a_thread_of_their_own(monkeypatch):
    import asyncio
    import threading

    from django.core import signals

    from config.handler import SyncStackASGIHandler

    handler = SyncStackASGIHandler()
    both_in = threading.Barrier(2, timeout=10)  # each request waits in its thread for the other
    threads: list[int] = []

    def started(**kwargs):
        threads.append(threading.get_ident())
        both_in.wait()

    signals.request_started.connect(started, weak=False, dispatch_uid="test_same_time")
    try:
        answers = await asyncio.gather(
            *(
                HttpCommunicator(
                    handler, "GET", "/api/dailies/", headers=[(b"host", b"localhost")]
                ).get_response()
                for _ in range(2)
            )
        )
    finally:
        signals.request_started.disconnect(dispatch_uid="test_same_time")

    assert [a["status"] for a in answers] == [200, 200]
    assert len(set(threads)) == 2


def test_a_server_process_collects_with_its_own_thresholds_and_the_startup_heap_frozen():
    import subprocess
    import sys

    probe = (
        "import django, gc, os; os.environ.setdefault('DJANGO_SETTINGS_MODULE', 'config.settings');"
        "from config import server; import sys;"
        "print(gc.get_threshold() == server.GC_THRESHOLDS, gc.get_freeze_count(),"
        "'games.api.views' in sys.modules)"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=60, check=True
    ).stdout.split()

    assert out[0] == "True"
    assert int(out[1]) > 10_000  # Django and the apps, loaded before serving
    assert out[2] == "True"  # the URLconf's views too, before the first request


def test_importing_the_application_leaves_the_collector_alone():
    import gc

    from config import asgi  # noqa: F401

    assert gc.get_threshold() == (700, 10, 10)


async def test_websocket_without_origin_is_not_a_browser_and_passes():
    communicator = WebsocketCommunicator(
        asgi_application(), "/ws/no-such-route/", headers=[(b"host", b"localhost:8000")]
    )

    assert await refused_with(communicator) == 4404  # past the origin check, no such route


async def test_websocket_from_a_host_that_is_not_allowed_is_refused_even_as_its_own_origin():
    """A page of a rebound DNS name: its Origin is the Host it asked, but not one of ours."""
    communicator = WebsocketCommunicator(
        asgi_application(),
        "/ws/no-such-route/",
        headers=[(b"origin", b"http://rebound.example"), (b"host", b"rebound.example")],
    )

    assert await refused_with(communicator) == 4403
