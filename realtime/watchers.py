"""This process's watchers of each daily (and of each race), fed by one channel of the layer per
daily (or race).

A board change (or a race's message) reaches every server process once (the group holds one
channel per process that has watchers of it, not one per watcher), and the process hands the
event to its watchers itself: each watcher socket has a small queue of its own and a task that
writes from it, so a slow client holds up nobody else. Before, the layer carried one message
per watcher (a Redis pop, a decoding and a wake-up of the consumer's dispatch loop each), about
half of a process's work per event.

One `Watchers` per event loop (`watchers()`): a process serves from one loop; tests run one per
test.
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from collections.abc import Callable
from typing import Any

from channels.layers import get_channel_layer

from infra.redis import REDIS_ERRORS
from realtime.sockets import join_layer_group

logger = logging.getLogger(__name__)

#: Events a watcher's queue holds; past it the newest are dropped, and the client, seeing a
#: version skip, asks for what it missed (a resync).
QUEUE_EVENTS = 100
#: Seconds before the feed of a daily tries the layer again after an error.
RETRY_SECONDS = 1.0

Deliver = Callable[[dict[str, Any]], None]


class _Feed:
    """One daily group's channel in this process, and the watchers it feeds."""

    def __init__(self) -> None:
        self.members: set[Deliver] = set()
        self.channel = ""
        self.ready: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        self.pump: asyncio.Task[None] | None = None


class Watchers:
    def __init__(self) -> None:
        self.layer = get_channel_layer()
        self.feeds: dict[str, _Feed] = {}

    async def join(self, group: str, deliver: Deliver) -> bool:
        """Feed `deliver` with the group's messages; False when the layer cannot be reached."""
        feed = self.feeds.get(group)
        if feed is None:
            feed = self.feeds[group] = _Feed()
            started = False
            try:
                started = await self._start(group, feed)
            finally:
                feed.ready.set_result(started)
        if not await asyncio.shield(feed.ready):
            if self.feeds.get(group) is feed:
                del self.feeds[group]
            return False
        feed.members.add(deliver)
        return True

    async def _start(self, group: str, feed: _Feed) -> bool:
        feed.channel = await self.layer.new_channel()
        if not await join_layer_group(self.layer, group, feed.channel):
            return False
        feed.pump = asyncio.create_task(self._pump(group, feed))
        return True

    async def leave(self, group: str, deliver: Deliver) -> None:
        feed = self.feeds.get(group)
        if feed is None:
            return
        feed.members.discard(deliver)
        if feed.members or not feed.ready.done():
            return
        del self.feeds[group]
        if feed.pump is not None:
            feed.pump.cancel()
        try:
            await self.layer.group_discard(group, feed.channel)
        except REDIS_ERRORS as exc:  # the membership expires by itself
            logger.warning("channel layer unavailable, %s not left: %r", group, exc)

    async def _pump(self, group: str, feed: _Feed) -> None:
        while True:
            try:
                message = await self.layer.receive(feed.channel)
            except REDIS_ERRORS as exc:
                logger.warning("channel layer unavailable, %s not fed: %r", group, exc)
                await asyncio.sleep(RETRY_SECONDS)
                continue
            for deliver in list(feed.members):
                deliver(message)


_by_loop: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Watchers] = (
    weakref.WeakKeyDictionary()
)


def watchers() -> Watchers:
    """The watchers of the running event loop."""
    loop = asyncio.get_running_loop()
    found = _by_loop.get(loop)
    if found is None:
        found = _by_loop[loop] = Watchers()
    return found
