"""The database becomes unreachable in the middle of a game, then comes back.

The server reaches PostgreSQL through a TCP forwarder of this test's own: cutting it drops every
open connection and refuses new ones. Meanwhile every request answers a clear 503
(`database_unavailable`, JSON under /api/, a short page elsewhere), never a 500; nothing is
half-written (the stored history is exactly the moves that were answered 200); once the
forwarder is restored, play resumes and the finished attempt verifies.
"""

from __future__ import annotations

import time

import pytest

from games import services
from games.models import Attempt
from tests.faults.live import TcpProxy, dailies_ready, database_url, wait_until

pytestmark = [pytest.mark.slow, pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

#: The pool waits this long for a connection (config/settings.py), then answers 503.
ANSWER_SECONDS = 15


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
        for _ in range(2):
            began = time.monotonic()
            status, answer = move(certificate[half])
            assert time.monotonic() - began < ANSWER_SECONDS
            assert status == 503, answer
            assert answer["code"] == "database_unavailable" and answer["retry_after"] > 0
        status, headers, _ = player.request("GET", f"/api/attempts/{state['id']}/")
        assert status == 503 and int(headers["retry-after"]) > 0
        status, page = player.get(f"/play/munger/{daily.date.isoformat()}/")
        assert status == 503 and "<html" in page and "Traceback" not in page
        status, health = player.get("/healthz/")
        assert status == 503 and health["status"] == "down"
        assert health["checks"]["database"] == "down"

        proxy.restore()
        # The pool reconnects by itself; the move refused meanwhile is sent again and counts.
        wait_until(
            lambda: move(certificate[half])[0] == 200, timeout=30, step=0.5, what="play resumed"
        )
        for token in certificate[half + 1 :]:
            status, state = move(token)
            assert status == 200, state
        assert state["status"] == "won"

        attempt = Attempt.objects.select_related("daily__deal").get(pk=state["id"])
        assert attempt.moves == answered == certificate
        assert attempt.next_seq == attempt.move_count == len(certificate)
        assert len(attempt.move_times) == len(certificate)
        assert attempt.verified and services.attempt_verify(attempt=attempt)
        assert "server_error" not in server.log()
    finally:
        proxy.close()
