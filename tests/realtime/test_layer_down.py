"""A channel layer that cannot be reached (Redis down, or a pooled connection that died with a
Redis restart) never turns a socket's handshake into a server error: a first failure is tried
again, a lasting one closes with 4503 so that the client reconnects later."""

from __future__ import annotations

import asyncio

import pytest
from channels.layers import get_channel_layer
from redis.exceptions import ConnectionError as RedisConnectionError

from realtime import sockets
from tests.realtime.conftest import (
    a_daily,
    a_player,
    an_attempt,
    close_all,
    receive,
    refused_with,
    socket,
)

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def layer_failures(monkeypatch):
    """`group_add` fails this many times (set `.left`), then works again."""
    layer = get_channel_layer()
    real_group_add = layer.group_add

    class Failures:
        left = 0
        calls = 0

    async def group_add(group: str, channel: str) -> None:
        Failures.calls += 1
        if Failures.left:
            Failures.left -= 1
            raise RedisConnectionError("Connection closed by server.")
        await real_group_add(group, channel)

    monkeypatch.setattr(layer, "group_add", group_add)
    return Failures


def daily_path(daily) -> str:
    return f"/ws/daily/{daily.game}/{daily.date.isoformat()}/"


async def play_path_and_token(daily) -> tuple[str, str]:
    player, token = await a_player("alice")
    attempt = await an_attempt(player, daily)
    return f"/ws/play/{attempt.pk}/", token


async def test_a_daily_socket_closes_with_4503_while_the_layer_is_down(layer_failures):
    layer_failures.left = 10
    tab = socket(daily_path(await a_daily()))

    assert await refused_with(tab) == sockets.CLOSE_UNAVAILABLE
    assert layer_failures.calls == 2


async def test_a_play_socket_closes_with_4503_while_the_layer_is_down(layer_failures):
    layer_failures.left = 10
    path, token = await play_path_and_token(await a_daily())
    tab = socket(path, token)

    assert await refused_with(tab) == sockets.CLOSE_UNAVAILABLE


async def test_one_dead_connection_is_tried_again_and_the_socket_works(layer_failures):
    layer_failures.left = 1
    daily = await a_daily()
    watcher = socket(daily_path(daily))
    path, token = await play_path_and_token(daily)

    connected, _ = await watcher.connect()
    assert connected and (await receive(watcher))["type"] == "snapshot"

    layer_failures.left = 1
    player = socket(path, token)
    connected, _ = await player.connect()
    assert connected and (await receive(player))["type"] == "state"
    await close_all(watcher, player)


async def test_closing_an_idle_socket_whose_client_is_gone_raises_nothing():
    from uvicorn.protocols.utils import ClientDisconnected

    idle = sockets.JsonSocket()
    idle.scope = {"path": "/ws/daily/munger/2026-01-01/"}
    idle.idle_seconds, idle.idle_check_seconds, idle.last_heard = 0, 0.01, 0.0

    async def gone(code: int | None = None) -> None:
        raise ClientDisconnected()

    idle.close = gone

    await asyncio.wait_for(idle._watch(), timeout=2)  # returns; nothing escapes the task
