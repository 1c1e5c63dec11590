"""The server process is killed (SIGKILL) in the middle of a game and started again.

Nothing lives in the process: the player, who was playing over the play socket, reconnects to
the new process and finds the same position (same seq, same view, same legal moves), finishes
the game and the result verifies.
"""

from __future__ import annotations

import json
import time

import pytest
from websockets.sync.client import connect

from games import services
from games.models import Attempt
from tests.faults.live import Server, dailies_ready, ws_headers

pytestmark = [pytest.mark.slow, pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def play_socket(server: Server, attempt_id: int, token: str):
    return connect(
        server.ws_url(f"/ws/play/{attempt_id}/"),
        additional_headers=ws_headers(server, token),
        open_timeout=10,
    )


def send_move(ws, seq: int, token: str) -> dict:
    """One move, sent again after the wait the server names when the socket's message budget
    is spent (a whole game in a few seconds passes it), as the page does."""
    while True:
        ws.send(json.dumps({"type": "move", "seq": seq, "move": token}))
        answer = json.loads(ws.recv(timeout=10))
        if answer.get("code") != "rate_limited":
            break
        time.sleep(answer["retry_after"])
    assert answer["type"] == "state", answer
    return answer["state"]


@pytest.mark.long
def test_the_server_restarts_mid_game_and_nothing_is_lost(start_server):
    daily = dailies_ready("munger")
    certificate = list(daily.deal.certificate)
    half = len(certificate) // 2
    server = start_server()
    player = server.client()
    status, state = player.post(f"/api/dailies/munger/{daily.date.isoformat()}/attempts/")
    assert status == 201, state

    with play_socket(server, state["id"], player.token) as ws:
        assert json.loads(ws.recv(timeout=10))["type"] == "state"
        for seq, token in enumerate(certificate[:half]):
            state = send_move(ws, seq, token)
        assert state["seq"] == half
        server.kill()  # no shutdown, no goodbye: the socket just drops

    server.start()
    status, resumed = player.get(f"/api/attempts/{state['id']}/")
    assert status == 200, resumed
    for key in ("seq", "version", "view", "legal", "moves", "status", "foundation_cards"):
        assert resumed[key] == state[key], key

    with play_socket(server, state["id"], player.token) as ws:
        first = json.loads(ws.recv(timeout=10))
        assert first["type"] == "state" and first["state"]["view"] == state["view"]
        ws.send(json.dumps({"type": "resync", "version": half}))
        assert json.loads(ws.recv(timeout=10))["state"]["seq"] == half
        for seq, token in enumerate(certificate[half:], start=half):
            state = send_move(ws, seq, token)
    assert state["status"] == "won" and state["verified"]

    attempt = Attempt.objects.select_related("daily__deal").get(pk=state["id"])
    assert attempt.moves == certificate and attempt.move_count == len(certificate)
    assert services.attempt_verify(attempt=attempt)
