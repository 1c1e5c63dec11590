"""The Redis channel layer, with one reader per process for the process's own channels.

Every socket of a server process has a channel of its own ("specific.<process>!<socket>"), and
channels-redis keeps all of a process's channels in one Redis key. Its `receive()` lets one of
the waiting sockets hold a lock and do the blocking pop (BZPOPMIN, 5 s) for all of them, in the
socket's own task. When that socket closes, Channels cancels the task in the middle of the pop,
and redis-py can lose that cancellation (a known race of blocking commands): the task then goes
on popping every 5 s for ever, the socket's ASGI task never ends (a graceful stop waits its
full timeout), and the layer's receive state stays claimed, so any receive from another event
loop fails with "Two event loops are trying to receive()". A refused handshake is enough to
hit it: a hundred of them left every later health check failing.

Here the pop is done by one task per (event loop, Redis key) that nothing cancels: the reader.
It hands each message to the receiving channel's queue in the process. `receive()` only waits
on that queue, which a cancellation leaves as it was. The reader stops by itself once no
channel of its key has been waited on for a whole pop (at most `brpop_timeout` seconds after
the last socket leaves), so a server stops promptly and a test's event loop closes clean. A
Redis error ends the reader and is raised in every waiting `receive()`, as channels-redis does
for the socket holding its lock; the next `receive()` starts a new reader.

Because no cancellation reaches the pop, the backup queue channels-redis keeps around it (a
script, the pop and two more commands a message, so that a cancelled pop loses nothing) is not
needed: a message costs one BZPOPMIN. Messages of a process channel live only as long as the
process, so one popped by a process that is being killed is lost with it, as before.

Relies on channels-redis's message layout (the receiving channel, or a list of them after a
group send, under "__asgi_channel__"; one sorted set per process channel under `prefix`) and on
its `connection()`, `consistent_hash()`, `non_local_name()` and `deserialize()`:
tests/realtime/test_channel_layer.py exercises each through the layer's own `send` and
`group_send`, so an upgrade that changes them fails there.
"""

from __future__ import annotations

import asyncio
import collections
import itertools
import logging
import time
import uuid
import weakref
from typing import Any

from channels_redis.core import BoundedQueue, RedisChannelLayer

logger = logging.getLogger(__name__)

#: Seconds a channel's queue is kept with nobody waiting on it (a socket between two receives
#: has one for a moment; a socket gone for good leaves one that a group may still send to).
ORPHAN_SECONDS = 60.0


class _Failure:
    """Put in a waiting channel's queue when the reader fails: `receive()` raises `error`."""

    def __init__(self, error: BaseException) -> None:
        self.error = error


class _Reader:
    """The process's reader of one Redis key (one process channel), in one event loop."""

    def __init__(self, layer: ReaderChannelLayer, real_channel: str) -> None:
        self.layer = layer
        self.real_channel = real_channel
        self.queues: dict[str, asyncio.Queue[Any]] = {}
        self.waiting: dict[str, int] = {}
        self.touched: dict[str, float] = {}
        self.task: asyncio.Task[None] | None = None

    async def get(self, channel: str) -> dict[str, Any]:
        queue = self.queues.get(channel)
        if queue is None:
            queue = self.queues[channel] = BoundedQueue(self.layer.capacity)
        self.waiting[channel] = self.waiting.get(channel, 0) + 1
        if queue.empty() and (self.task is None or self.task.done()):
            self.task = asyncio.create_task(self._read(), name=f"channel reader {channel}")
        try:
            item = await queue.get()
        finally:
            self.touched[channel] = time.monotonic()
            left = self.waiting[channel] - 1
            if left:
                self.waiting[channel] = left
            else:
                del self.waiting[channel]
                if queue.empty():
                    self.queues.pop(channel, None)
                    self.touched.pop(channel, None)
        if isinstance(item, _Failure):
            raise item.error
        return item

    def _put(self, channel: str, message: dict[str, Any] | _Failure) -> None:
        queue = self.queues.get(channel)
        if queue is None:  # its socket is between two receives, or gone (dropped later)
            queue = self.queues[channel] = BoundedQueue(self.layer.capacity)
        queue.put_nowait(message)
        self.touched[channel] = time.monotonic()

    def _drop_orphans(self, now: float) -> None:
        for channel, when in list(self.touched.items()):
            if channel not in self.waiting and now - when > ORPHAN_SECONDS:
                self.queues.pop(channel, None)
                del self.touched[channel]

    async def _read(self) -> None:
        layer = self.layer
        key = layer.prefix + self.real_channel
        index = layer.consistent_hash(self.real_channel)
        idle = False
        while True:
            if not self.waiting:
                if idle:
                    return  # a whole pop with nobody waiting: the next receive starts again
                idle = True
            else:
                idle = False
            try:
                popped = await layer.connection(index).bzpopmin(key, timeout=layer.brpop_timeout)
            except Exception as error:
                logger.warning("channel layer: the reader of %s failed: %r", key, error)
                for channel in list(self.waiting):
                    self._put(channel, _Failure(error))
                return
            self._drop_orphans(time.monotonic())
            if popped is None:
                continue
            message = layer.deserialize(popped[1])
            channels = message.pop("__asgi_channel__", self.real_channel)
            for channel in channels if isinstance(channels, list) else [channels]:
                self._put(channel, message)


#: `ReaderChannelLayer.group_send_many`'s script: KEYS are channel keys (a key may come more than
#: once), ARGV their messages, then their capacities, then the time and the messages' expiry.
#: Each message is scored a microsecond after the one before, so that a key given several
#: keeps them in order (channels-redis scores a message by its time: the lowest pops first).
_GROUP_SEND_MANY = """
local n = #KEYS
local now = tonumber(ARGV[2 * n + 1])
local expiry = tonumber(ARGV[2 * n + 2])
for i = 1, n do
    redis.call('ZREMRANGEBYSCORE', KEYS[i], 0, math.floor(now) - expiry)
    if redis.call('ZCOUNT', KEYS[i], '-inf', '+inf') < tonumber(ARGV[n + i]) then
        redis.call('ZADD', KEYS[i], now + (i - 1) / 1000000, ARGV[i])
        redis.call('EXPIRE', KEYS[i], expiry)
    end
end
return 0
"""


class _Loop:
    """What the layer keeps per event loop: the part of its channels' names before "!" and
    its readers."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.readers: dict[str, _Reader] = {}


class ReaderChannelLayer(RedisChannelLayer):
    """channels-redis's `RedisChannelLayer` whose process channels are read by one reader task
    per event loop (see the module's docstring); everything else is channels-redis's.

    Each event loop has process channels of its own ("specific.<process>.<loop>!<socket>"), so
    that a loop's reader never pops a message meant for a channel of another loop (a thread
    running `async_to_sync`, a test's loop): channels-redis instead refuses a receive in a
    second loop while one is receiving.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._loops: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Loop] = (
            weakref.WeakKeyDictionary()
        )
        self._loop_count = itertools.count(1)

    def _loop(self) -> _Loop:
        loop = asyncio.get_running_loop()
        found = self._loops.get(loop)
        if found is None:
            found = self._loops[loop] = _Loop(f"{self.client_prefix}.{next(self._loop_count)}")
        return found

    async def new_channel(self, prefix: str = "specific") -> str:
        return f"{prefix}.{self._loop().name}!{uuid.uuid4().hex}"

    async def receive(self, channel: str) -> dict[str, Any]:
        if "!" not in channel:  # a general channel (none in this project): channels-redis's
            return await super().receive(channel)
        assert self.require_valid_channel_name(channel)
        real_channel = self.non_local_name(channel)
        assert self.client_prefix in real_channel, "Wrong client prefix"
        readers = self._loop().readers
        reader = readers.get(real_channel)
        if reader is None:
            reader = readers[real_channel] = _Reader(self, real_channel)
        return await reader.get(channel)

    async def group_send_many(self, sends: list[tuple[str, dict[str, Any]]]) -> None:
        """`group_send` of each (group, message), in order, in two round trips to each Redis
        host whatever their number: one pipeline reads every group's members (dropping those
        expired, as `group_send` does), then one script puts each message in its channels'
        keys (dropping their expired messages first, and skipping a key at its capacity, as
        `group_send`'s pipeline and script do). channels-redis's `group_send` takes four round
        trips per group: for the many small messages of races, most of their cost."""
        now = time.time()
        members: list[list[str]] = [[] for _ in sends]
        by_host: dict[int, list[int]] = collections.defaultdict(list)
        for i, (group, _) in enumerate(sends):
            by_host[self.consistent_hash(group)].append(i)
        for host, indexes in by_host.items():
            pipe = self.connection(host).pipeline(transaction=False)
            for i in indexes:
                key = self._group_key(sends[i][0])
                pipe.zremrangebyscore(key, min=0, max=int(now) - self.group_expiry)
                pipe.zrange(key, 0, -1)
            found = await pipe.execute()
            for n, i in enumerate(indexes):
                members[i] = [m.decode("utf8") for m in found[2 * n + 1]]
        keys: dict[int, list[Any]] = collections.defaultdict(list)
        messages: dict[int, list[Any]] = collections.defaultdict(list)
        capacities: dict[int, list[Any]] = collections.defaultdict(list)
        for (_, message), channels in zip(sends, members, strict=True):
            if not channels:
                continue
            by_index, serialized, capacity = self._map_channel_keys_to_connection(channels, message)
            for host, channel_keys in by_index.items():
                for key in channel_keys:
                    keys[host].append(key)
                    messages[host].append(serialized[key])
                    capacities[host].append(capacity[key])
        for host, host_keys in keys.items():
            await self.connection(host).eval(
                _GROUP_SEND_MANY,
                len(host_keys),
                *host_keys,
                *messages[host],
                *capacities[host],
                now,
                int(self.expiry),
            )

    def readers_running(self) -> int:
        """Readers whose task is running in the current event loop (for tests and health)."""
        readers = self._loop().readers.values()
        return sum(1 for r in readers if r.task is not None and not r.task.done())
