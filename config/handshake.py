"""WebSockets the database cannot serve are refused with close code 4503, never HTTP 500.

A socket's handshake reads the database (the player's session and cookie, the attempt, the
daily). When PostgreSQL cannot be reached, the exception would end the ASGI call before any
answer, and the server would answer the handshake with HTTP 500, which a browser sees as code
1006 and retries at once. `DatabaseUnavailableSockets` wraps the WebSocket application: such an
exception, before or after the consumer accepted, closes the socket with `CLOSE_UNAVAILABLE`
(4503, "the live side is down: try again later", docs/api.md), accepting it first if needed so
that the code reaches the client. The outage itself is logged once by the database backend
(config/postgresql/base.py); other exceptions go on up as before.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

from config.errors import is_database_unavailable
from realtime.sockets import CLOSE_UNAVAILABLE

logger = logging.getLogger(__name__)

Message = dict[str, Any]


class DatabaseUnavailableSockets:
    def __init__(self, app: Callable[..., Awaitable[None]]) -> None:
        self.app = app

    async def __call__(
        self,
        scope: dict[str, Any],
        receive: Callable[[], Awaitable[Message]],
        send: Callable[[Message], Awaitable[None]],
    ) -> None:
        seen = {"connect": False, "accepted": False, "closed": False}

        async def watched_receive() -> Message:
            message = await receive()
            if message.get("type") == "websocket.connect":
                seen["connect"] = True
            return message

        async def watched_send(message: Message) -> None:
            if message.get("type") == "websocket.accept":
                seen["accepted"] = True
            elif message.get("type") == "websocket.close":
                seen["closed"] = True
            await send(message)

        try:
            await self.app(scope, watched_receive, watched_send)
        except Exception as exc:
            if not is_database_unavailable(exc) or seen["closed"]:
                raise
            logger.info("socket %s closed: the database is unavailable", scope.get("path"))
            if not seen["accepted"]:
                if not seen["connect"] and (await receive()).get("type") != "websocket.connect":
                    return
                await send({"type": "websocket.accept"})
            await send({"type": "websocket.close", "code": CLOSE_UNAVAILABLE})
