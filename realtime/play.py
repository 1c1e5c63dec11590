"""The play socket, `ws/play/<attempt_id>/`: the twin of the REST move endpoint.

Only the attempt's player may connect (the same cookie token or session as the REST API; the
origin is checked by the ASGI router); anyone else is closed with 4404, as for an attempt that
does not exist. The first message after connecting is the full state.
Then the client sends, each answered with `{"type": "state", "state": {...}}` (the very state
the REST API answers) or an error:

- `{"type": "move", "seq": n, "move": "T3>T5"}`: play (same seq rules as REST: idempotent)
- `{"type": "finish", "seq": n}`: the server plays the finishing foundation moves
- `{"type": "resign"}`
- `{"type": "resync", "version": v}`: the state again, after a reconnect (version is the
  attempt's next seq: a client that saw version v learns what it missed from the full state)
- `{"type": "ping"}` -> `{"type": "pong"}`
- `{"type": "hint"}` -> `{"type": "hint", "hint": {...}}`: the REST hint's answer
  (games/services/hints.py), for practice only, throttled as the REST endpoint is (scope
  `hints`); the search runs in a worker thread of its own, so the thread that serves the
  database to every socket of the process does not wait for it

Every other socket of the same attempt (a second tab) receives each new state, whatever path
made the move (realtime/pushes.py). Budget, heartbeats and errors: realtime/sockets.py; on top of
the connection's budget, every message that reaches the database counts first in the REST
API's `moves` counters of the player, the address and the network (`MESSAGES_SCOPE`): one
budget however many sockets, processes and requests share it. It is counted from the event loop
(`scope_wait_async`), with no thread woken for it.

A socket serves the player it was opened for only while its credentials still name that player:
when the player's cookie tokens are revoked (logging out, a guest linked to an account), the
`player_tokens_revoked` signal reaches every play socket of the player (the group
`pushes.player_group`), each reads its session and cookie again as they are stored now, and one
that no longer names its player is closed with 4403 and reads no further message. The same
check runs at each heartbeat, in case the signal was lost with the channel layer. Checking on
every message instead would add a database read to every move for an event that happens once a
session.
"""

from __future__ import annotations

import asyncio
import logging
import time
from importlib import import_module
from types import SimpleNamespace
from typing import Any

from channels.db import DatabaseSyncToAsync, database_sync_to_async
from django.conf import settings
from django.contrib import auth

from games import services
from games.api.throttles import scope_wait, scope_wait_async
from games.errors import ServiceError
from games.identity import player_for
from games.models import Attempt, Player
from games.state import attempt_state, position
from infra import metrics
from infra.addresses import scope_address
from infra.redis import REDIS_ERRORS
from realtime import pushes
from realtime.sockets import (
    CLOSE_FORBIDDEN,
    CLOSE_NOT_FOUND,
    CLOSE_UNAVAILABLE,
    JsonSocket,
    error_message,
)

logger = logging.getLogger(__name__)

#: The throttle scope of the play socket's messages that reach the database (move, finish,
#: resign, resync): the REST move endpoints' own (`moves_player`, `moves_ip`, `moves_net`).
MESSAGES_SCOPE = "moves"


@database_sync_to_async
def _connect(scope: dict[str, Any], attempt_id: int) -> tuple[Player | None, int]:
    """The player, and 0 to accept, or a close code: 4404 for an attempt that does not exist
    or is not this player's alike, as the REST API answers 404 for both."""
    player = player_for(user=scope.get("user"), cookies=scope.get("cookies", {})).player
    owner = Attempt.objects.filter(pk=attempt_id).values_list("player_id", flat=True).first()
    if owner is None or player is None or owner != player.pk:
        return player, CLOSE_NOT_FOUND
    return player, 0


@database_sync_to_async
def _serves(scope: dict[str, Any], player_id: int) -> bool:
    """Whether the socket's session (as stored now, not as it was when the socket opened) and
    cookies still name the player `player_id`."""
    session = scope.get("session")
    key = getattr(session, "session_key", None) if session is not None else None
    user = None
    if key:
        store = import_module(settings.SESSION_ENGINE).SessionStore(session_key=key)
        user = auth.get_user(SimpleNamespace(session=store))
    player = player_for(user=user, cookies=scope.get("cookies", {})).player
    return player is not None and player.pk == player_id


@database_sync_to_async
def _state(attempt_id: int, kept: services.KeptGame) -> dict[str, Any]:
    """The attempt's state as it stands, its position kept for the socket's next move."""
    attempt = Attempt.objects.shown(attempt_id)
    if attempt is None:
        raise Attempt.DoesNotExist(f"attempt {attempt_id} is not there")
    game = position(attempt)
    kept.keep(attempt, game)
    return pushes.render(attempt_state(attempt, game))


@database_sync_to_async
def _act(
    kind: str,
    attempt_id: int,
    player: Player,
    message: dict[str, Any],
    channel: str,
    kept: services.KeptGame,
) -> dict[str, Any]:
    # `origin`: the push after commit skips this socket, which answers itself. The message's
    # fields go to the services as they came: each checks its input and refuses bad input.
    seq: Any = message.get("seq")
    move: Any = message.get("move")
    if kind == "move":
        state = services.attempt_play(
            attempt_id=attempt_id,
            player=player,
            seq=seq,
            move=move,
            origin=channel,
            kept=kept,
        )
    elif kind == "finish":
        state = services.attempt_finish(
            attempt_id=attempt_id, player=player, seq=seq, origin=channel, kept=kept
        )
    else:
        state = services.attempt_resign(
            attempt_id=attempt_id, player=player, origin=channel, kept=kept
        )
    return pushes.render(state)


def _hint_sync(attempt_id: int, player: Player, address: str) -> dict[str, Any]:
    wait = scope_wait("hints", player_id=player.pk, address=address)
    if wait:
        return error_message(
            "throttled",
            f"Too many hints: wait {wait:.0f} s.",
            retry_after=max(1, round(wait)),
        )
    return {
        "type": "hint",
        "hint": services.attempt_hint(attempt_id=attempt_id, player=player).to_json(),
    }


#: Not thread-sensitive: a hint searches for up to a second or two.
_hint = DatabaseSyncToAsync(_hint_sync, thread_sensitive=False)


class PlayConsumer(JsonSocket):
    attempt_id: int
    player: Player
    group: str | None = None
    player_group: str | None = None
    sent: tuple[int, str] = (-1, "")
    registered_at = 0.0  # monotonic time of the last registration in the attempt's tabs
    #: The attempt and its position as this socket last read or wrote them: a move then
    #: costs one write (`services.attempt_play`).
    kept: services.KeptGame
    #: The attempt's other play sockets, as they announced themselves on its group: a state
    #: this socket makes is pushed to them by this socket, only when there is one.
    others: set[str]
    last_state: dict[str, Any] | None = None  # the newest state this socket sent
    address = ""  # the client's, as infra/addresses.py trusts it

    async def connect(self) -> None:
        self.attempt_id = int(self.scope["url_route"]["kwargs"]["attempt_id"])
        self.kept = services.KeptGame()
        self.others = set()
        player, refusal = await _connect(self.scope, self.attempt_id)
        if refusal:
            await self.refuse(refusal)
            return
        assert player is not None
        self.player = player
        self.address = scope_address(self.scope)
        group = pushes.attempt_group(self.attempt_id)
        if not await self.join_group(group):
            await self.refuse(CLOSE_UNAVAILABLE)
            return
        self.group = group
        if not await self.join_group(pushes.player_group(player.pk)):
            await self.leave_groups()
            await self.refuse(CLOSE_UNAVAILABLE)
            return
        self.player_group = pushes.player_group(player.pk)
        try:  # before the first state is read: a move committed later is pushed to it
            await asyncio.to_thread(pushes.tab_opened, self.attempt_id, self.channel_name)
            self.registered_at = time.monotonic()
        except REDIS_ERRORS as exc:
            logger.warning("play socket not registered, closed: %r", exc)
            await self.leave_groups()
            await self.refuse(CLOSE_UNAVAILABLE)
            return
        # The other tabs learn of this one and answer with the newest state they sent: a move
        # one of them made before it heard of this tab reaches it that way.
        await pushes.group_send_async(group, {"type": "tab.opened", "channel": self.channel_name})
        await self.accept()
        await self.start_watchdog()
        await self.send_state(await _state(self.attempt_id, self.kept))

    async def on_ping(self) -> None:
        """A socket whose player signed out closes (in case the signal was lost); one open
        for long stays in its attempt's registry (which expires unused)."""
        if not await _serves(self.scope, self.player.pk):
            await self.revoked()
            return
        if (
            self.group is None
            or time.monotonic() - self.registered_at < pushes.TABS_REFRESH_SECONDS
        ):
            return
        self.registered_at = time.monotonic()
        try:
            await asyncio.to_thread(pushes.tab_opened, self.attempt_id, self.channel_name)
            members = await asyncio.to_thread(pushes.tabs().members, self.attempt_id)
        except REDIS_ERRORS as exc:  # tried again at a later ping
            logger.warning("play socket registration not refreshed: %r", exc)
            return
        # Tabs of a process that died never said goodbye: the registry has expired them.
        self.others = members - {self.channel_name}

    async def player_revoked(self, event: dict[str, Any]) -> None:
        """Some cookie token of the player was revoked: close unless this socket's own
        credentials still name the player."""
        if not self.refused and not await _serves(self.scope, self.player.pk):
            await self.revoked()

    async def revoked(self) -> None:
        logger.info("closing a play socket whose player signed out: %s", self.scope.get("path"))
        self.refused = True  # no further message is read
        await self.leave_groups()
        await self.close(code=CLOSE_FORBIDDEN)

    async def leave_groups(self) -> None:
        if self.player_group is not None:
            group, self.player_group = self.player_group, None
            await self.leave_group(group)
        if self.group is not None:
            await pushes.group_send_async(
                self.group, {"type": "tab.closed", "channel": self.channel_name}
            )
            await self.leave_group(self.group)
            await asyncio.to_thread(pushes.tab_closed, self.attempt_id, self.channel_name)
            self.group = None

    async def send_state(self, state: dict[str, Any]) -> None:
        self.sent = max(self.sent, (int(state["version"]), str(state["status"])))
        self.last_state = state
        await self.send_json({"type": "state", "state": state})

    async def tab_opened(self, event: dict[str, Any]) -> None:
        """Another socket of the attempt opened: it hears this socket's moves from now on, and
        gets the newest state this socket sent (it ignores one it has already)."""
        channel = str(event["channel"])
        if channel == self.channel_name or self.refused:
            return
        self.others.add(channel)
        await pushes.send_async(
            channel, {"type": "tab.here", "channel": self.channel_name, "state": self.last_state}
        )

    async def tab_here(self, event: dict[str, Any]) -> None:
        """A socket that was open before this one: it hears this socket's moves."""
        self.others.add(str(event["channel"]))
        if event.get("state") is not None:
            await self.attempt_state(event)

    async def tab_closed(self, event: dict[str, Any]) -> None:
        self.others.discard(str(event["channel"]))

    async def on_message(self, message: dict[str, Any]) -> None:
        kind = message["type"]
        if kind == "hint":
            try:
                answer = await _hint(self.attempt_id, self.player, self.address)
            except ServiceError as exc:
                answer = error_message(exc.code, exc.detail, **exc.extra)
            await self.send_json(answer)
            return
        if kind not in ("resync", "move", "finish", "resign"):
            await self.send_json(
                error_message("malformed", f"Unknown message type {str(kind)[:20]!r}.")
            )
            return
        # Counted before any database work, in the REST API's counters of moves (the player's,
        # the address's and the network's, shared by every socket, process and request): a
        # refused message costs one cache round trip.
        wait = await scope_wait_async(
            MESSAGES_SCOPE, player_id=self.player.pk, address=self.address
        )
        if wait:
            await self.rate_limited(
                "Too many moves for this player or address, over every socket and the REST "
                "API; this one was refused.",
                wait,
                seq=message.get("seq"),
            )
            return
        if kind == "resync":
            await self.send_state(await _state(self.attempt_id, self.kept))
            return
        try:
            state = await _act(
                kind, self.attempt_id, self.player, message, self.channel_name, self.kept
            )
        except ServiceError as exc:
            await self.send_json(
                error_message(exc.code, exc.detail, seq=message.get("seq"), **exc.extra)
            )
            return
        await self.send_state(state)
        if self.others and self.group is not None and not state.get("replayed"):
            await pushes.group_send_async(self.group, {"type": "attempt.state", "state": state})

    async def attempt_state(self, event: dict[str, Any]) -> None:
        """A new state from the group: sent on unless this socket has sent it already."""
        state = event["state"]
        seen = (int(state["version"]), str(state["status"]))
        if seen[0] > self.sent[0] or (seen[0] == self.sent[0] and seen[1] != self.sent[1]):
            metrics.live_event_sent("play")
            await self.send_state(state)
