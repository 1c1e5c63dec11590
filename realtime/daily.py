"""The daily socket, `ws/daily/<game>/<date>/`: anyone may watch a daily's board live.

The first message is a snapshot (`{"type": "snapshot", "version": v, "board", "playing_now",
"feed"}`); then coalesced, versioned updates follow (`{"type": "update", "version": v, ...}`,
realtime/boards.py). A client that reconnects sends `{"type": "resync", "version": v}` (the
last version it saw) and gets the updates it missed in order, or a new snapshot when they are no
longer kept. `{"type": "refresh"}` gets a new snapshot: a page on a quiet board asks now and then,
since "playing now" and a row's `left` change with time alone (leaderboards.board.PLAYING_WINDOW).
`{"type": "ping"}` -> `{"type": "pong"}`. Budget, heartbeats and errors:
realtime/sockets.py.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from channels.db import database_sync_to_async

from games import selectors as games_selectors
from games.api.base import parse_date
from games.errors import ServiceError
from infra import metrics
from realtime import boards
from realtime.sockets import CLOSE_NOT_FOUND, CLOSE_UNAVAILABLE, JsonSocket, error_message
from realtime.watchers import QUEUE_EVENTS, watchers


@database_sync_to_async
def _daily(game: str, date: str) -> Any:
    try:
        return games_selectors.daily_get(game=game, date=parse_date(date))
    except ServiceError:
        return None


@database_sync_to_async
def _snapshot(daily: Any) -> dict[str, Any]:
    return boards.snapshot(daily)


@database_sync_to_async
def _missed(daily_id: int, version: int) -> list[dict[str, Any]] | None:
    return boards.missed_since(daily_id, version)


class DailyConsumer(JsonSocket):
    """Joins its daily through this process's `watchers()` (one channel-layer member per
    process and daily), which puts the daily's events in the socket's `outbox`; a task of the
    socket's own writes them out, after the snapshot."""

    group: str | None = None
    sent_version = 0
    writer: asyncio.Task[None] | None = None

    async def connect(self) -> None:
        kwargs = self.scope["url_route"]["kwargs"]
        self.daily = await _daily(kwargs["game"], kwargs["date"])
        if self.daily is None:
            await self.refuse(CLOSE_NOT_FOUND)
            return
        group = boards.daily_group(self.daily.pk)
        self.outbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue(QUEUE_EVENTS)
        self.sending = asyncio.Lock()
        if not await watchers().join(group, self.deliver):
            await self.refuse(CLOSE_UNAVAILABLE)
            return
        self.group = group
        await self.accept()
        await self.start_watchdog()
        await self.send_snapshot()
        self.writer = asyncio.create_task(self._write())

    async def leave_groups(self) -> None:
        if self.writer is not None:
            self.writer.cancel()
        if self.group is not None:
            group, self.group = self.group, None
            await watchers().leave(group, self.deliver)

    def deliver(self, message: dict[str, Any]) -> None:
        """An event of the daily, queued for this socket (dropped when the queue is full: the
        client sees the version skip and asks for what it missed)."""
        with contextlib.suppress(asyncio.QueueFull):
            self.outbox.put_nowait(message)

    async def _write(self) -> None:
        try:
            while True:
                await self.daily_event(await self.outbox.get())
        except OSError:  # the client is gone; the disconnection cleans up
            pass

    async def send_snapshot(self) -> None:
        snapshot = await _snapshot(self.daily)
        self.sent_version = max(self.sent_version, int(snapshot["version"]))
        await self.send_json(snapshot)

    async def on_message(self, message: dict[str, Any]) -> None:
        if message["type"] == "refresh":
            async with self.sending:
                await self.send_snapshot()
            return
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
        async with self.sending:  # the writer waits: the missed events go out in order first
            if missed is None:
                await self.send_snapshot()
                return
            for event in missed:
                await self.send_json(event)
            if missed:
                self.sent_version = max(self.sent_version, int(missed[-1]["version"]))

    async def daily_event(self, message: dict[str, Any]) -> None:
        """An event of the daily (`boards.group_message`): sent on, already encoded, unless
        this socket has sent its version already (a snapshot or a resync went first)."""
        async with self.sending:
            if int(message["version"]) > self.sent_version:
                self.sent_version = int(message["version"])
                metrics.live_event_sent("daily")
                await self.send(text_data=message["text"])
