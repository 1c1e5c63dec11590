"""What every WebSocket of the project shares: JSON messages, a message budget, heartbeats.

- Budget: a connection may send `SOCKET_BUDGET_MESSAGES` (a setting) messages per
  `BUDGET_SECONDS` (a sliding window), checked in memory before the message is even parsed.
  Past it, each message is refused with
  `{"type": "error", "code": "rate_limited", "retry_after": s}` and counted (`refused`); the
  connection stays open and usable once the window has moved on. What a message does beyond
  that is budgeted where it is done: a play socket's moves count in the player's and the
  address's REST counters (realtime/play.py).
- Flooding: a connection refused more than `FLOOD_REFUSALS` times within `BUDGET_SECONDS`
  (by any budget) does not wait for its answers: it is closed with 4429 and reads nothing
  more. A client that waits `retry_after` is never closed.
- Heartbeats: a client sends `{"type": "ping"}` (about every 25 s) and gets `{"type": "pong"}`;
  any message counts as a sign of life. A connection silent for `IDLE_SECONDS` is closed (code
  4408), which also takes it out of its groups. (Under uvicorn, WebSocket pings at the protocol
  level close dead TCP connections too.)
- Errors are JSON: `{"type": "error", "code": "...", "detail": "...", ...}`, the same codes as
  the REST API (docs/api.md).

Consumers stay thin: parse, call a service or selector (in a thread, through
`database_sync_to_async`), send.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections import deque
from typing import Any

from channels.consumer import get_handler_name
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings

from infra import metrics
from infra.redis import REDIS_ERRORS
from infra.textinput import NUL_DETAIL, holds_nul

logger = logging.getLogger(__name__)

BUDGET_SECONDS = 20.0
IDLE_SECONDS = 60.0
IDLE_CHECK_SECONDS = 10.0
MAX_MESSAGE_BYTES = 4096
FLOOD_REFUSALS = 50

#: Close codes (4000-4999 are the application's). A refused connection is accepted, then
#: closed with its code (`JsonSocket.refuse`, `refuse_handshake`): closed before the handshake,
#: it would reach the client as an HTTP 403 and code 1006, like any network failure.
#: From another site's page, or the player signed out: the client stops retrying.
CLOSE_FORBIDDEN = 4403
#: No such attempt (or not yours: the same answer), daily or path: the client stops retrying.
CLOSE_NOT_FOUND = 4404
#: Silent for too long: the client reconnects.
CLOSE_IDLE = 4408
#: Kept sending past its budget without waiting (`FLOOD_REFUSALS`): the client reconnects
#: later, with backoff.
CLOSE_FLOODING = 4429
#: The channel layer (Redis) or the database cannot be reached: the client retries later, as
#: after any drop.
CLOSE_UNAVAILABLE = 4503


def error_message(code: str, detail: str, **extra: Any) -> dict[str, Any]:
    return {"type": "error", "code": code, "detail": detail, **extra}


class Budget:
    """A sliding window of message times: `allow()` says whether one more fits now."""

    def __init__(self, messages: int, seconds: float = BUDGET_SECONDS):
        self.messages, self.seconds = messages, seconds
        self.times: deque[float] = deque()
        self.refused = 0

    def allow(self, now: float) -> bool:
        while self.times and now - self.times[0] >= self.seconds:
            self.times.popleft()
        if len(self.times) >= self.messages:
            self.refused += 1
            return False
        self.times.append(now)
        return True

    def retry_after(self, now: float) -> float:
        return max(0.0, self.seconds - (now - self.times[0])) if self.times else 0.0


async def refuse_handshake(receive: Any, send: Any, code: int) -> None:
    """Refuse a WebSocket at the ASGI level, before any consumer: accept it, then close it with
    `code` at once."""
    message = await receive()
    if message.get("type") != "websocket.connect":
        return
    await send({"type": "websocket.accept"})
    await send({"type": "websocket.close", "code": code})


async def join_layer_group(layer: Any, group: str, channel: str) -> bool:
    """Add `channel` to `group`, trying twice (after a Redis restart the first try may meet a
    dead pooled connection). False, logged, when the channel layer cannot be reached."""
    for _ in range(2):
        try:
            await layer.group_add(group, channel)
            return True
        except REDIS_ERRORS as exc:
            error = exc
    logger.warning("channel layer unavailable, %s not joined: %r", group, error)
    return False


class JsonSocket(AsyncWebsocketConsumer):
    """Base of the project's consumers: subclasses implement `on_message(message)` and may
    call `send_json`."""

    budget: Budget
    #: Times of the refusals of the last `BUDGET_SECONDS` (`rate_limited`).
    refusals: deque[float]
    #: Set by `refuse`: the connection is being closed, and no message is read any more.
    refused = False
    #: Refusals within `BUDGET_SECONDS` past which the connection is closed; class data so
    #: tests can lower it.
    flood_refusals = FLOOD_REFUSALS
    #: Seconds of silence before the server closes; class data so tests can shorten it.
    idle_seconds = IDLE_SECONDS
    idle_check_seconds = IDLE_CHECK_SECONDS

    async def dispatch(self, message: dict[str, Any]) -> None:
        """Hand `message` to its handler, as Channels does, without the trip Channels makes to
        the process's database thread before every message to close the database connections
        that are too old (`aclose_old_connections`). These consumers reach the database only
        through `database_sync_to_async`, which closes them before and after each call itself;
        the extra trip queued every move, heartbeat and push of every socket behind the
        database work of the process's other sockets, for nothing."""
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def websocket_connect(self, message: dict[str, Any]) -> None:
        self.budget = Budget(settings.SOCKET_BUDGET_MESSAGES, BUDGET_SECONDS)
        self.refusals = deque()
        self.last_heard = time.monotonic()
        self._watchdog: asyncio.Task[None] | None = None
        await super().websocket_connect(message)

    async def refuse(self, code: int) -> None:
        """Refuse this connection with close code `code` (in `connect`, before any accept):
        accepted, then closed at once, so that the code reaches the client."""
        self.refused = True
        await self.accept()
        await self.close(code=code)

    async def start_watchdog(self) -> None:
        """Begin closing the connection after `idle_seconds` of silence (after accept)."""
        self._watchdog = asyncio.create_task(self._watch())

    async def _watch(self) -> None:
        try:
            while True:
                await asyncio.sleep(self.idle_check_seconds)
                if time.monotonic() - self.last_heard > self.idle_seconds:
                    logger.info("closing an idle socket %s", self.scope.get("path"))
                    await self.leave_groups()
                    await self.close(code=CLOSE_IDLE)
                    return
        except asyncio.CancelledError:
            pass
        except OSError as exc:  # the client was gone already (uvicorn's ClientDisconnected)
            logger.info("idle socket %s was gone already: %r", self.scope.get("path"), exc)

    async def disconnect(self, code: int) -> None:
        if self._watchdog is not None:
            self._watchdog.cancel()
        await self.leave_groups()

    async def leave_groups(self) -> None:
        """Subclasses leave the groups they joined (through `leave_group`)."""

    async def join_group(self, group: str) -> bool:
        """Join `group` (`join_layer_group`); False when the channel layer cannot be reached:
        the caller closes with `CLOSE_UNAVAILABLE` and the client reconnects later."""
        return await join_layer_group(self.channel_layer, group, self.channel_name)

    async def leave_group(self, group: str) -> None:
        """Leave `group`; a channel layer that cannot be reached forgets the member by itself
        (group memberships expire), so a failure is only logged."""
        try:
            await self.channel_layer.group_discard(group, self.channel_name)
        except REDIS_ERRORS as exc:
            logger.warning("channel layer unavailable, %s not left: %r", group, exc)

    async def send_json(self, content: dict[str, Any]) -> None:
        await self.send(text_data=json.dumps(content, separators=(",", ":"), default=str))

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if self.refused:
            return
        now = time.monotonic()
        self.last_heard = now
        if not self.budget.allow(now):
            await self.rate_limited(
                f"More than {self.budget.messages} messages in {self.budget.seconds:g} s; "
                "this one was refused.",
                self.budget.retry_after(now),
                refused=self.budget.refused,
            )
            return
        if text_data is None or len(text_data) > MAX_MESSAGE_BYTES:
            await self.send_json(
                error_message(
                    "malformed", f"A message is JSON text of at most {MAX_MESSAGE_BYTES} bytes."
                )
            )
            return
        try:
            message = json.loads(text_data)
        except (ValueError, RecursionError):  # RecursionError: "[[[[..." nested too deeply
            await self.send_json(error_message("malformed", "A message is a JSON object."))
            return
        if not isinstance(message, dict) or not isinstance(message.get("type"), str):
            await self.send_json(
                error_message("malformed", 'A message is a JSON object with a "type".')
            )
            return
        # A raw NUL cannot be in JSON text that parsed; an escaped one can (infra/textinput.py).
        if "\\u0000" in text_data and holds_nul(message):
            await self.send_json(error_message("malformed", NUL_DETAIL))
            return
        if message["type"] == "ping":
            await self.on_ping()
            if not self.refused:  # on_ping may have closed the socket
                await self.send_json({"type": "pong"})
            return
        metrics.socket_message(self.scope.get("path", ""), message["type"])
        await self.on_message(message)

    async def rate_limited(self, detail: str, retry_after: float, **extra: Any) -> None:
        """Refuse a message for a budget (`rate_limited`, with the seconds to wait), or close
        the connection when it keeps sending without waiting (`CLOSE_FLOODING`)."""
        now = time.monotonic()
        while self.refusals and now - self.refusals[0] >= BUDGET_SECONDS:
            self.refusals.popleft()
        self.refusals.append(now)
        if len(self.refusals) > self.flood_refusals:
            logger.info("closing a flooding socket %s", self.scope.get("path"))
            self.refused = True  # nothing more is read
            await self.leave_groups()
            await self.close(code=CLOSE_FLOODING)
            return
        await self.send_json(
            error_message("rate_limited", detail, retry_after=round(retry_after, 3), **extra)
        )

    async def on_message(self, message: dict[str, Any]) -> None:
        raise NotImplementedError

    async def on_ping(self) -> None:
        """At a heartbeat, before its pong: subclasses keep what they registered alive."""
