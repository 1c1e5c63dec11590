"""The player of an HTTP request, and accounts on top of it.

The player is read by `games.identity.player_for` from the session's user and the cookies (the
WebSocket consumers use the same function). No sign-up is needed: the first request that needs
a player creates a guest (`current_player(request, create=True)`) and sets the cookie (httponly,
SameSite=Lax, secure over HTTPS, two years from the last visit); reads never create one, so
crawlers create nobody. A token the server does not know, or revoked, is as if there were none.

A logged-in user (Django session) plays as their account's player; logging in links the
guest of this browser to the account (`services.player_link_user`), revokes the guest's tokens
and gives this browser a new token of the account's player. Logging out revokes the token and
deletes the cookie, so the next visitor of a shared device starts as a new guest.

Beside the player cookie, a browser keeps a device cookie (`patience_device`: a random token,
never revoked, not cleared by logging out) that says "the same browser" across the players it
has been: one ranked attempt per daily per device (`services.attempt_start`), and the review
queue lists the attempts that share one. `client_address` is the address the app trusts (the
one NUM_PROXIES trusted proxies put in X-Forwarded-For, else the connection's), as the
throttles count it.

Views call `current_player`/`sign_in`/`sign_out`; `PlayerCookieMixin` writes the cookies on
the way out.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from typing import Any, Literal, overload

from django.contrib.auth import login as django_login
from django.contrib.auth import logout as django_logout
from django.http import HttpRequest, HttpResponseBase

from games import services
from games.identity import COOKIE_MAX_AGE, COOKIE_NAME, player_for
from games.models import Player
from infra import addresses

DEVICE_COOKIE = "patience_device"
DEVICE_MAX_AGE = COOKIE_MAX_AGE
DEVICE_TOKEN_LENGTH = 43  # secrets.token_urlsafe(32)


@dataclass
class _RequestPlayer:
    player: Player | None
    token: str | None
    forget: bool = False


def _device_token(raw: str) -> bool:
    """Whether a device cookie's value is one this server could have made."""
    return len(raw) == DEVICE_TOKEN_LENGTH and raw.replace("-", "").replace("_", "").isalnum()


def device_of(request: Any) -> str:
    """The request's device: the hash of its device cookie, one made (and set on the way out,
    by `write_cookie`) when the browser has none or a malformed one."""
    http = _http(request)
    raw = getattr(http, "_patience_device", None)
    if raw is None:
        raw = http.COOKIES.get(DEVICE_COOKIE, "")
        if not _device_token(raw):
            raw = secrets.token_urlsafe(32)
            http._patience_device_new = True
        http._patience_device = raw
    return hashlib.sha256(raw.encode()).hexdigest()


def device_seen(request: Any) -> str:
    """The hash of the request's device cookie, or "" when it has none (or a malformed one):
    for pages, which read it and never make one."""
    raw = _http(request).COOKIES.get(DEVICE_COOKIE, "")
    return hashlib.sha256(raw.encode()).hexdigest() if _device_token(raw) else ""


def client_address(request: Any) -> str:
    """The client's address as the app trusts it (NUM_PROXIES), as the throttles count it."""
    return addresses.request_address(_http(request))


def _http(request: Any) -> HttpRequest:
    """The Django request under a DRF request (or the Django request itself)."""
    return getattr(request, "_request", request)


def _state(request: Any) -> _RequestPlayer:
    http = _http(request)
    found = getattr(http, "_patience_player", None)
    if found is None:
        identity = player_for(user=getattr(http, "user", None), cookies=http.COOKIES)
        found = _RequestPlayer(identity.player, identity.token)
        http._patience_player = found
    return found


@overload
def current_player(
    request: Any, *, create: Literal[True], display_name: str | None = None
) -> Player: ...


@overload
def current_player(
    request: Any, *, create: bool = False, display_name: str | None = None
) -> Player | None: ...


def current_player(
    request: Any, *, create: bool = False, display_name: str | None = None
) -> Player | None:
    """The player making this request: the account's player when logged in, else the one the
    cookie names. With `create`, a guest is made when there is none (named `display_name`, or
    a generated guest name) and the cookie set."""
    state = _state(request)
    if state.player is None and create:
        state.player = services.player_create_guest(display_name=display_name)
        state.token = services.player_token_issue(player=state.player)
        state.forget = False
    return state.player


def player_or_nobody(request: Any) -> Player:
    """The request's player, or an unsaved stand-in that owns nothing, for endpoints that only
    act on the player's own things (someone else's attempt is then 403, an unknown one 404)."""
    return current_player(request) or Player(display_name="")


def write_cookie(request: Any, response: HttpResponseBase) -> None:
    """Set (and so renew) the cookie for the request's player, or delete it after a logout."""
    http = _http(request)
    if getattr(http, "_patience_device_new", False):
        response.set_cookie(
            DEVICE_COOKIE,
            http._patience_device,
            max_age=DEVICE_MAX_AGE,
            httponly=True,
            samesite="Lax",
            secure=http.is_secure(),
        )
    state = getattr(http, "_patience_player", None)
    if state is None:
        return
    if state.forget:
        response.delete_cookie(COOKIE_NAME, samesite="Lax")
    elif state.player is not None and state.token is not None:
        response.set_cookie(
            COOKIE_NAME,
            state.token,
            max_age=COOKIE_MAX_AGE,
            httponly=True,
            samesite="Lax",
            secure=_http(request).is_secure(),
        )


class PlayerCookieMixin:
    """For API views: write the player cookie on every response, errors included."""

    def finalize_response(self, request: Any, response: Any, *args: Any, **kwargs: Any) -> Any:
        response = super().finalize_response(request, response, *args, **kwargs)  # type: ignore[misc]
        write_cookie(request, response)
        return response


# -- accounts --------------------------------------------------------------------------------


def sign_in(request: Any, user: Any) -> Player:
    """Log `user` in (session) and make their account's player this browser's player.

    The guest of this browser is linked to the account (its attempts move to the account's
    player); a guest that belongs to another account is left alone.
    """
    state = _state(request)
    guest = state.player
    if guest is not None and guest.user_id not in (None, user.pk):
        guest = None
    django_login(_http(request), user)
    request.user = user  # the DRF request too, for the rest of this request
    player = Player.objects.filter(user=user).first() if guest is None else None
    if player is None:
        player = services.player_link_user(
            player=guest or services.player_create_guest(), user=user
        )
    state.player = player
    state.token = services.player_token_issue(player=player)
    state.forget = False
    return player


def sign_out(request: Any) -> None:
    """End the session and revoke this browser's player token. A guest (nobody logged in)
    keeps their cookie: it is all that remembers them. The session ends first: the revocation
    tells the player's open sockets to ask again who they serve, and by then neither the
    session nor the token answers."""
    if not request.user.is_authenticated:
        return
    state = _state(request)
    django_logout(_http(request))
    if state.token is not None:
        services.player_token_revoke(raw=state.token)
    state.player, state.token, state.forget = None, None, True
