"""The database becomes unreachable in the middle of a game, then comes back.

The server reaches PostgreSQL through a TCP forwarder of this test's own: cutting it drops every
open connection and refuses new ones (as a stopped PostgreSQL does). Meanwhile every request
answers a clear 503 (`database_unavailable`, JSON under /api/, a short page elsewhere), never a
500, and fast: once the process knows the database is down, no request waits for the pool's
5 s (config/postgresql/base.py); socket handshakes are closed with 4503, never HTTP 500. Nothing
is half-written (the stored history is exactly the moves that were answered 200); once the
forwarder is restored, play resumes and the finished attempt verifies.

A database address that swallows connections (a listener that never answers, as a host that
drops packets) costs the connect timeout once, then every request fails fast the same way.
"""

from __future__ import annotations

import socket
import time

import pytest

from config import health
from games import services
from games.models import Attempt
from tests.faults.live import (
    Client,
    Server,
    TcpProxy,
    close_code,
    dailies_ready,
    database_url,
    wait_until,
    ws_headers,
)
from tests.support import free_port

pytestmark = [pytest.mark.slow, pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

#: The first request of an outage may wait for the pool (5 s) or the connect timeout (3 s).
FIRST_ANSWER_SECONDS = 15
#: Every later one answers at once: well under the pool's 5 s (the wait is 0.25 s).
FAST_ANSWER_SECONDS = 2.5


def timed(call, *args, **kwargs):
    began = time.monotonic()
    result = call(*args, **kwargs)
    return result, time.monotonic() - began


def assert_everything_answers_503_fast(player: Client, server: Server, paths: dict) -> None:
    for _ in range(3):
        (status, answer), seconds = timed(player.get, paths["api"])
        assert status == 503 and answer["code"] == "database_unavailable", answer
        assert seconds < FAST_ANSWER_SECONDS, seconds
    (status, page), seconds = timed(player.get, paths["page"])
    assert status == 503 and "<html" in page and "Traceback" not in page
    assert seconds < FAST_ANSWER_SECONDS, seconds

    def health_says_down() -> bool:
        (status, health), seconds = timed(player.get, "/healthz/")
        assert seconds < FAST_ANSWER_SECONDS, seconds
        assert status in (200, 503), health
        return status == 503 and health["checks"]["database"] == "down"

    # A process answers its last check for CACHE_SECONDS: the one made when it started, on a
    # machine quick enough to get here within them.
    wait_until(health_says_down, timeout=health.CACHE_SECONDS + 10, what="the health check")
    for path in (paths["play"], paths["board"]):
        code, seconds = timed(close_code, server, path, ws_headers(server, player.token), 15)
        assert code == 4503, path
        assert seconds < FAST_ANSWER_SECONDS, seconds


def test_the_database_unreachable_then_back(start_server, test_database):
    daily = dailies_ready("munger")
    certificate = list(daily.deal.certificate)
    proxy = TcpProxy((test_database["HOST"] or "127.0.0.1", int(test_database["PORT"] or 5432)))
    proxy.start()
    try:
        server = start_server(database=database_url(test_database, "127.0.0.1", proxy.port))
        player = server.client()
        status, state = player.post(f"/api/dailies/munger/{daily.date.isoformat()}/attempts/")
        assert status == 201, state
        moves_path = f"/api/attempts/{state['id']}/moves/"
        answered: list[str] = []

        def move(token: str) -> tuple[int, dict]:
            status, answer = player.post(moves_path, {"seq": len(answered), "move": token})
            if status == 200:
                answered.append(token)
            return status, answer

        half = len(certificate) // 2
        for token in certificate[:half]:
            assert move(token)[0] == 200

        proxy.cut()
        (status, answer), seconds = timed(move, certificate[half])
        assert seconds < FIRST_ANSWER_SECONDS
        assert status == 503, answer
        assert answer["code"] == "database_unavailable" and answer["retry_after"] > 0
        (status, answer), seconds = timed(move, certificate[half])
        assert status == 503 and seconds < FAST_ANSWER_SECONDS, (answer, seconds)
        status, headers, _ = player.request("GET", f"/api/attempts/{state['id']}/")
        assert status == 503 and int(headers["retry-after"]) > 0
        date = daily.date.isoformat()
        assert_everything_answers_503_fast(
            player,
            server,
            {
                "api": f"/api/attempts/{state['id']}/",
                "page": f"/play/munger/{date}/",
                "play": f"/ws/play/{state['id']}/",
                "board": f"/ws/daily/munger/{date}/",
            },
        )

        proxy.restore()
        # The pool reconnects by itself; the move refused meanwhile is sent again and counts.
        wait_until(
            lambda: move(certificate[half])[0] == 200, timeout=30, step=0.5, what="play resumed"
        )
        for token in certificate[half + 1 :]:
            status, state = move(token)
            assert status == 200, state
        assert state["status"] == "won"

        # The outage in the log: its beginning and its end, once each, and no traceback for
        # any of the requests refused meanwhile.
        wait_until(
            lambda: "database reachable again" in server.log(), timeout=30, what="the end logged"
        )
        log = server.log()
        assert log.count("database unreachable") == 1
        assert "Traceback" not in log, log[:4000]

        attempt = Attempt.objects.select_related("daily__deal").get(pk=state["id"])
        assert attempt.moves == answered == certificate
        assert attempt.next_seq == attempt.move_count == len(certificate)
        assert len(attempt.move_times) == len(certificate)
        assert attempt.verified and services.attempt_verify(attempt=attempt)
        assert "server_error" not in server.log()
    finally:
        proxy.close()


def test_a_database_address_that_never_answers(start_server, test_database):
    daily = dailies_ready("munger")
    date = daily.date.isoformat()
    swallow = socket.socket()
    swallow.bind(("127.0.0.1", free_port()))
    swallow.listen(64)  # connections are taken by the kernel, and never answered
    try:
        host, port = swallow.getsockname()
        server = start_server(database=database_url(test_database, host, port))
        player = server.client()
        status, answer = player.get("/api/dailies/")
        assert status == 503 and answer["code"] == "database_unavailable", answer
        assert_everything_answers_503_fast(
            player,
            server,
            {
                "api": f"/api/dailies/munger/{date}/",
                "page": "/",
                "play": "/ws/play/1/",
                "board": f"/ws/daily/munger/{date}/",
            },
        )
        assert "server_error" not in server.log()
        assert server.log().count("database unreachable") == 1
        assert "Traceback" not in server.log()
    finally:
        swallow.close()


def test_a_request_for_a_host_the_site_does_not_serve_is_one_line(start_server):
    dailies_ready("munger")  # nothing for the server to prepare meanwhile
    server = start_server()
    player = server.client()
    for _ in range(5):
        status, _ = player.call("GET", "/api/dailies/", headers={"Host": "evil.example"})
        assert status == 400
    lines = [line for line in server.log().splitlines() if "evil.example" in line]
    assert len(lines) == 5 and "Traceback" not in server.log()
