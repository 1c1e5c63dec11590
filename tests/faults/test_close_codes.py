"""Refused WebSockets reach real clients with their close codes (a live uvicorn, the test
database; docs/api.md, realtime/sockets.py).

A socket refused before its handshake reaches a client as an HTTP 403 and close code 1006,
whatever the reason: the documented 4403 (another site's page), 4404 (no such attempt, or not
yours, daily or path) and 4503 (the live side cannot be reached) never arrived, and the
client's rule "stop retrying on 4403 and 4404" could never run. Refusals are now accepted,
then closed with their code. A handshake without Origin (not a browser) passes, as docs/api.md
says.
"""

from __future__ import annotations

import json

import pytest
from websockets.sync.client import connect

from tests.faults.live import RedisServer, Server, close_code, dailies_ready, ws_headers

pytestmark = [pytest.mark.slow, pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def first_message(server: Server, path: str, headers: dict[str, str]) -> dict:
    with connect(server.ws_url(path), additional_headers=headers, open_timeout=10) as socket:
        return json.loads(socket.recv(timeout=10))


def test_refusals_reach_the_client_with_their_close_codes(start_server):
    daily = dailies_ready("munger")
    server = start_server()
    alice, bob = server.client(), server.client()
    status, attempt = alice.post(f"/api/dailies/munger/{daily.date.isoformat()}/attempts/")
    assert status == 201, attempt
    assert bob.post("/api/players/")[0] == 201
    play = f"/ws/play/{attempt['id']}/"
    board = f"/ws/daily/munger/{daily.date.isoformat()}/"
    foreign = {**ws_headers(server, alice.token), "Origin": "http://elsewhere.example"}
    other_port = {**ws_headers(server, alice.token), "Origin": "http://127.0.0.1:1"}

    codes = {
        "another site's page": close_code(server, play, foreign),
        "another port's page": close_code(server, board, other_port),
        "someone else's attempt": close_code(server, play, ws_headers(server, bob.token)),
        "no player": close_code(server, play, ws_headers(server, None)),
        "no such attempt": close_code(server, "/ws/play/999999/", ws_headers(server, alice.token)),
        "no such daily": close_code(
            server, "/ws/daily/munger/2999-01-01/", ws_headers(server, None)
        ),
        "no such path": close_code(server, "/ws/nothing/", ws_headers(server, None)),
    }

    assert codes == {
        "another site's page": 4403,
        "another port's page": 4403,
        "someone else's attempt": 4404,
        "no player": 4404,
        "no such attempt": 4404,
        "no such daily": 4404,
        "no such path": 4404,
    }


def test_a_socket_without_origin_passes(start_server):
    daily = dailies_ready("munger")
    server = start_server()
    alice = server.client()
    status, attempt = alice.post(f"/api/dailies/munger/{daily.date.isoformat()}/attempts/")
    assert status == 201, attempt
    cookie = {"Cookie": f"patience_player={alice.token}"}

    state = first_message(server, f"/ws/play/{attempt['id']}/", cookie)
    snapshot = first_message(server, f"/ws/daily/munger/{daily.date.isoformat()}/", {})

    assert state["type"] == "state" and state["state"]["id"] == attempt["id"]
    assert snapshot["type"] == "snapshot"


@pytest.mark.redis
def test_sockets_close_with_4503_while_redis_is_down(start_server):
    daily = dailies_ready("munger")
    redis = RedisServer().start()
    try:
        server = start_server(redis=redis.url)
        alice = server.client()
        status, attempt = alice.post(f"/api/dailies/munger/{daily.date.isoformat()}/attempts/")
        assert status == 201, attempt
        redis.stop()

        codes = [
            close_code(
                server, f"/ws/daily/munger/{daily.date.isoformat()}/", ws_headers(server, None)
            ),
            close_code(server, f"/ws/play/{attempt['id']}/", ws_headers(server, alice.token)),
        ]
    finally:
        redis.stop()

    assert codes == [4503, 4503]
