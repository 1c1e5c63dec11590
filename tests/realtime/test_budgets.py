"""Play-socket budgets are the player's and the address's, across connections and transports
(realtime/play.py, realtime/sockets.py), on the embedded defaults (the in-memory layer, the
local-memory cache): one player's sockets and REST requests share the REST API's `moves`
counters, a refused message does no database work, and a connection that keeps sending past
its budget is closed with 4429. (tests/faults/test_socket_budgets.py: the same with Redis.)"""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from rest_framework.test import APIClient

from games.identity import COOKIE_NAME
from games.models import Attempt
from realtime import play, sockets
from tests.realtime.conftest import a_daily, a_player, an_attempt, close_all, receive, socket

pytestmark = pytest.mark.django_db(transaction=True)

LIMIT = 6


@pytest.fixture
def moves_limited(settings):
    rates = {**settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], "moves_player": f"{LIMIT}/min"}
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": rates}


@database_sync_to_async
def rest_move(token: str, attempt_id: int, seq: int, move: str) -> int:
    client = APIClient()
    client.cookies[COOKIE_NAME] = token
    return client.post(f"/api/attempts/{attempt_id}/moves/", {"seq": seq, "move": move}).status_code


@database_sync_to_async
def stored(attempt_id: int) -> int:
    return Attempt.objects.get(pk=attempt_id).next_seq


async def test_one_players_sockets_and_requests_share_one_budget(moves_limited, monkeypatch):
    player, token = await a_player("alice")
    daily = await a_daily()
    attempt = await an_attempt(player, daily)
    line = daily.deal.certificate
    tabs = [socket(f"/ws/play/{attempt.pk}/", token) for _ in range(3)]
    for tab in tabs:
        await tab.connect()
        await receive(tab)
    acted = []
    real_act = play._act
    monkeypatch.setattr(play, "_act", lambda *args: acted.append(args[0]) or real_act(*args))

    seq, answers = 0, []
    for turn in range(LIMIT + 3):  # round robin over the three sockets
        tab = tabs[turn % 3]
        await tab.send_json_to({"type": "move", "seq": seq, "move": line[seq]})
        answer = await receive(tab)
        while answer["type"] == "state" and answer["state"]["seq"] != seq + 1:
            answer = await receive(tab)  # another tab's move, pushed
        answers.append(answer)
        if answer["type"] == "state":
            seq += 1

    played = [a for a in answers if a["type"] == "state"]
    refused = [a for a in answers if a["type"] == "error"]
    assert len(played) == LIMIT and len(refused) == 3
    assert all(a["code"] == "rate_limited" and a["retry_after"] > 0 for a in refused)
    assert len(acted) == LIMIT  # a refused move reached no service, no database
    assert await rest_move(token, attempt.pk, seq, line[seq]) == 429  # REST shares it
    assert await stored(attempt.pk) == LIMIT
    await close_all(*tabs)


async def test_a_connection_that_keeps_flooding_is_closed_with_4429(monkeypatch, settings):
    player, token = await a_player("bob")
    attempt = await an_attempt(player, await a_daily())
    settings.SOCKET_BUDGET_MESSAGES = 5
    monkeypatch.setattr(sockets.JsonSocket, "flood_refusals", 3)
    tab = socket(f"/ws/play/{attempt.pk}/", token)
    await tab.connect()
    await receive(tab)

    for _ in range(5):
        await tab.send_json_to({"type": "ping"})
        assert (await receive(tab))["type"] == "pong"
    for _ in range(3):  # past the budget: refused and answered
        await tab.send_json_to({"type": "ping"})
        assert (await receive(tab))["code"] == "rate_limited"
    await tab.send_json_to({"type": "ping"})  # once more without waiting: closed

    closed = await tab.receive_output(timeout=3)
    assert (closed["type"], closed["code"]) == ("websocket.close", sockets.CLOSE_FLOODING)
    await close_all(tab)
