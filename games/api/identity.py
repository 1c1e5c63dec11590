"""Who is playing: the player cookie, and accounts on top of it.

A player is remembered by a signed cookie holding their id (salt "patience.player", httponly,
SameSite=Lax, secure unless DEBUG, two years from the last visit). No sign-up is needed: the
first request that needs a player creates a guest (`current_player(request, create=True)`);
reads such as the list of dailies never do, so crawlers create nobody. A cookie that fails its
signature is ignored, as if there were none.

A logged-in user (Django session) plays as their account's player; logging in links the
guest of this browser to the account (`services.player_link_user`) and switches the cookie to
the account's player, so streaks follow the person across devices. Logging out forgets the
cookie, so the next visitor of a shared device starts as a new guest.

Views call `current_player`/`remember_player`/`forget_player`; `PlayerCookieMixin` writes the
cookie on the way out.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth import login as django_login
from django.contrib.auth import logout as django_logout
from django.db import IntegrityError, transaction
from django.http import HttpRequest, HttpResponseBase

from games import services
from games.errors import Conflict
from games.models import Player

COOKIE_NAME = "patience_player"
COOKIE_SALT = "patience.player"
COOKIE_MAX_AGE = 2 * 365 * 24 * 60 * 60  # seconds; renewed by every visit that knows the player


@dataclass
class _Identity:
    player: Player | None
    forget: bool = False


def _http(request: Any) -> HttpRequest:
    """The Django request under a DRF request (or the Django request itself)."""
    return getattr(request, "_request", request)


def _identity(request: Any) -> _Identity:
    http = _http(request)
    found = getattr(http, "_patience_identity", None)
    if found is None:
        found = _Identity(player=_player_from(http))
        http._patience_identity = found  # type: ignore[attr-defined]
    return found


def _player_from(http: HttpRequest) -> Player | None:
    user = getattr(http, "user", None)
    if user is not None and user.is_authenticated:
        player = Player.objects.filter(user=user).first()
        if player is not None:
            return player
    raw = http.get_signed_cookie(COOKIE_NAME, default=None, salt=COOKIE_SALT,
                                 max_age=COOKIE_MAX_AGE)  # fmt: skip
    if raw is None or not raw.isdigit() or len(raw) > 18:
        return None
    return Player.objects.filter(pk=int(raw)).first()


def current_player(request: Any, *, create: bool = False) -> Player | None:
    """The player making this request: the account's player when logged in, else the one the
    cookie names. With `create`, a guest is made when there is none (and the cookie set)."""
    identity = _identity(request)
    if identity.player is None and create:
        identity.player = services.player_create_guest()
        identity.forget = False
    return identity.player


def player_or_nobody(request: Any) -> Player:
    """The request's player, or an unsaved stand-in that owns nothing, for endpoints that only
    act on the player's own things (someone else's attempt is then 403, an unknown one 404)."""
    return current_player(request) or Player(display_name="")


def remember_player(request: Any, player: Player) -> None:
    identity = _identity(request)
    identity.player, identity.forget = player, False


def forget_player(request: Any) -> None:
    identity = _identity(request)
    identity.player, identity.forget = None, True


def write_cookie(request: Any, response: HttpResponseBase) -> None:
    """Set (and so renew) the cookie for the request's player, or delete it after a logout."""
    identity = getattr(_http(request), "_patience_identity", None)
    if identity is None:
        return
    if identity.forget:
        response.delete_cookie(COOKIE_NAME, samesite="Lax")
    elif identity.player is not None and identity.player.pk is not None:
        response.set_signed_cookie(
            COOKIE_NAME, str(identity.player.pk), salt=COOKIE_SALT, max_age=COOKIE_MAX_AGE,
            httponly=True, samesite="Lax", secure=not settings.DEBUG,
        )  # fmt: skip


class PlayerCookieMixin:
    """For API views: write the player cookie on every response, errors included."""

    def finalize_response(self, request: Any, response: Any, *args: Any, **kwargs: Any) -> Any:
        response = super().finalize_response(request, response, *args, **kwargs)  # type: ignore[misc]
        write_cookie(request, response)
        return response


# -- accounts --------------------------------------------------------------------------------


def account_create(*, username: str, password: str) -> Any:
    """A new Django user (the serializer has validated the username and password)."""
    User = get_user_model()
    try:
        with transaction.atomic():
            return User.objects.create_user(username=username, password=password)
    except IntegrityError:
        raise Conflict("That username is taken.", code="username_taken") from None


def sign_in(request: Any, user: Any) -> Player:
    """Log `user` in (session) and make their account's player this browser's player.

    The guest of this browser is linked to the account (its attempts move to the account's
    player where they do not clash); a guest that belongs to another account is left alone.
    """
    guest = current_player(request)
    if guest is not None and guest.user_id not in (None, user.pk):
        guest = None
    django_login(_http(request), user)
    request.user = user  # the DRF request too, for the rest of this request
    player = Player.objects.filter(user=user).first() if guest is None else None
    if player is None:
        player = services.player_link_user(
            player=guest or services.player_create_guest(), user=user
        )
    remember_player(request, player)
    return player


def sign_out(request: Any) -> None:
    """End the session and forget the account's player on this browser. A guest (nobody
    logged in) keeps their cookie: it is all that remembers them."""
    if not request.user.is_authenticated:
        return
    django_logout(_http(request))
    forget_player(request)
