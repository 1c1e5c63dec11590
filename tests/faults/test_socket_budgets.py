"""Socket budgets across connections, transports and server processes, with real Redis: two
web processes on one Redis, one player's sockets on both and the REST API share the REST
`moves` counters (realtime/play.py), and a connection that keeps flooding is closed with 4429.
Per connection, one player with ten sockets had made ten times the moves REST allows."""

from __future__ import annotations

import json
import os
import uuid

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

LIMIT = 8


def test_one_players_sockets_on_two_processes_and_rest_share_one_budget(start_server):
    daily = dailies_ready("masterpiece")
    line = daily.deal.certificate
    shared = {"REDIS_KEY_PREFIX": f"test-{uuid.uuid4().hex[:12]}"}
    limits = {"THROTTLE_MOVES_PLAYER": f"{LIMIT}/min", **shared}
    one = start_server(redis=os.environ["REDIS_URL"], **limits)
    two = start_server(redis=os.environ["REDIS_URL"], **limits)
    alice = one.client()
    status, attempt = alice.post(f"/api/dailies/masterpiece/{daily.date.isoformat()}/attempts/")
    assert status == 201, attempt
    path = f"/ws/play/{attempt['id']}/"
    tabs = [
        connect(server.ws_url(path), additional_headers=ws_headers(server, alice.token))
        for server in (one, two, one, two)
    ]
    try:
        for tab in tabs:
            assert json.loads(tab.recv(timeout=10))["type"] == "state"
        seq, refused = 0, 0
        for turn in range(LIMIT + 4):
            tab = tabs[turn % len(tabs)]
            tab.send(json.dumps({"type": "move", "seq": seq, "move": line[seq]}))
            while True:  # skip the states of the other tabs' moves, pushed to this one
                answer = json.loads(tab.recv(timeout=10))
                if answer["type"] == "error" or answer["state"]["seq"] == seq + 1:
                    break
            if answer["type"] == "state":
                seq += 1
            else:
                assert answer["code"] == "rate_limited" and answer["retry_after"] > 0, answer
                refused += 1
        rest, _ = alice.post(
            f"/api/attempts/{attempt['id']}/moves/", {"seq": seq, "move": line[seq]}
        )
    finally:
        for tab in tabs:
            tab.close()

    assert (seq, refused, rest) == (LIMIT, 4, 429)
    status, state = alice.get(f"/api/attempts/{attempt['id']}/")
    assert state["seq"] == LIMIT


def test_a_flooding_socket_is_closed_with_4429(start_server):
    daily = dailies_ready("masterpiece")
    server = start_server(redis=os.environ["REDIS_URL"])
    alice = server.client()
    status, attempt = alice.post(f"/api/dailies/masterpiece/{daily.date.isoformat()}/attempts/")
    assert status == 201, attempt
    answers: dict[str, int] = {}
    with connect(
        server.ws_url(f"/ws/play/{attempt['id']}/"),
        additional_headers=ws_headers(server, alice.token),
    ) as tab:
        tab.recv(timeout=10)
        for _ in range(400):  # as fast as it can, never reading
            try:
                tab.send('{"type": "ping"}')
            except ConnectionClosed:
                break
        try:
            while True:
                kind = json.loads(tab.recv(timeout=10)).get("code", "pong")
                answers[kind] = answers.get(kind, 0) + 1
        except ConnectionClosed as closed:
            code = closed.rcvd.code if closed.rcvd is not None else None

    assert code == 4429
    assert answers["pong"] == 100 and 0 < answers["rate_limited"] <= 50
