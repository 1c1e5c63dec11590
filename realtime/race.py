"""The race socket, `ws/race/<code>/`: a race's lobby, progress and results, live.

Anyone with the race's link may watch (the view holds nothing of anyone's table). The first
message is a snapshot, `{"type": "snapshot", "race": {...}}`, read from the database: the race's
whole public view (`races.selectors.race_public`, what `GET /api/races/<code>/` answers without
`you`). Then:

- each change of the race (someone joined, left, came back or got ready, the start, a racer's
  attempt, a finish, the rematch) comes as `{"type": "event", "race": {...}}`, the whole view
  again, whose `version` grows by one with each change (`Race.version`, given in the
  transaction that made it);
- each racer's move comes as `{"type": "progress", "racer": {...}}`: that racer's `id`, their
  own `version` (`Racer.version`, one more with each write of their progress), `moves`,
  `foundation_cards`, `foundations` and `seconds`, what their entry of the view says of them.

Each view names every racer's `version` too, so a client takes a racer's figures from whichever
of a view or a progress event has the higher one. A socket sends the race's versions in order,
and each racer's versions in order, never one it has sent (nor one older than its snapshot or
the last view it sent): a message that arrives ahead of the one before it in its line (two
server processes sent them) waits up to `REORDER_SECONDS` for it, then goes out anyway. A
client that reconnects, or sees a version skip, sends `{"type": "resync", "version": v}` and
gets a new snapshot: nothing is lost with a missed message, nor on a reload or a server restart
(the race and each racer's progress are in the database). `{"type": "ping"}` ->
`{"type": "pong"}`. Budget, heartbeats and errors: realtime/sockets.py.

The live side hears `races.signals.race_changed` and `racers_progressed` after commit
(`push_event`, `push_progress`) and sends what they carry, encoded once, to the group
`race_group(id)`: one member per server process with sockets of the race (realtime/watchers.py,
as for the daily sockets), which hands each message to its sockets' own queues; each socket's
writer sends them on in order. A socket whose queue is full (a client that stopped reading)
misses messages, sees the skip and resyncs.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import Any

from channels.db import database_sync_to_async

from games.errors import ServiceError
from infra import metrics
from races import selectors
from realtime.pushes import group_send, group_send_many
from realtime.sockets import CLOSE_NOT_FOUND, CLOSE_UNAVAILABLE, JsonSocket, error_message
from realtime.watchers import QUEUE_EVENTS, watchers

#: How long a message that came ahead of the one before it in its line waits for it.
REORDER_SECONDS = 0.2

#: The line of the race's own versions (a racer's line is their id).
RACE = 0


def race_group(race_id: int) -> str:
    """The channel-layer group of one race's sockets (one member per process: `watchers()`)."""
    return f"race.{race_id}"


def _encoded(message: dict[str, Any]) -> str:
    return json.dumps(message, separators=(",", ":"), default=str)


def push_event(
    sender: Any, race_id: int, version: int, event: dict[str, Any], **kwargs: Any
) -> None:
    """Listener of `race_changed`: the race's view at this version, to its sockets, encoded
    once here rather than once per socket."""
    text = _encoded({"type": "event", "race": event})
    group_send(race_group(race_id), {"type": "race.event", "race": event, "text": text})


def push_progress(sender: Any, progress: list[tuple[int, dict[str, Any]]], **kwargs: Any) -> None:
    """Listener of `racers_progressed`: each racer's figures at their version, to their race's
    sockets (all in one hand-off to the event loop), each encoded once."""
    group_send_many(
        [
            (
                race_group(race_id),
                {
                    "type": "race.progress",
                    "line": int(racer["id"]),
                    "version": int(racer["version"]),
                    "text": _encoded({"type": "progress", "racer": racer}),
                },
            )
            for race_id, racer in progress
        ]
    )


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
    """Joins its race through this process's `watchers()` (one channel-layer member per process
    and race), which puts the race's messages in the socket's `outbox`; a task of the socket's
    own writes them out in order, after the snapshot."""

    code: str
    group: str | None = None
    writer: asyncio.Task[None] | None = None

    async def connect(self) -> None:
        self.code = str(self.scope["url_route"]["kwargs"]["code"])
        race_id = await _race_id(self.code)
        if race_id is None:
            await self.refuse(CLOSE_NOT_FOUND)
            return
        self.sending = asyncio.Lock()
        #: The last version sent in each line (`RACE`, or a racer's id).
        self.sent: dict[int, int] = {}
        #: The messages that came ahead of their line's next version, by line and version.
        self.ahead: dict[int, dict[int, dict[str, Any]]] = {}
        self.waiter: asyncio.Task[None] | None = None
        self.outbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue(QUEUE_EVENTS)
        group = race_group(race_id)
        if not await watchers().join(group, self.deliver):
            await self.refuse(CLOSE_UNAVAILABLE)
            return
        self.group = group
        await self.accept()
        await self.start_watchdog()
        await self.send_snapshot()
        self.writer = asyncio.create_task(self._write())

    async def leave_groups(self) -> None:
        for task in (self.writer, getattr(self, "waiter", None)):
            if task is not None:
                task.cancel()
        if self.group is not None:
            group, self.group = self.group, None
            await watchers().leave(group, self.deliver)

    def deliver(self, message: dict[str, Any]) -> None:
        """A message of the race, queued for this socket (dropped when the queue is full: the
        client sees the version skip and asks for a snapshot)."""
        with contextlib.suppress(asyncio.QueueFull):
            self.outbox.put_nowait(message)

    async def _write(self) -> None:
        try:
            while True:
                message = await self.outbox.get()
                if message["type"] == "race.event":
                    race = message["race"]
                    await self._take(RACE, int(race["version"]), message)
                else:
                    await self._take(int(message["line"]), int(message["version"]), message)
        except OSError:  # the client is gone; the disconnection cleans up
            pass

    def _covered(self, view: dict[str, Any]) -> None:
        """What a view sent says: its version and every racer's, none to be sent again."""
        self.sent[RACE] = max(self.sent.get(RACE, 0), int(view["version"]))
        for racer in view["racers"]:
            self.sent[racer["id"]] = max(self.sent.get(racer["id"], 0), int(racer["version"]))
        for line, held in list(self.ahead.items()):
            for version in [v for v in held if v <= self.sent.get(line, 0)]:
                del held[version]
            if not held:
                del self.ahead[line]

    async def send_snapshot(self) -> None:
        async with self.sending:
            view = await _view(self.code)
            self._covered(view)
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

    async def _take(self, line: int, version: int, message: dict[str, Any]) -> None:
        """Send `message` in its line's order; one ahead of a missing version waits for it up
        to `REORDER_SECONDS`, then goes out anyway (the client resyncs)."""
        async with self.sending:
            if version <= self.sent.get(line, 0):
                return
            self.ahead.setdefault(line, {})[version] = message
            await self._send_in_order(line)
            if self.ahead and (self.waiter is None or self.waiter.done()):
                self.waiter = asyncio.create_task(self._give_up_waiting())

    async def _send(self, message: dict[str, Any]) -> None:
        metrics.live_event_sent("race")
        await self.send(text_data=message["text"])
        if message["type"] == "race.event":
            self._covered(message["race"])

    async def _send_in_order(self, line: int) -> None:
        held = self.ahead.get(line, {})
        while self.sent.get(line, 0) + 1 in held:
            self.sent[line] = self.sent.get(line, 0) + 1
            await self._send(held.pop(self.sent[line]))
        if not held:
            self.ahead.pop(line, None)

    async def _give_up_waiting(self) -> None:
        await asyncio.sleep(REORDER_SECONDS)
        async with self.sending:
            while self.ahead:
                line, held = next(iter(self.ahead.items()))
                del self.ahead[line]
                for version in sorted(held):
                    if version > self.sent.get(line, 0):
                        self.sent[line] = version
                        await self._send(held[version])
