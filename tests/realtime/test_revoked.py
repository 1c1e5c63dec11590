"""A play socket serves its player only while its credentials still name that player
(realtime/play.py): logging out, or linking the guest to an account, closes the sockets opened
with the revoked cookie (4403) and they read no further message; the player's sockets of
another browser go on."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from games import services, signals
from games.models import Attempt, Player
from realtime import sockets
from tests.games import factories
from tests.realtime.conftest import ORIGIN, a_daily, application, close_all, receive

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "correct horse b"


@pytest.fixture(autouse=True)
def fast_passwords(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def browser_socket(path: str, client: APIClient) -> WebsocketCommunicator:
    """A socket opened by the browser that `client` is, with all its cookies."""
    cookie = "; ".join(f"{name}={morsel.value}" for name, morsel in client.cookies.items())
    headers = [(b"origin", ORIGIN), (b"host", b"localhost"), (b"cookie", cookie.encode())]
    return WebsocketCommunicator(application(), path, headers=headers)


@database_sync_to_async
def signed_in_browser(username: str) -> APIClient:
    if not User.objects.filter(username=username).exists():
        User.objects.create_user(username=username, password=PASSWORD)
    client = APIClient()
    response = client.post("/api/accounts/login/", {"username": username, "password": PASSWORD})
    assert response.status_code == 200, response.content
    return client


@database_sync_to_async
def start(client: APIClient, daily) -> int:
    response = client.post(f"/api/dailies/{daily.game}/{daily.date.isoformat()}/attempts/")
    assert response.status_code in (200, 201), response.content
    return response.json()["id"]


@database_sync_to_async
def post(client: APIClient, path: str, body: dict | None = None) -> int:
    return client.post(path, body or {}).status_code


@database_sync_to_async
def stored(attempt_id: int) -> list[str]:
    return list(Attempt.objects.get(pk=attempt_id).moves)


async def closed_with(tab: WebsocketCommunicator) -> int:
    output = await tab.receive_output(timeout=3)
    assert output["type"] == "websocket.close", output
    return int(output["code"])


async def test_logging_out_closes_that_browsers_sockets_and_no_other():
    daily = await a_daily()
    laptop = await signed_in_browser("alice")
    phone = await signed_in_browser("alice")
    attempt_id = await start(laptop, daily)
    on_laptop = browser_socket(f"/ws/play/{attempt_id}/", laptop)
    on_phone = browser_socket(f"/ws/play/{attempt_id}/", phone)
    for tab in (on_laptop, on_phone):
        assert (await tab.connect())[0]
        assert (await receive(tab))["type"] == "state"

    assert await post(laptop, "/api/accounts/logout/") == 204

    assert await closed_with(on_laptop) == sockets.CLOSE_FORBIDDEN
    await on_phone.send_json_to({"type": "ping"})
    assert (await receive(on_phone))["type"] == "pong"
    await close_all(on_laptop, on_phone)


async def test_a_guest_linked_to_an_account_loses_its_sockets_and_their_messages():
    daily = await a_daily()
    await database_sync_to_async(User.objects.create_user)(username="alice", password=PASSWORD)
    guest = APIClient()
    attempt_id = await start(guest, daily)
    tab = browser_socket(f"/ws/play/{attempt_id}/", guest)
    assert (await tab.connect())[0]
    assert (await receive(tab))["type"] == "state"
    kept = APIClient()
    kept.cookies = guest.cookies.__class__(guest.cookies)  # the guest's cookie, kept

    body = {"username": "alice", "password": PASSWORD}
    assert await post(guest, "/api/accounts/login/", body) == 200

    assert await closed_with(tab) == sockets.CLOSE_FORBIDDEN
    # A socket opened again with the revoked cookie names nobody: refused from the start.
    again = browser_socket(f"/ws/play/{attempt_id}/", kept)
    assert (await again.connect())[0]
    assert await closed_with(again) == sockets.CLOSE_NOT_FOUND
    assert await stored(attempt_id) == []


async def test_a_lost_signal_is_caught_up_at_the_next_heartbeat(monkeypatch):
    """The channel layer may lose the push; the heartbeat asks again."""
    daily = await a_daily()
    laptop = await signed_in_browser("alice")
    attempt_id = await start(laptop, daily)
    tab = browser_socket(f"/ws/play/{attempt_id}/", laptop)
    assert (await tab.connect())[0]
    await receive(tab)
    monkeypatch.setattr(signals.player_tokens_revoked, "receivers", [])
    monkeypatch.setattr(signals.player_tokens_revoked, "sender_receivers_cache", {})

    assert await post(laptop, "/api/accounts/logout/") == 204
    assert await tab.receive_nothing(timeout=0.3)  # nothing told it
    await tab.send_json_to({"type": "move", "seq": 0, "move": daily.deal.certificate[0]})
    await tab.send_json_to({"type": "ping"})

    assert (await receive(tab))["type"] == "state"  # the move, before the heartbeat
    assert await closed_with(tab) == sockets.CLOSE_FORBIDDEN
    await tab.send_json_to({"type": "move", "seq": 1, "move": daily.deal.certificate[1]})
    assert await stored(attempt_id) == [daily.deal.certificate[0]]
    await close_all(tab)


async def test_revoking_a_players_tokens_in_a_transaction_closes_their_sockets_after_commit():
    daily = await a_daily()
    player, token = await database_sync_to_async(
        lambda: (lambda p: (p, services.player_token_issue(player=p)))(factories.player("bob"))
    )()
    client = APIClient()
    client.cookies["patience_player"] = token
    attempt_id = await start(client, daily)
    tab = browser_socket(f"/ws/play/{attempt_id}/", client)
    assert (await tab.connect())[0]
    await receive(tab)

    await database_sync_to_async(services.player_tokens_revoke)(
        player=await database_sync_to_async(Player.objects.get)(pk=player.pk)
    )

    assert await closed_with(tab) == sockets.CLOSE_FORBIDDEN
    await close_all(tab)
