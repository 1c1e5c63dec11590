"""The Redis index of the boards: one sorted set per daily, rebuilt from PostgreSQL.

PostgreSQL is the truth; Redis only makes pages and ranks cheap. Per daily (`keys`):

- `board`: a sorted set, member `ranking.member(entry)`, score `ranking.score(entry)`;
- `rows`: a hash, attempt id -> "member|moves|cards|finished", so an update can find and
  remove an attempt's old member;
- `meta`: the fingerprint of what the set holds (`board.fingerprint`'s fields), kept by the
  same script that changes the set;
- `fresh`: present for `REBUILD_SECONDS` after a rebuild.

Signal receivers (`leaderboards.receivers`) update one attempt at a time. A read compares the
stored fingerprint with the database's (one aggregate query); when the index is missing, or
still differs when looked at again a moment later (an update lost while Redis was away, a
receiver that raced another), the reader rebuilds it from the database under a short Redis
lock. A busy board (hundreds of moves a second at the daily rollover) almost always has a
change committed whose receiver has not yet run, so it differs at both looks although nothing
is lost: when the index moved between the two looks (its receivers are at work) and was
rebuilt less than `REBUILD_SECONDS` ago, it is served as it is, and a lost update on a board
that never rests is repaired by the next rebuild, at most `REBUILD_SECONDS` later. A reader
that does not get the lock, or any Redis error, means the board is served from the database:
slower, still correct. A warning is logged at most once a minute, and Redis is
tried again a few seconds later.

Without `REDIS_URL` (the embedded default) there is no index at all.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar, cast

import redis
from django.conf import settings

from games.models import Standing
from infra.loop_task import LoopTask
from infra.redis import REDIS_ERRORS, client_for
from leaderboards import board, ranking

logger = logging.getLogger(__name__)

#: An index lives this long after its last change; an older board is rebuilt when read.
TTL_SECONDS = 3 * 24 * 3600
#: How long a rebuild may hold its lock.
LOCK_MS = 5_000
#: How long a reader waits to look again at an index that differs from the database (the
#: receiver of a change just committed may be updating it), before rebuilding it.
RECHECK_SECONDS = 0.05
#: While its receivers are at work, an index is rebuilt at most once in this many seconds.
REBUILD_SECONDS = 10.0
#: After a Redis error, the index is left alone this long (the database serves meanwhile).
RETRY_SECONDS = 5.0
#: At most one warning about Redis in this many seconds.
WARN_EVERY = 60.0

T = TypeVar("T")


@dataclass
class _Health:
    down_until: dict[str, float] = field(default_factory=dict)
    warned_at: float | None = None


_health = _Health()
_scripts: dict[int, tuple[Any, Any]] = {}


@dataclass(frozen=True)
class Keys:
    board: str
    rows: str
    meta: str
    lock: str
    fresh: str


def keys(daily_id: int) -> Keys:
    """The Redis keys of a daily's index (the one place that names them). The prefix is the
    `LEADERBOARD_KEY_PREFIX` setting when set, else "<REDIS_KEY_PREFIX>:lb:"."""
    prefix = getattr(settings, "LEADERBOARD_KEY_PREFIX", None) or f"{settings.REDIS_KEY_PREFIX}:lb:"
    base = f"{prefix}{int(daily_id)}"
    return Keys(f"{base}:board", f"{base}:rows", f"{base}:meta", f"{base}:lock", f"{base}:fresh")


def _url() -> str:
    return str(getattr(settings, "REDIS_URL", "") or "")


def client() -> redis.Redis | None:
    """The process's Redis client (one pool per URL), or None without Redis or while it is
    taken to be down."""
    url = _url()
    if not url or _health.down_until.get(url, 0.0) > time.monotonic():
        return None
    return client_for(url)


def degraded(exc: BaseException) -> None:
    """Note a Redis failure: the database serves the boards for a few seconds; one warning a
    minute at most."""
    now = time.monotonic()
    _health.down_until[_url()] = now + RETRY_SECONDS
    if _health.warned_at is None or now - _health.warned_at >= WARN_EVERY:
        _health.warned_at = now
        logger.warning("leaderboard index unavailable, boards served from the database: %r", exc)


def _guarded(default: T, action: Callable[[redis.Redis], T]) -> T:
    conn = client()
    if conn is None:
        return default
    try:
        return action(conn)
    except REDIS_ERRORS as exc:
        degraded(exc)
        return default


# -- scripts ---------------------------------------------------------------------------------

# KEYS: board, rows, meta. ARGV: ttl, attempt id, then for a row on the board: score, member,
# moves, cards, finished (0/1); without them the attempt leaves the board. Does nothing when
# the index is missing (its next reader rebuilds it). Keeps `meta` the sum of what `rows` holds.
UPSERT = """
if redis.call('EXISTS', KEYS[3]) == 0 then return 0 end
local id = ARGV[2]
local old = redis.call('HGET', KEYS[2], id)
if old then
  local m, mv, c, f = string.match(old, '^([^|]*)|(%d+)|(%d+)|(%d+)$')
  redis.call('ZREM', KEYS[1], m)
  redis.call('HDEL', KEYS[2], id)
  redis.call('HINCRBY', KEYS[3], 'rows', -1)
  redis.call('HINCRBY', KEYS[3], 'ids', '-' .. id)
  redis.call('HINCRBY', KEYS[3], 'moves', 0 - tonumber(mv))
  redis.call('HINCRBY', KEYS[3], 'cards', 0 - tonumber(c))
  redis.call('HINCRBY', KEYS[3], 'finished', 0 - tonumber(f))
end
if ARGV[3] then
  local value = ARGV[4] .. '|' .. ARGV[5] .. '|' .. ARGV[6] .. '|' .. ARGV[7]
  redis.call('ZADD', KEYS[1], ARGV[3], ARGV[4])
  redis.call('HSET', KEYS[2], id, value)
  redis.call('HINCRBY', KEYS[3], 'rows', 1)
  redis.call('HINCRBY', KEYS[3], 'ids', id)
  redis.call('HINCRBY', KEYS[3], 'moves', ARGV[5])
  redis.call('HINCRBY', KEYS[3], 'cards', ARGV[6])
  redis.call('HINCRBY', KEYS[3], 'finished', ARGV[7])
end
for i = 1, 3 do redis.call('EXPIRE', KEYS[i], ARGV[1]) end
return 1
"""

# KEYS: lock. ARGV: the holder's token. Deletes the lock only if it is still ours.
UNLOCK = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""


def _script(conn: redis.Redis) -> tuple[Any, Any]:
    found = _scripts.get(id(conn))
    if found is None:
        found = (conn.register_script(UPSERT), conn.register_script(UNLOCK))
        _scripts[id(conn)] = found
    return found


def _row_value(e: ranking.Entry, attempt: Any) -> str:
    finished = 1 if attempt.finished_at is not None else 0
    return f"{ranking.member(e)}|{attempt.move_count}|{attempt.foundation_cards}|{finished}"


# -- writes ----------------------------------------------------------------------------------


def attempt_update(*, attempt_id: int, daily_id: int, standing: Standing | None = None) -> bool:
    """Put one attempt where it now belongs in its daily's index (or take it off the board).
    `standing`, when given, is the attempt's as just committed (then nothing is read from the
    database). A missing index is left missing. False when Redis could not be reached."""
    return attempts_update({attempt_id: (daily_id, standing)})


def attempts_update(updates: Mapping[int, tuple[int, Standing | None]]) -> bool:
    """`attempt_update` of each attempt id -> (daily id, standing), in one round trip to Redis
    (a pipeline of the script's calls by its digest; loaded first where Redis lacks it)."""

    def update(conn: redis.Redis) -> bool:
        upsert = _script(conn)[0]
        calls = []
        for attempt_id, (daily_id, standing) in updates.items():
            entry = _board_entry(attempt_id, daily_id, standing)
            args: list[Any] = [TTL_SECONDS, attempt_id]
            if entry is not None:
                e, moves, cards, finished = entry
                args += [ranking.score(e), ranking.member(e), moves, cards, finished]
            k = keys(daily_id)
            calls.append((k.board, k.rows, k.meta, *args))
        for _ in range(2):
            with conn.pipeline(transaction=False) as pipe:
                for call in calls:
                    pipe.evalsha(upsert.sha, 3, *call)
                results = pipe.execute(raise_on_error=False)
            if not any(isinstance(r, redis.exceptions.NoScriptError) for r in results):
                break
            conn.script_load(UPSERT)  # a Redis restarted or flushed since: once, then again
        failed = next((r for r in results if isinstance(r, Exception)), None)
        if failed is not None:
            raise failed
        return True

    if not updates:
        return True
    return _guarded(False, update)


# -- updates sent together ---------------------------------------------------------------------

#: The updates noted and not yet sent, attempt id -> (daily id, standing): the newest of each
#: attempt. `_sending` orders the batches: one noted later is never sent before an earlier one.
_noted: dict[int, tuple[int, Standing | None]] = {}
_noted_lock = threading.Lock()
_sending = threading.Lock()


def attempt_note(*, attempt_id: int, daily_id: int, standing: Standing | None = None) -> None:
    """Note an `attempt_update` to send with the others (`send_noted`, `send_soon`)."""
    if not _url():
        return
    with _noted_lock:
        _noted[attempt_id] = (daily_id, standing)


def send_noted() -> bool:
    """Send every update noted so far, in one round trip; False when Redis could not be
    reached (the index is then left to its readers' rebuild, as for any lost update)."""
    with _sending:
        with _noted_lock:
            taken = dict(_noted)
            _noted.clear()
        return attempts_update(taken)


def send_soon() -> None:
    """Have this process's sender send the updates noted, with those noted meanwhile by
    other requests and sockets (a busy process sends many in one round trip); where no sender
    runs (a worker, a command, a test without one), send them now."""
    if not sender.hand(asyncio.Event.set):
        send_noted()


#: How long the sender lets updates gather after the first one is noted: the moves of a busy
#: process share a round trip, and a board read meanwhile finds the index behind the database
#: for less than its look again (`RECHECK_SECONDS`) lasts.
SEND_WINDOW_SECONDS = 0.02


async def _send_forever(wake: asyncio.Event) -> None:
    while True:
        await wake.wait()
        await asyncio.sleep(SEND_WINDOW_SECONDS)
        wake.clear()
        await asyncio.to_thread(send_noted)


async def _send_rest(_: asyncio.Event) -> None:
    await asyncio.to_thread(send_noted)


#: This process's sender of noted updates: one task of the server's event loop, from its start
#: to its stop (realtime/lifespan.py), which sends what is left as it stops.
sender: LoopTask[asyncio.Event] = LoopTask(
    "board index sender", asyncio.Event, _send_forever, drain=_send_rest, drain_seconds=5.0
)


def _board_entry(
    attempt_id: int, daily_id: int, standing: Standing | None
) -> tuple[ranking.Entry, int, int, int] | None:
    """How the board ranks the attempt (its entry, moves, cards and whether it is finished),
    or None when the board does not count it."""
    if standing is None:
        row = board.board_queryset(daily_id).filter(pk=attempt_id).first()
        if row is None:
            return None
        finished = 1 if row.finished_at is not None else 0
        return board.entry_of(row), row.move_count, row.foundation_cards, finished
    if not standing.on_board or standing.daily_id != daily_id:
        return None
    finished = 1 if standing.finished_at is not None else 0
    e = board.entry_of_standing(standing)
    return e, standing.move_count, standing.foundation_cards, finished


def rebuild(conn: redis.Redis, daily_id: int) -> dict[str, int]:
    """Write a daily's index afresh from the database, in one transaction; answers the
    fingerprint it stored."""
    attempts = list(board.board_queryset(daily_id))
    k = keys(daily_id)
    scores: dict[str, int] = {}
    values: dict[str, str] = {}
    for attempt in attempts:
        e = board.entry_of(attempt)
        scores[ranking.member(e)] = ranking.score(e)
        values[str(attempt.pk)] = _row_value(e, attempt)
    stored = board.fingerprint_of(attempts)
    pipe = conn.pipeline(transaction=True)
    pipe.delete(k.board, k.rows, k.meta)
    if scores:
        pipe.zadd(k.board, scores)
        pipe.hset(k.rows, mapping=cast(Mapping[Any, Any], values))
    pipe.hset(k.meta, mapping=cast(Mapping[Any, Any], stored))
    for key in (k.board, k.rows, k.meta):
        pipe.expire(key, TTL_SECONDS)
    pipe.set(k.fresh, 1, px=int(REBUILD_SECONDS * 1000))
    pipe.execute()
    return stored


def drop(daily_id: int) -> None:
    """Forget a daily's index (the next reader rebuilds it)."""
    k = keys(daily_id)
    _guarded(None, lambda conn: conn.delete(k.board, k.rows, k.meta))


# -- reads -----------------------------------------------------------------------------------


def _stored_fingerprint(conn: redis.Redis, daily_id: int) -> dict[str, int] | None:
    raw = conn.hgetall(keys(daily_id).meta)
    if not raw:
        return None
    try:
        return {name: int(raw[name.encode()]) for name in board.FINGERPRINT_FIELDS}
    except (KeyError, ValueError):
        return None


def existing(daily_id: int) -> redis.Redis | None:
    """A client when the daily's index exists, however recent (see `ready`), or None."""
    conn = client()
    if conn is None:
        return None
    try:
        return conn if conn.exists(keys(daily_id).meta) else None
    except REDIS_ERRORS as exc:
        degraded(exc)
        return None


def ready(daily_id: int, fingerprint: dict[str, int] | None = None) -> redis.Redis | None:
    """A client whose index of this daily mirrors the database (rebuilt here when missing or
    stale), or None: then the caller serves the board from the database. `fingerprint`: the
    database's (`board.fingerprint`), when the caller has just read it, for the first look.

    A change is committed a moment before its receiver updates the index, so a difference is
    looked at twice, `RECHECK_SECONDS` apart, before the index is taken to be stale: a busy
    board is not rebuilt for every move that a reader happens to see half-way, nor, while its
    receivers keep it moving, more than once in `REBUILD_SECONDS`."""
    conn = client()
    if conn is None:
        return None
    try:
        k = keys(daily_id)
        first = _stored_fingerprint(conn, daily_id)
        if first == (fingerprint or board.fingerprint(daily_id)):
            return conn
        if first is not None:
            time.sleep(RECHECK_SECONDS)
            again = _stored_fingerprint(conn, daily_id)
            if again == board.fingerprint(daily_id):
                return conn
            if again != first and conn.exists(k.fresh):
                return conn  # a busy board, its receivers at work, rebuilt a moment ago
        token = secrets.token_hex(8)
        if not conn.set(k.lock, token, nx=True, px=LOCK_MS):
            return None  # someone is rebuilding it: the database answers this one
        try:
            rebuild(conn, daily_id)
        finally:
            _script(conn)[1](keys=[k.lock], args=[token])
        return conn
    except REDIS_ERRORS as exc:
        degraded(exc)
        return None
