"""WebSockets the database or Redis cannot serve are closed with code 4503, never HTTP 500 or
an unhandled exception.

A socket's handshake reads the database (the player's session and cookie, the attempt, the
daily). When PostgreSQL cannot be reached, the exception would end the ASGI call before any
answer, and the server would answer the handshake with HTTP 500, which a browser sees as code
1006 and retries at once. When Redis goes away, every open socket's read of the channel layer
fails, and each socket ended with an unhandled exception (a traceback in the log per socket).
`UnavailableSockets` wraps the WebSocket application: such an exception, before or after the
consumer accepted, closes the socket with `CLOSE_UNAVAILABLE` (4503, "try again later",
docs/api.md), accepting it first if needed so that the code reaches the client. The outages
are logged by the outage log filters (config/outagelog.py), once each; other exceptions go on
up as before.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

from config.errors import is_database_unavailable
from config.outagelog import redis_outage_error
from realtime.sockets import CLOSE_UNAVAILABLE

logger = logging.getLogger(__name__)

Message = dict[str, Any]


class UnavailableSockets:
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
            if not is_database_unavailable(exc) and redis_outage_error(exc) is None:
                raise
            # With the exception as an argument: the outage log filters count it.
            logger.info("socket %s closed, a service is unavailable: %r", scope.get("path"), exc)
            if seen["closed"]:
                return
            if not seen["accepted"]:
                if not seen["connect"] and (await receive()).get("type") != "websocket.connect":
                    return
                await send({"type": "websocket.accept"})
            await send({"type": "websocket.close", "code": CLOSE_UNAVAILABLE})
