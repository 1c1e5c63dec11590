"""A server process with players on it stays healthy (a live uvicorn, Redis, the test database).

Before, one open WebSocket made every `/healthz/` of its process answer 503 ("channel_layer":
"down"): the check received on the channel layer from a second event loop while the sockets'
loop was receiving, which channels-redis refuses. And about a hundred handshakes, refused or
accepted, left a receive that had lost its cancellation popping Redis for ever: health stayed
503 with nobody connected, and a graceful stop never ended. Here, with sockets open and after
many handshakes of every kind, health answers 200 "ok" to many pollers at once, and the process
stops promptly when asked.
"""

from __future__ import annotations

import concurrent.futures
import json
import subprocess

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from tests.faults.live import dailies_ready, ws_headers

pytestmark = [
    pytest.mark.slow,
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.django_db(transaction=True),
]


def healthy(client) -> tuple[int, dict]:
    return client.get("/healthz/")


def test_open_sockets_and_many_handshakes_leave_the_process_healthy(start_server):
    from django.conf import settings

    daily = dailies_ready("munger")
    server = start_server(redis=settings.REDIS_URL)
    alice = server.client()
    status, attempt = alice.post(f"/api/dailies/munger/{daily.date.isoformat()}/attempts/")
    assert status == 201, attempt
    board_path = f"/ws/daily/munger/{daily.date.isoformat()}/"

    watcher = connect(server.ws_url(board_path), additional_headers=ws_headers(server, None))
    player = connect(
        server.ws_url(f"/ws/play/{attempt['id']}/"),
        additional_headers=ws_headers(server, alice.token),
    )
    with watcher, player:
        assert json.loads(watcher.recv(timeout=10))["type"] == "snapshot"
        assert json.loads(player.recv(timeout=10))["type"] == "state"

        # With one socket of each kind open, many pollers at once.
        with concurrent.futures.ThreadPoolExecutor(40) as pool:
            answers = list(pool.map(lambda _: healthy(server.client()), range(40)))
        assert {status for status, _ in answers} == {200}
        assert {body["checks"]["channel_layer"] for _, body in answers} == {"ok"}

        # A hundred handshakes: refused (unknown path, foreign origin, an attempt without its
        # player's cookie, no such attempt) and accepted then closed at once.
        refused = accepted = 0
        for i in range(100):
            kind = i % 5
            path = {
                0: "/ws/nothing/",
                1: board_path,
                2: f"/ws/play/{attempt['id']}/",
                3: f"/ws/play/{10**9 + i}/",
                4: board_path,
            }[kind]
            headers = ws_headers(server, alice.token if kind == 3 else None)
            if kind == 1:
                headers["Origin"] = "http://elsewhere.example"
            with connect(server.ws_url(path), additional_headers=headers, open_timeout=10) as s:
                # A refusal is accepted, then closed at once with its code (4403, 4404).
                try:
                    s.recv(timeout=10)
                    accepted += 1
                except ConnectionClosed as closed:
                    assert closed.rcvd is not None and closed.rcvd.code in (4403, 4404)
                    refused += 1
        assert (refused, accepted) == (80, 20)

    status, body = healthy(alice)
    assert (status, body["status"]) == (200, "ok"), body

    # Nothing is left running: a graceful stop ends promptly.
    server.process.terminate()
    try:
        server.process.wait(timeout=15)
    except subprocess.TimeoutExpired:
        pytest.fail("the server did not stop within 15 s of SIGTERM: a task was left running")
