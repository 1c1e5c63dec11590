"""Live play: every socket open on an attempt (a second tab, a phone) hears each new state.

The `move_played` and `attempt_finished` signals (sent after commit, whatever path made the
move: the REST API or a socket) push the attempt's new state to the group `attempt_group(id)`,
which every play socket of that attempt joins. The state is read afresh and rendered as the
REST API renders a move's answer. A channel layer that is down (Redis) costs the live update,
never the move: the error is logged and play goes on.

The push goes out only when a socket other than the one that made the move listens. A socket
passes its channel name as the `origin` of the services it calls, which the signals carry, and
pushes its own new states: it holds them rendered, and knows its attempt's other tabs from the
group itself (each announces its opening and closing there, and the tabs already open answer,
with the last state they sent: realtime/play.py). So a socket's move costs no read of a registry
and no read of the attempt, and the one tab open on an attempt (most moves) sends nothing.

For a change made elsewhere (a REST move, a finish or resignation over REST), the signal's
listener asks a registry: each play socket registers itself under its attempt (`tab_opened`,
`tab_closed`; a Redis set shared by the server processes, or this process's memory without
Redis). A set that cannot be read counts as "someone else may listen": the push goes out. A set
not touched for `TABS_SECONDS` expires (a process that died cannot remove its sockets); an open
socket registers again at a heartbeat every `TABS_REFRESH_SECONDS`, and then takes its list of
other tabs from it too.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections import defaultdict
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from games.api.serializers import render_state
from games.models import Attempt
from games.state import AttemptState, attempt_state
from infra.redis import REDIS_ERRORS, PerProcess, client_for

logger = logging.getLogger(__name__)


def attempt_group(attempt_id: int) -> str:
    """The channel-layer group of one attempt's play sockets."""
    return f"attempt.{attempt_id}"


def player_group(player_id: int) -> str:
    """The channel-layer group of one player's play sockets, whatever the attempt."""
    return f"player.{player_id}"


def render(state: AttemptState) -> dict[str, Any]:
    """A state as the REST API answers a move, as plain JSON values (a channel layer carries
    it); rendered once per state, whoever asks first."""
    return render_state(state, answer=True)


def group_send(group: str, message: dict[str, Any]) -> bool:
    """Send to a group from sync code; False (logged) when the channel layer fails."""
    return bool(async_to_sync(group_send_async)(group, message))


async def group_send_async(group: str, message: dict[str, Any]) -> bool:
    """`group_send` from the event loop."""
    layer = get_channel_layer()
    if layer is None:
        return False
    try:
        await layer.group_send(group, message)
    except Exception:  # a channel layer that is down must not fail the move behind it
        logger.warning(
            "live update to %s not sent: channel layer unavailable", group, exc_info=True
        )
        return False
    return True


async def send_async(channel: str, message: dict[str, Any]) -> bool:
    """Send to one channel from the event loop; False (logged) when the layer fails."""
    layer = get_channel_layer()
    if layer is None:
        return False
    try:
        await layer.send(channel, message)
    except Exception:
        logger.warning("live message to one socket not sent: channel layer unavailable")
        return False
    return True


def group_send_many(sends: list[tuple[str, dict[str, Any]]]) -> int:
    """Send each message to its group from sync code, all in one hand-off to the event loop:
    through the Redis layer's `group_send_many` (two round trips for all), else one
    `group_send` each, concurrently. How many went out (failures logged once)."""
    layer = get_channel_layer()
    if layer is None or not sends:
        return 0

    async def send_all() -> list[BaseException | None]:
        many = getattr(layer, "group_send_many", None)
        if many is not None:  # the Redis layer: two round trips for all
            try:
                await many(sends)
            except Exception as exc:
                return [exc] * len(sends)
            return [None] * len(sends)
        return await asyncio.gather(
            *(layer.group_send(group, message) for group, message in sends),
            return_exceptions=True,
        )

    try:
        results = async_to_sync(send_all)()
    except Exception as exc:  # a channel layer that is down must not fail the move behind it
        results = [exc] * len(sends)
    failed = [group for (group, _), result in zip(sends, results, strict=True) if result]
    if failed:
        logger.warning(
            "live update to %s not sent: channel layer unavailable",
            ", ".join(failed[:3]) + (f" and {len(failed) - 3} more" if len(failed) > 3 else ""),
            exc_info=next(r for r in results if r),
        )
    return len(sends) - len(failed)


# -- who listens -------------------------------------------------------------------------------

#: Seconds a Redis set of an attempt's sockets lives after its last use.
TABS_SECONDS = 2 * 24 * 60 * 60
#: An open socket registers itself again at the first heartbeat after this many seconds.
TABS_REFRESH_SECONDS = 60 * 60


class _LocalTabs:
    """One process (no Redis): the sockets open on each attempt, in memory."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.tabs: dict[int, set[str]] = defaultdict(set)

    def add(self, attempt_id: int, channel: str) -> None:
        with self.lock:
            self.tabs[attempt_id].add(channel)

    def discard(self, attempt_id: int, channel: str) -> None:
        with self.lock:
            self.tabs[attempt_id].discard(channel)
            if not self.tabs[attempt_id]:
                del self.tabs[attempt_id]

    def members(self, attempt_id: int) -> set[str]:
        with self.lock:
            return set(self.tabs.get(attempt_id, ()))


class _RedisTabs:
    """Several processes: a Redis set per attempt, refreshed by each use."""

    def __init__(self, url: str, prefix: str) -> None:
        self.redis = client_for(url)
        self.prefix = prefix

    def _key(self, attempt_id: int) -> str:
        return f"{self.prefix}:tabs:{int(attempt_id)}"

    def add(self, attempt_id: int, channel: str) -> None:
        with self.redis.pipeline(transaction=False) as pipe:
            pipe.sadd(self._key(attempt_id), channel)
            pipe.expire(self._key(attempt_id), TABS_SECONDS)
            pipe.execute()

    def discard(self, attempt_id: int, channel: str) -> None:
        self.redis.srem(self._key(attempt_id), channel)

    def members(self, attempt_id: int) -> set[str]:
        with self.redis.pipeline(transaction=False) as pipe:
            pipe.smembers(self._key(attempt_id))
            pipe.expire(self._key(attempt_id), TABS_SECONDS)
            found, _ = pipe.execute()
        return {m.decode() if isinstance(m, bytes) else str(m) for m in found}


#: This process's registry of play sockets (Redis when REDIS_URL is set).
tabs: PerProcess[_LocalTabs | _RedisTabs] = PerProcess(_RedisTabs, _LocalTabs)


def tab_opened(attempt_id: int, channel: str) -> None:
    """A play socket of the attempt is open (raises when Redis cannot be reached: the caller
    closes the socket, which then reconnects)."""
    tabs().add(attempt_id, channel)


def tab_closed(attempt_id: int, channel: str) -> None:
    """A play socket of the attempt closed; an unreachable Redis is only logged (the set
    expires by itself, and a socket too many only costs a push)."""
    try:
        tabs().discard(attempt_id, channel)
    except REDIS_ERRORS as exc:
        logger.warning("play socket of attempt %s not unregistered: %r", attempt_id, exc)


def others_listen(attempt_id: int, origin: str | None) -> bool:
    """Whether a socket other than `origin` (the one that asked for the change, if a socket
    did) is open on the attempt (True when it cannot be known)."""
    try:
        members = tabs().members(attempt_id)
    except REDIS_ERRORS:
        return True
    members.discard(origin or "")
    return bool(members)


def push_state(
    sender: Any,
    attempt_id: int,
    origin: str | None = None,
    revealed: list[str] | None = None,
    **kwargs: Any,
) -> None:
    """Listener of `move_played` and `attempt_finished`: push the committed state (read now,
    with the cards the move revealed), only when a socket listens. A change a socket made
    (`origin`) is pushed by that socket itself, which holds the state and knows its attempt's
    other tabs (realtime/play.py): nothing is read or sent here for it."""
    if origin is not None or not others_listen(attempt_id, origin):
        return
    attempt = Attempt.objects.shown(attempt_id)
    if attempt is None:
        return
    state = attempt_state(attempt, revealed=revealed)
    group_send(attempt_group(attempt_id), {"type": "attempt.state", "state": render(state)})


def push_revoked(sender: Any, player_id: int, **kwargs: Any) -> None:
    """Listener of `player_tokens_revoked`: the player's play sockets ask again who they serve
    (`PlayConsumer.player_revoked`), and those no longer theirs close."""
    group_send(player_group(player_id), {"type": "player.revoked"})
