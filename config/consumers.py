"""WebSocket consumers of the project itself (the apps' own are in their packages)."""

from __future__ import annotations

from typing import Any

from channels.generic.websocket import AsyncWebsocketConsumer

#: Close code for a socket to a path that serves nothing (4000-4999 are the application's).
CLOSE_UNKNOWN_PATH = 4404


class UnknownPathConsumer(AsyncWebsocketConsumer):
    """Refuses the handshake of a socket to a path that no route serves."""

    async def connect(self) -> None:
        await self.close(code=CLOSE_UNKNOWN_PATH)

    async def receive(self, text_data: Any = None, bytes_data: Any = None) -> None:
        await self.close(code=CLOSE_UNKNOWN_PATH)
