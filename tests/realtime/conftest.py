"""Helpers of the WebSocket tests: sockets opened as a browser would (origin, cookie)."""

from __future__ import annotations

import asyncio
import sys
import threading
from typing import Any

import pytest
from channels.db import DatabaseSyncToAsync, database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.db.backends.utils import CursorWrapper

from games import services
from games.identity import COOKIE_NAME
from tests.games import factories

ORIGIN = b"http://localhost"


def application() -> Any:
    from config.asgi import application as app

    return app


def socket(path: str, token: str | None = None, origin: bytes = ORIGIN) -> WebsocketCommunicator:
    headers = [(b"origin", origin), (b"host", b"localhost")]
    if token is not None:
        headers.append((b"cookie", f"{COOKIE_NAME}={token}".encode()))
    return WebsocketCommunicator(application(), path, headers=headers)


async def receive(communicator: WebsocketCommunicator, timeout: float = 3) -> dict[str, Any]:
    return await communicator.receive_json_from(timeout=timeout)


async def nothing_more(communicator: WebsocketCommunicator, wait: float = 0.3) -> bool:
    """True when nothing arrives within `wait` seconds."""
    return await communicator.receive_nothing(timeout=wait)


async def refused_with(communicator: WebsocketCommunicator, timeout: float = 3) -> int:
    """The close code a refused socket gets: it is accepted, then closed at once (closed before
    the handshake, a real server would answer HTTP 403 and the client would see code 1006)."""
    connected, _ = await communicator.connect(timeout=timeout)
    assert connected, "a refusal is accepted first, so that its close code reaches the client"
    closed = await communicator.receive_output(timeout=timeout)
    assert closed["type"] == "websocket.close", closed
    return int(closed["code"])


async def close_all(*communicators: WebsocketCommunicator) -> None:
    await asyncio.gather(*(c.disconnect() for c in communicators), return_exceptions=True)


@database_sync_to_async
def a_player(name: str) -> tuple[Any, str]:
    player = factories.player(name)
    return player, services.player_token_issue(player=player)


@database_sync_to_async
def a_daily(game: str = "masterpiece") -> Any:
    return factories.daily(game)


@database_sync_to_async
def an_attempt(player: Any, daily: Any) -> Any:
    attempt, _ = services.attempt_start(player=player, daily=daily)
    return attempt


@pytest.fixture
async def flusher():
    """This test's event loop runs the live boards' flusher, as a server's lifespan does."""
    from realtime import boards

    boards.flusher.start()
    yield
    await boards.flusher.stop()


@pytest.fixture(autouse=True)
def _open_origin(settings):
    settings.ALLOWED_HOSTS = ["localhost", "testserver"]


# -- the sockets' one route to the database ------------------------------------------------------

#: What `database_sync_to_async` runs each call in: the frame a query must come from.
_HANDLER = DatabaseSyncToAsync.thread_handler.__code__


def query_route() -> str | None:
    """Why the query being made now takes a route a socket must not take, or None when it is
    made by `database_sync_to_async` (which closes the thread's old connections before and
    after it) or by a test's own code outside any event loop."""
    frame = sys._getframe(2)
    while frame is not None:
        if frame.f_code is _HANDLER:
            return None
        frame = frame.f_back
    if threading.current_thread() is threading.main_thread():
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            return None  # a sync test's own setup or check
        return "on the event loop's thread"
    return f"in thread {threading.current_thread().name}, not through database_sync_to_async"


@pytest.fixture(autouse=True)
def database_only_through_its_thread(monkeypatch):
    """Every query made while a test of the sockets runs comes through `database_sync_to_async`
    (or is the test's own, outside the event loop): a socket never reaches the database from
    the event loop, nor from a thread of its own that would keep old connections open."""
    strays: list[str] = []

    def checked(method):
        def execute(self, sql, *args, **kwargs):
            why = query_route()
            if why is not None:
                strays.append(f"{why}: {str(sql)[:80]}")
            return method(self, sql, *args, **kwargs)

        return execute

    monkeypatch.setattr(CursorWrapper, "execute", checked(CursorWrapper.execute))
    monkeypatch.setattr(CursorWrapper, "executemany", checked(CursorWrapper.executemany))
    yield
    assert not strays, strays
