"""PostgreSQL closes every idle connection of the app (a quiet restart, a failover,
`idle_session_timeout`, an operator's `pg_terminate_backend`), and nobody notices.

The pool keeps connections between requests; the server closes them while they wait there.
Before a request gets one from the pool it is looked at (config/postgresql/base.py): a
connection the server has said goodbye on is dropped and another taken, so the first request
after the database answers again is served like any other, and so is a play socket's next
move.
"""

from __future__ import annotations

import json
import threading

import pytest
from django.db import connection

from games.models import Attempt
from tests.faults.live import Server, dailies_ready
from tests.faults.test_restart import play_socket, send_move
from tests.support import database_url

pytestmark = [pytest.mark.slow, pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

POOL_SIZE = 4
# The server's connections carry this name, so that only they are ended: this test process's
# other threads keep connections to the same database for the tests that follow.
APP_NAME = "patience-under-test"


def server_database() -> str:
    return f"{database_url()}?application_name={APP_NAME}"


def terminate_the_apps_connections() -> int:
    """Every connection of the server ended by PostgreSQL, as a restart does, each backend gone
    before this returns (waited for up to 5 s each)."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(pg_terminate_backend(pid, 5000)) FROM pg_stat_activity "
            "WHERE datname = current_database() AND application_name = %s",
            [APP_NAME],
        )
        return int(cursor.fetchone()[0])


def fill_the_pool(server: Server, path: str) -> None:
    """Requests at once until the pool holds all its connections (one a request in flight)."""
    barrier = threading.Barrier(POOL_SIZE)

    def ask() -> None:
        client = server.client()
        barrier.wait()
        for _ in range(5):
            assert client.get(path)[0] == 200

    threads = [threading.Thread(target=ask) for _ in range(POOL_SIZE)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()


def test_no_request_fails_after_the_server_closes_every_idle_connection(start_server):
    dailies_ready("munger")
    server = start_server(database=server_database(), DATABASE_POOL_SIZE=str(POOL_SIZE))
    fill_the_pool(server, "/api/dailies/")
    assert terminate_the_apps_connections() >= 2

    player = server.client()
    statuses = [player.get("/api/dailies/")[0] for _ in range(40)]
    assert statuses == [200] * 40
    assert "database unreachable" not in server.log()


def test_a_play_sockets_next_move_after_the_connections_are_closed(start_server):
    daily = dailies_ready("munger")
    certificate = list(daily.deal.certificate)
    server = start_server(database=server_database(), DATABASE_POOL_SIZE=str(POOL_SIZE))
    player = server.client()
    status, state = player.post(f"/api/dailies/munger/{daily.date.isoformat()}/attempts/")
    assert status == 201, state
    fill_the_pool(server, "/api/dailies/")

    with play_socket(server, state["id"], player.token) as ws:
        assert json.loads(ws.recv(timeout=10))["type"] == "state"
        for seq, token in enumerate(certificate[:3]):
            state = send_move(ws, seq, token)
        assert terminate_the_apps_connections() >= 1
        for seq, token in enumerate(certificate[3:6], start=3):
            state = send_move(ws, seq, token)
    assert state["seq"] == 6
    assert Attempt.objects.get(pk=state["id"]).moves == certificate[:6]
