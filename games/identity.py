"""Who is playing, from what any request carries: the account (a session's user) and cookies.

One function, `player_for`, reads the player for the HTTP API (games/api/identity.py) and for
the WebSocket consumers (their scope's `user` and `cookies`) alike.

The player cookie holds a random token (`PlayerToken`, stored hashed) that the server can
revoke: logging out revokes it, and linking a guest to an account revokes the guest's tokens,
so a cookie kept from before is worthless. A logged-in user plays as their account's player,
whatever the cookie says.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from games import services
from games.models import Player, PlayerToken
from infra.prepared import PreparedRead

COOKIE_NAME = "patience_player"
COOKIE_MAX_AGE = 2 * 365 * 24 * 60 * 60  # seconds; renewed by every visit that knows the player
TOKEN_MAX_LENGTH = 64

#: A live token by its hash, with its player: every request with a cookie reads it.
_TOKEN_READ: PreparedRead[PlayerToken] = PreparedRead(
    lambda key_hash: PlayerToken.objects.select_related("player").filter(
        key_hash=key_hash, revoked_at__isnull=True
    ),
    slots=("0" * 64,),
)


@dataclass(frozen=True)
class Identity:
    """The player of a request, and the cookie token that named it (None for an account's
    player found through the session, or when there is no player)."""

    player: Player | None
    token: str | None = None


def player_for(*, user: Any, cookies: Mapping[str, str]) -> Identity:
    """The player of a request whose session user is `user` and whose cookies are `cookies`."""
    raw = cookies.get(COOKIE_NAME)
    token = raw if isinstance(raw, str) and 0 < len(raw) <= TOKEN_MAX_LENGTH else None
    if user is not None and getattr(user, "is_authenticated", False):
        player = Player.objects.filter(user=user).first()
        if player is not None:
            services.player_seen(player=player)
            return Identity(player, token if token and _owns(player, token) else None)
    if token is None:
        return Identity(None)
    found = _TOKEN_READ.first(PlayerToken.hash(token))
    if found is None:
        return Identity(None)
    player = found.player
    if player.user_id is not None:  # an account's player answers only to its session
        return Identity(None)
    services.player_seen(player=player)
    return Identity(player, token)


def _owns(player: Player, token: str) -> bool:
    return PlayerToken.objects.filter(
        player=player,
        key_hash=PlayerToken.hash(token),
        revoked_at__isnull=True,
    ).exists()
