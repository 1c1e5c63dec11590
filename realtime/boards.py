"""Live dailies: versioned, coalesced events to everyone watching a daily's board.

Once the board index holds a change of play (after commit), the leaderboards app says so
(`leaderboards.signals.board_changed`); the listener here only marks the daily as changed and
notes which attempt moved (`LiveStore.mark`: cheap, never fails a move). A flusher (one asyncio
task per server process, from the server's start to its stop: realtime/lifespan.py) wakes when
its process marks a change, and every `COALESCE_SECONDS` for changes marked elsewhere, but never
twice within `COALESCE_SECONDS`; it claims the changed dailies and sends each ONE event to the
daily's group: a quiet board's change goes out at once, a busy board gets at most a few events
per second, whatever the rate of moves. With Redis the marks, versions and event log live in
Redis, so several server processes share them: whichever process claims a daily's window sends
for all, and the channel layer carries the event to watchers in every process. Without Redis
(the embedded default: one process) they live in memory.

An event: `{"type": "update", "version": v, "board": {"top": [rows], "total": n},
"playing_now": n, "counts": {"players", "winners"}, "feed": [{"player", "moves", "undos",
"foundation_cards", "status"}]}` — never a card.
Versions grow by one per event of a daily; the last `EVENT_LOG` events are kept, so a watcher
that reconnects with the last version it saw gets what it missed, or a snapshot when that is
too old (`missed_since`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import threading
import time
from collections import defaultdict, deque
from typing import Any

from channels.db import database_sync_to_async
from channels.layers import get_channel_layer

from games.models import DailyChallenge
from infra.loop_task import LoopTask
from infra.prepared import PreparedRead
from infra.redis import PerProcess, client_for

logger = logging.getLogger(__name__)

COALESCE_SECONDS = 0.25
EVENT_LOG = 50
BOARD_ROWS = 20
FEED_ROWS = 20
#: Redis keys of a daily expire this long after its last change.
KEY_SECONDS = 3 * 24 * 3600
#: Seconds a snapshot is shared by the watchers that connect while the daily's version stays
#: the same (a board page opened by many at once, at midnight: one snapshot, not one each).
#: Short, because "playing now" also changes with time alone.
SNAPSHOT_SECONDS = 1.0


def daily_group(daily_id: int) -> str:
    """The channel-layer group of one daily's watchers."""
    return f"daily.{daily_id}"


# -- where marks, versions and the event log live ---------------------------------------------


class LocalStore:
    """One process: everything in memory, behind a lock (receivers run in request threads)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.pending: dict[int, set[int]] = defaultdict(set)
        self.versions: dict[int, int] = defaultdict(int)
        self.logs: dict[int, deque[dict[str, Any]]] = defaultdict(lambda: deque(maxlen=EVENT_LOG))

    def mark(self, daily_id: int, attempt_id: int) -> None:
        with self.lock:
            self.pending[daily_id].add(attempt_id)

    def claim_all(self) -> dict[int, set[int]]:
        with self.lock:
            taken, self.pending = dict(self.pending), defaultdict(set)
        return taken

    def publish(self, daily_id: int, event: dict[str, Any]) -> dict[str, Any]:
        with self.lock:
            self.versions[daily_id] += 1
            event = {**event, "version": self.versions[daily_id]}
            self.logs[daily_id].append(event)
        return event

    def version(self, daily_id: int) -> int:
        with self.lock:
            return self.versions[daily_id]

    def log(self, daily_id: int) -> list[dict[str, Any]]:
        with self.lock:
            return list(self.logs[daily_id])


class RedisStore:
    """Several processes: marks, versions and the log in Redis (one client per process).

    A mark is kept in the process until its flusher's next claim, which first writes all of
    them in one round trip (`send_marks`): a move costs no Redis command here, and the marks
    of a busy process reach Redis once per window rather than once per move. The marking
    process's flusher is woken at once, so a quiet board's change still goes out at once."""

    def __init__(self, url: str, prefix: str) -> None:
        self.redis = client_for(url)
        self.prefix = prefix
        self.DIRTY = f"{prefix}:dirty"
        self.lock = threading.Lock()
        self.unsent: dict[int, set[int]] = defaultdict(set)

    def _key(self, daily_id: int, what: str) -> str:
        return f"{self.prefix}:daily:{daily_id}:{what}"

    def mark(self, daily_id: int, attempt_id: int) -> None:
        with self.lock:
            self.unsent[daily_id].add(attempt_id)

    def send_marks(self) -> None:
        """Write this process's marks to Redis, where every process's flusher finds them."""
        with self.lock:
            unsent, self.unsent = self.unsent, defaultdict(set)
        if not unsent:
            return
        with self.redis.pipeline(transaction=False) as pipe:
            for daily_id, attempt_ids in unsent.items():
                pending = self._key(daily_id, "pending")
                pipe.sadd(pending, *attempt_ids)
                pipe.expire(pending, KEY_SECONDS)
                pipe.sadd(self.DIRTY, daily_id)
            pipe.execute()

    def claim_all(self) -> dict[int, set[int]]:
        self.send_marks()
        taken: dict[int, set[int]] = {}
        for raw in self.redis.smembers(self.DIRTY):
            daily_id = int(raw)
            # One process per daily and window: the others find the slot taken.
            slot = self._key(daily_id, "slot")
            if not self.redis.set(slot, 1, nx=True, px=int(COALESCE_SECONDS * 1000)):
                continue
            pending = self._key(daily_id, "pending")
            with self.redis.pipeline(transaction=True) as pipe:
                pipe.srem(self.DIRTY, daily_id)
                pipe.smembers(pending)
                pipe.delete(pending)
                _, members, _ = pipe.execute()
            taken[daily_id] = {int(m) for m in members}
        return taken

    def publish(self, daily_id: int, event: dict[str, Any]) -> dict[str, Any]:
        version = int(self.redis.incr(self._key(daily_id, "version")))
        event = {**event, "version": version}
        log = self._key(daily_id, "log")
        with self.redis.pipeline(transaction=False) as pipe:
            pipe.expire(self._key(daily_id, "version"), KEY_SECONDS)
            pipe.rpush(log, json.dumps(event, default=str))
            pipe.ltrim(log, -EVENT_LOG, -1)
            pipe.expire(log, KEY_SECONDS)
            pipe.execute()
        return event

    def version(self, daily_id: int) -> int:
        return int(self.redis.get(self._key(daily_id, "version")) or 0)

    def log(self, daily_id: int) -> list[dict[str, Any]]:
        return [json.loads(raw) for raw in self.redis.lrange(self._key(daily_id, "log"), 0, -1)]


#: This process's marks, versions and event logs (Redis when REDIS_URL is set).
store: PerProcess[LocalStore | RedisStore] = PerProcess(
    lambda url, prefix: RedisStore(url, prefix=f"{prefix}:live"), LocalStore
)


_last_warning = 0.0


def _degraded(what: str) -> None:
    """Log a live-update failure at most once a minute (play goes on regardless)."""
    global _last_warning
    now = time.monotonic()
    if now - _last_warning > 60:
        _last_warning = now
        logger.warning(
            "live updates degraded (%s): the channel layer or Redis is unavailable",
            what,
            exc_info=True,
        )


# -- what watchers see ------------------------------------------------------------------------


def board_now(daily: DailyChallenge) -> dict[str, Any]:
    """The board's part of an event: `board` (its head and total), `playing_now`, `counts`."""
    from leaderboards import selectors

    return selectors.live_board(daily=daily, limit=BOARD_ROWS)


#: A daily's game and date by its id, for every event (SQL built once).
_DAILY_READ: PreparedRead[DailyChallenge] = PreparedRead(
    lambda pk: DailyChallenge.objects.filter(pk=pk).only("id", "game", "date"), slots=(-4242,)
)


#: The last snapshot built of each daily in this process: (version, monotonic time, snapshot).
_snapshots: dict[int, tuple[int, float, dict[str, Any]]] = {}
_snapshots_lock = threading.Lock()


def snapshot(daily: DailyChallenge) -> dict[str, Any]:
    """Everything a new watcher needs, at the daily's current version: built at most once per
    `SNAPSHOT_SECONDS` and version in this process (read it, do not change it). A change made
    since is in the next event, which every watcher of that version gets."""
    from leaderboards import selectors

    version = store().version(daily.pk)
    now = time.monotonic()
    with _snapshots_lock:
        kept = _snapshots.get(daily.pk)
    if kept is not None and kept[0] == version and now - kept[1] < SNAPSHOT_SECONDS:
        return kept[2]
    built = {
        "type": "snapshot",
        "version": version,
        "game": daily.game,
        "date": daily.date.isoformat(),
        **board_now(daily),
        "feed": selectors.race_feed(daily=daily, limit=FEED_ROWS),
    }
    with _snapshots_lock:
        _snapshots[daily.pk] = (version, now, built)
    return built


def update_for(daily_id: int, attempt_ids: set[int]) -> dict[str, Any] | None:
    """The event of one coalescing window of a daily (before its version is given)."""
    daily = _DAILY_READ.first(daily_id)
    if daily is None:
        return None
    from leaderboards import selectors

    return {
        "type": "update",
        "game": daily.game,
        "date": daily.date.isoformat(),
        **board_now(daily),
        "feed": selectors.moved_feed(daily_id=daily_id, attempt_ids=attempt_ids, limit=FEED_ROWS),
    }


def missed_since(daily_id: int, version: int) -> list[dict[str, Any]] | None:
    """The events after `version`, or None when some of them are no longer kept."""
    current = store().version(daily_id)
    if version >= current:
        return []
    log = [e for e in store().log(daily_id) if e["version"] > version]
    if not log or log[0]["version"] != version + 1:
        return None
    return log


# -- the flusher ------------------------------------------------------------------------------


def group_message(event: dict[str, Any]) -> dict[str, Any]:
    """What the channel layer carries to a daily's watchers: the event as JSON text, encoded
    once here rather than once per watcher, and its version (the consumer reads nothing else)."""
    text = json.dumps(event, separators=(",", ":"), default=str)
    return {"type": "daily.event", "version": int(event["version"]), "text": text}


def _nudge() -> None:
    """Wake this process's flusher (a change was marked here): a board that was quiet gets
    its event at once instead of at the end of a window."""
    flusher.hand(asyncio.Event.set)


async def _flush_forever(wake: asyncio.Event) -> None:
    """Flush when this process marks a change (woken) or every `COALESCE_SECONDS` (changes
    marked by other processes), never twice within `COALESCE_SECONDS`: a quiet board's first
    change goes out at once, a busy board's changes at most a few times a second."""
    loop = asyncio.get_running_loop()
    last_sent = -COALESCE_SECONDS  # when the last flush that sent an event began
    while True:
        # `asyncio.timeout`, not `wait_for`: in Python 3.11 `wait_for` can lose a cancellation
        # that arrives as the wait ends, and this loop would then never stop.
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(COALESCE_SECONDS):
                await wake.wait()
        early = last_sent + COALESCE_SECONDS - loop.time()
        if early > 0:
            await asyncio.sleep(early)
        wake.clear()
        began = loop.time()
        try:
            if await flush_once():
                last_sent = began
        except asyncio.CancelledError:
            raise
        except Exception:
            _degraded("flush")


async def flush_once() -> int:
    """Send one event per changed daily; returns how many were sent. The boards' index gets
    the updates this process noted first, so that the events read it with them."""
    from leaderboards import index

    await asyncio.to_thread(index.send_noted)
    claimed = await asyncio.to_thread(store().claim_all)
    layer = get_channel_layer()
    sent = 0
    for daily_id, attempt_ids in claimed.items():
        event = await database_sync_to_async(update_for)(daily_id, attempt_ids)
        if event is None:
            continue
        event = await asyncio.to_thread(store().publish, daily_id, event)
        if layer is not None:
            await layer.group_send(daily_group(daily_id), group_message(event))
            sent += 1
    return sent


#: This process's flusher: one task of the server's event loop, from its start to its stop
#: (realtime/lifespan.py), or of a test's loop that watches boards; woken through its event.
flusher: LoopTask[asyncio.Event] = LoopTask("live boards flusher", asyncio.Event, _flush_forever)


# -- the listener ------------------------------------------------------------------------------


def mark(sender: Any, daily_id: int, attempt_id: int, **kwargs: Any) -> None:
    """Listener of `leaderboards.signals.board_changed`: note the change, wake the flusher."""
    try:
        store().mark(daily_id, attempt_id)
    except Exception:
        _degraded("mark")
        return
    _nudge()
