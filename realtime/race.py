"""The race socket, `ws/race/<code>/`: a race's lobby, progress and results, live.

Anyone with the race's link may watch (the view holds nothing of anyone's table). The first
message is a snapshot, `{"type": "snapshot", "race": {...}}`, read from the database; then each
change of the race comes as `{"type": "event", "race": {...}}`. Both carry the race's whole
public view (`races.selectors.race_public`, what `GET /api/races/<code>/` answers without
`you`), whose `version` grows by one with every change, given in the transaction that made it
(`Race.version`). A socket sends versions in order and never one it has sent (nor one older
than its snapshot): an event that arrives ahead of the one before it (two server processes
sent them) waits up to `REORDER_SECONDS` for it. A client that reconnects, or sees a version
skip, sends `{"type": "resync", "version": v}` and gets a new snapshot: every message holds the
whole race, so nothing is lost with a missed one, and nothing on a reload or a server restart
(the race is in the database). `{"type": "ping"}` -> `{"type": "pong"}`. Budget, heartbeats and
errors: realtime/sockets.py.

The live side hears `races.signals.race_changed` after commit (`push_event`) and sends the
event it carries to the group `race_group(id)`, which every race socket of the race joins,
through the same channel layer as the other sockets.
"""

from __future__ import annotations

import asyncio
from typing import Any

from channels.db import database_sync_to_async

from games.errors import ServiceError
from races import selectors
from realtime.pushes import group_send
from realtime.sockets import CLOSE_NOT_FOUND, CLOSE_UNAVAILABLE, JsonSocket, error_message

#: How long an event that came ahead of the one before it waits for it.
REORDER_SECONDS = 0.2


def race_group(race_id: int) -> str:
    """The channel-layer group of one race's sockets."""
    return f"race.{race_id}"


def push_event(
    sender: Any, race_id: int, version: int, event: dict[str, Any], **kwargs: Any
) -> None:
    """Listener of `race_changed`: the race's view at this version, to its sockets."""
    group_send(race_group(race_id), {"type": "race.event", "race": event})


@database_sync_to_async
def _race_id(code: str) -> int | None:
    try:
        return selectors.race_get(code=code).pk
    except ServiceError:
        return None


@database_sync_to_async
def _view(code: str) -> dict[str, Any]:
    return selectors.race_public(selectors.race_get(code=code))


class RaceConsumer(JsonSocket):
    code: str
    group: str | None = None
    sent_version = 0

    async def connect(self) -> None:
        self.code = str(self.scope["url_route"]["kwargs"]["code"])
        race_id = await _race_id(self.code)
        if race_id is None:
            await self.refuse(CLOSE_NOT_FOUND)
            return
        self.sending = asyncio.Lock()
        self.ahead: dict[int, dict[str, Any]] = {}
        self.waiter: asyncio.Task[None] | None = None
        group = race_group(race_id)
        if not await self.join_group(group):
            await self.refuse(CLOSE_UNAVAILABLE)
            return
        self.group = group
        await self.accept()
        await self.start_watchdog()
        await self.send_snapshot()

    async def leave_groups(self) -> None:
        if self.waiter is not None:
            self.waiter.cancel()
        if self.group is not None:
            group, self.group = self.group, None
            await self.leave_group(group)

    async def send_snapshot(self) -> None:
        async with self.sending:
            view = await _view(self.code)
            self.sent_version = max(self.sent_version, int(view["version"]))
            self.ahead = {v: e for v, e in self.ahead.items() if v > self.sent_version}
            await self.send_json({"type": "snapshot", "race": view})

    async def on_message(self, message: dict[str, Any]) -> None:
        if message["type"] != "resync":
            await self.send_json(
                error_message("malformed", f"Unknown message type {str(message['type'])[:20]!r}.")
            )
            return
        version = message.get("version", 0)
        if isinstance(version, bool) or not isinstance(version, int) or version < 0:
            await self.send_json(error_message("malformed", "version is a whole number from 0."))
            return
        await self.send_snapshot()

    async def race_event(self, message: dict[str, Any]) -> None:
        """An event of the race: sent in version order; one ahead of a missing version waits
        for it up to `REORDER_SECONDS`, then goes out anyway (the client resyncs)."""
        race = message["race"]
        version = int(race["version"])
        async with self.sending:
            if version <= self.sent_version:
                return
            self.ahead[version] = race
            await self._send_in_order()
            if self.ahead and (self.waiter is None or self.waiter.done()):
                self.waiter = asyncio.create_task(self._give_up_waiting())

    async def _send_in_order(self) -> None:
        while self.sent_version + 1 in self.ahead:
            self.sent_version += 1
            await self.send_json({"type": "event", "race": self.ahead.pop(self.sent_version)})

    async def _give_up_waiting(self) -> None:
        await asyncio.sleep(REORDER_SECONDS)
        async with self.sending:
            for version in sorted(self.ahead):
                if version > self.sent_version:
                    self.sent_version = version
                    await self.send_json({"type": "event", "race": self.ahead[version]})
            self.ahead.clear()
