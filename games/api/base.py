"""The base of the REST APIs, for every app that serves one (games, leaderboards, races): the
base view (`ApiView`: the player cookie, throttles by scope, small bodies), the parsers of query
parameters and URL dates, the schema's documented errors and shared parameters, and the JSON 404
of any other path under /api/. The games API's own views are in games/api/views.py; this module
imports none of them, so an app may build on it without reaching into them.

The body parser stays in games/api/parsers.py: DRF imports it while it defines `APIView`, so it
may not import rest_framework.views, as this module does.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.http import HttpRequest, JsonResponse
from django.urls import Resolver404, resolve
from django.views.decorators.csrf import csrf_exempt
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse
from rest_framework import exceptions, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games import clock
from games.api import identity
from games.api.errors import error_body
from games.api.parsers import body_size_check
from games.api.serializers import ErrorSerializer, render_state
from games.api.throttles import THROTTLE_CLASSES
from games.errors import Malformed, NotFound
from games.models import Attempt, GameName, Player
from games.state import attempt_state

# -- the base view ---------------------------------------------------------------------------


class ApiView(identity.PlayerCookieMixin, APIView):
    """The base of our views: the player cookie on the way out, throttles by scope, small
    bodies. A view sets `throttle_scope` to be throttled, and `creates_guest` when it makes a
    guest of a request without a player (then the guests' throttles count it too)."""

    throttle_classes = THROTTLE_CLASSES
    throttle_scope: str | None = None
    creates_guest = False

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        # A wrong method is 405 whatever the throttles say (DRF throttles first).
        if not hasattr(self, request.method.lower()) or (
            request.method.lower() not in self.http_method_names
        ):
            raise exceptions.MethodNotAllowed(request.method)
        body_size_check(request)
        super().initial(request, *args, **kwargs)


def started_response(attempt: Attempt, created: bool) -> Response:
    """The answer to a start that may resume (a daily, a practice, a race's game, going on in
    practice): the attempt's state, 201 when it was made now, 200 when it already was."""
    return Response(
        render_state(attempt_state(attempt)),
        status=status.HTTP_201_CREATED if created else status.HTTP_200_OK,
    )


def no_player() -> NotFound:
    """404 `no_player`: a read of "my" things by a request with no player (none is made)."""
    return NotFound(
        "You have no player yet: POST /api/players/ creates one (or start a game).",
        code="no_player",
    )


def my_player(request: Request) -> Player:
    """The requesting player, for a read of "my" things; `no_player` when there is none."""
    player = identity.current_player(request)
    if player is None:
        raise no_player()
    return player


# -- queries and URLs ------------------------------------------------------------------------


def int_query(query: Any, name: str, *, default: int, low: int, high: int) -> int:
    """A whole number from `low` to `high` in query parameter `name` (`default` when absent),
    or 400 `invalid`: an empty value, a sign or any other text is refused, as the schema's
    integer with its minimum and maximum says."""
    text = query.get(name)
    if text is None:
        return default
    if not (text.isascii() and text.isdigit() and low <= int(text) <= high):
        raise Malformed(f"{name} is a whole number from {low} to {high}.", code="invalid")
    return int(text)


def choice_query(query: Any, name: str, choices: list[str]) -> str | None:
    """One of `choices` in query parameter `name`, None when absent, or 400 `invalid` (an empty
    value too: the schema's enum does not hold it)."""
    text = query.get(name)
    if text is not None and text not in choices:
        raise Malformed(f"{name} is {' or '.join(choices)}, or left out.", code="invalid")
    return text


def parse_date(text: str) -> dt.date:
    """A `YYYY-MM-DD` date from a URL (`clock.date_from_text`), or 400 `bad_date`."""
    day = clock.date_from_text(text)
    if day is None:
        raise Malformed(f"{text[:20]!r} is not a date: use YYYY-MM-DD.", code="bad_date")
    return day


# -- the schema: documented errors, shared parameters ----------------------------------------


def error_response(description: str) -> OpenApiResponse:
    """An error answer of the schema: an `ErrorSerializer` body, described."""
    return OpenApiResponse(ErrorSerializer, description=description)


#: The error answers that several operations document (each an `ErrorSerializer` body).
E400 = error_response(
    "`malformed` (not JSON), `invalid` (missing, unexpected or wrong-typed fields)."
)
E400_DATE = error_response("`bad_date`.")
E403_CSRF = error_response(
    "`csrf_failed`: a logged-in user's request without the X-CSRFToken header (see above)."
)
E403_CHANGE = error_response("`bad_origin` (another site's page) or `csrf_failed`.")
E404_DAILY = error_response(
    "`unknown_game`, or `daily_not_found` (no such daily, or a future date)."
)
E404_ATTEMPT = error_response(
    "`attempt_not_found`: you have no attempt with that id (none exists, or it is another "
    "player's: the answer is the same)."
)
E409_NAME = error_response("`display_name_taken`.")
E413 = error_response("`too_large`: the request body is larger than 16 KiB.")
E429 = error_response(
    "`throttled`: too many requests; `retry_after` says how many seconds to wait."
)

GAME = OpenApiParameter(
    "game",
    OpenApiTypes.STR,
    OpenApiParameter.PATH,
    enum=GameName.values,
    description="munger or masterpiece (another name is 404 `unknown_game`).",
)
DATE = OpenApiParameter(
    "date",
    OpenApiTypes.DATE,
    OpenApiParameter.PATH,
    description="A UTC date, YYYY-MM-DD: today or a past day (another form is 400 `bad_date`).",
)


# -- anything else under /api/ ---------------------------------------------------------------


@csrf_exempt
def api_not_found(request: HttpRequest, *args: Any, **kwargs: Any) -> JsonResponse:
    """A JSON 404 for paths under /api/ that no endpoint serves."""
    detail = f"There is no endpoint at {request.path[:200]}."
    if not request.path.endswith("/"):
        try:
            if resolve(request.path + "/").func is not api_not_found:
                detail += f" Did you mean {request.path[:200]}/?"
        except Resolver404:
            pass
    return JsonResponse(error_body("not_found", detail), status=404)
