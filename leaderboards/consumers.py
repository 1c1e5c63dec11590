"""The daily socket, `ws/daily/<game>/<date>/`: anyone may watch a daily's board live.

The first message is a snapshot (`{"type": "snapshot", "version": v, "board", "playing_now",
"feed"}`); then coalesced, versioned updates follow (`{"type": "update", "version": v, ...}`,
leaderboards/live.py). A client that reconnects sends `{"type": "resync", "version": v}` (the
last version it saw) and gets the updates it missed in order, or a new snapshot when they are no
longer kept. `{"type": "ping"}` -> `{"type": "pong"}`. Budget, heartbeats and errors:
games/sockets.py.
"""

from __future__ import annotations

from typing import Any

from channels.db import database_sync_to_async

from games import selectors as games_selectors
from games.api.serializers import parse_date
from games.errors import ServiceError
from games.sockets import CLOSE_NOT_FOUND, CLOSE_UNAVAILABLE, JsonSocket, error_message
from leaderboards import live


@database_sync_to_async
def _daily(game: str, date: str) -> Any:
    try:
        return games_selectors.daily_get(game=game, date=parse_date(date))
    except ServiceError:
        return None


@database_sync_to_async
def _snapshot(daily: Any) -> dict[str, Any]:
    return live.snapshot(daily)


@database_sync_to_async
def _missed(daily_id: int, version: int) -> list[dict[str, Any]] | None:
    return live.missed_since(daily_id, version)


class DailyConsumer(JsonSocket):
    group: str | None = None
    sent_version = 0

    async def connect(self) -> None:
        kwargs = self.scope["url_route"]["kwargs"]
        self.daily = await _daily(kwargs["game"], kwargs["date"])
        if self.daily is None:
            await self.close(code=CLOSE_NOT_FOUND)
            return
        group = live.daily_group(self.daily.pk)
        if not await self.join_group(group):
            await self.close(code=CLOSE_UNAVAILABLE)
            return
        self.group = group
        await self.accept()
        await self.start_watchdog()
        live.ensure_flusher()
        await self.send_snapshot()

    async def leave_groups(self) -> None:
        if self.group is not None:
            await self.leave_group(self.group)

    async def send_snapshot(self) -> None:
        snapshot = await _snapshot(self.daily)
        self.sent_version = max(self.sent_version, int(snapshot["version"]))
        await self.send_json(snapshot)

    async def on_message(self, message: dict[str, Any]) -> None:
        if message["type"] != "resync":
            await self.send_json(
                error_message("malformed", f"Unknown message type {str(message['type'])[:20]!r}.")
            )
            return
        version = message.get("version")
        if isinstance(version, bool) or not isinstance(version, int) or version < 0:
            await self.send_json(error_message("malformed", "version is a whole number from 0."))
            return
        missed = await _missed(self.daily.pk, version)
        if missed is None:
            await self.send_snapshot()
            return
        for event in missed:
            await self.send_json(event)
        if missed:
            self.sent_version = max(self.sent_version, int(missed[-1]["version"]))

    async def daily_event(self, message: dict[str, Any]) -> None:
        """An event from the group (`live.group_message`): sent on, already encoded, unless
        this socket has sent its version already (a snapshot or a resync went first)."""
        if int(message["version"]) > self.sent_version:
            self.sent_version = int(message["version"])
            await self.send(text_data=message["text"])
