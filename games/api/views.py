"""The games REST API (docs/api.md). Views are thin: they parse the input with
a serializer, call one service or selector and render the answer.

The player is known by a cookie token (games/api/identity.py); errors are JSON with a stable
code (games/api/errors.py); starts, moves and the like are throttled per player, IP address
and network (games/api/throttles.py); bodies are small (games/api/parsers.py).
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import authenticate
from django.db.models import QuerySet
from django.http import HttpRequest, JsonResponse
from django.urls import Resolver404, resolve
from django.views.decorators.csrf import csrf_exempt
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import exceptions, generics, status
from rest_framework.pagination import PageNumberPagination
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games import selectors, services
from games.api import identity
from games.api.errors import error_body
from games.api.parsers import body_size_check
from games.api.serializers import (
    AttemptStateSerializer,
    AttemptSummarySerializer,
    DailySerializer,
    ErrorSerializer,
    FinishInputSerializer,
    LoginInputSerializer,
    MoveAnswerSerializer,
    MoveInputSerializer,
    PlayerCreateSerializer,
    PlayerSerializer,
    PlayerUpdateSerializer,
    PracticeInputSerializer,
    RegisterInputSerializer,
    parse_date,
    render_state,
)
from games.api.throttles import THROTTLE_CLASSES
from games.engine.deals import random_seed
from games.errors import NotFound, ServiceError
from games.models import Attempt, DailyChallenge, GameName, Player
from games.state import attempt_state

# -- the documented errors -------------------------------------------------------------------


def _error(description: str) -> OpenApiResponse:
    return OpenApiResponse(ErrorSerializer, description=description)


#: The error answers that several operations document (each an `ErrorSerializer` body).
E400 = _error("`malformed` (not JSON), `invalid` (missing, unexpected or wrong-typed fields).")
E400_DATE = _error("`bad_date`.")
E403_CSRF = _error(
    "`csrf_failed`: a logged-in user's request without the X-CSRFToken header (see above)."
)
E403_ATTEMPT = _error("`not_your_attempt`: the attempt is someone else's.")
E403_ATTEMPT_CSRF = _error("`not_your_attempt`, or `csrf_failed`.")
E404_DAILY = _error("`unknown_game`, or `daily_not_found` (no such daily, or a future date).")
E404_ATTEMPT = _error("`attempt_not_found`.")
E409_NAME = _error("`display_name_taken`.")
E413 = _error("`too_large`: the request body is larger than 16 KiB.")
E429 = _error("`throttled`: too many requests; `retry_after` says how many seconds to wait.")


def _responses(
    ok: dict[int, Any],
    errors: dict[int, OpenApiResponse | str] | None = None,
    *,
    limited: bool = False,
) -> dict[int, Any]:
    """An operation's documented answers: `ok` as given, then the `errors` in the order of
    their status (a string is the description of an `ErrorSerializer` body), and 413 and 429
    when `limited` (a throttled endpoint that reads a body)."""
    documented = {**(errors or {}), **({413: E413, 429: E429} if limited else {})}
    return {
        **ok,
        **{
            code: _error(answer) if isinstance(answer, str) else answer
            for code, answer in sorted(documented.items())
        },
    }


def _new_or_resumed(serializer: Any, new: str, resumed: str) -> dict[int, OpenApiResponse]:
    """201 with something created, 200 with what the player had already."""
    return {
        201: OpenApiResponse(serializer, description=new),
        200: OpenApiResponse(serializer, description=resumed),
    }


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
ATTEMPT_ID = OpenApiParameter("attempt_id", OpenApiTypes.INT, OpenApiParameter.PATH)

COOKIE_NOTE = (
    "The player is the one the `patience_player` cookie names (a guest is created and the "
    "cookie set when there is none)."
)


class ApiView(identity.PlayerCookieMixin, APIView):
    """The base of our views: the player cookie on the way out, throttles by scope, small
    bodies. A view sets `throttle_scope` to be throttled."""

    throttle_classes = THROTTLE_CLASSES
    throttle_scope: str | None = None

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        # A wrong method is 405 whatever the throttles say (DRF throttles first).
        if not hasattr(self, request.method.lower()) or (
            request.method.lower() not in self.http_method_names
        ):
            raise exceptions.MethodNotAllowed(request.method)
        body_size_check(request)
        super().initial(request, *args, **kwargs)


def _your_attempt(daily: DailyChallenge, player: Player | None) -> dict[str, Any] | None:
    attempt = selectors.attempt_at_daily(daily=daily, player=player)
    if attempt is None:
        return None
    return {"id": attempt.pk, "status": attempt.status, "ranked": attempt.ranked}


def _daily(daily: DailyChallenge, player: Player | None) -> dict[str, Any]:
    return {
        **selectors.daily_summary(daily=daily, player=player),
        "your_attempt": _your_attempt(daily, player),
    }


# -- dailies ---------------------------------------------------------------------------------


class DailyListView(ApiView):
    @extend_schema(
        operation_id="dailies_today",
        tags=["dailies"],
        summary="Today's dailies",
        description="One per game that has a daily today (UTC). Creates no player.",
        responses={200: DailySerializer(many=True)},
    )
    def get(self, request: Request) -> Response:
        player = identity.current_player(request)
        dailies = [_daily(daily, player) for daily in selectors.dailies_today()]
        return Response(DailySerializer(dailies, many=True).data)


class DailyDetailView(ApiView):
    @extend_schema(
        operation_id="daily_get",
        tags=["dailies"],
        summary="One daily",
        description="Today's or a past day's daily; a future one is 404. Creates no player.",
        parameters=[GAME, DATE],
        responses=_responses({200: DailySerializer}, {400: E400_DATE, 404: E404_DAILY}),
    )
    def get(self, request: Request, game: str, date: str) -> Response:
        daily = selectors.daily_get(game=game, date=parse_date(date))
        return Response(DailySerializer(_daily(daily, identity.current_player(request))).data)


class DailyAttemptsView(ApiView):
    throttle_scope = "starts"

    @extend_schema(
        operation_id="daily_attempt_start",
        tags=["play"],
        summary="Start or resume your attempt at a daily",
        description=(
            "Today's daily is ranked (one attempt per player: starting again resumes it, from "
            "any device); a past day's is practice, never ranked. The attempt counts as started "
            "now, when the deal is first shown. No body. " + COOKIE_NOTE
        ),
        parameters=[GAME, DATE],
        request=None,
        responses=_responses(
            _new_or_resumed(AttemptStateSerializer, "A new attempt.", "Your attempt, resumed."),
            {400: E400_DATE, 403: E403_CSRF, 404: E404_DAILY},
            limited=True,
        ),
    )
    def post(self, request: Request, game: str, date: str) -> Response:
        daily = selectors.daily_get(game=game, date=parse_date(date))
        player = identity.current_player(request, create=True)
        attempt, created = services.attempt_start(player=player, daily=daily)
        return Response(
            render_state(attempt_state(attempt)),
            status=status.HTTP_201_CREATED if created else status.HTTP_200_OK,
        )


class PracticeView(ApiView):
    throttle_scope = "starts"

    @extend_schema(
        operation_id="practice_start",
        tags=["play"],
        summary="Practise on any seed",
        description=(
            "Starts (or resumes, while unfinished) a practice attempt on the deal of `seed`, "
            "or of a random seed. Never ranked. " + COOKIE_NOTE
        ),
        request=PracticeInputSerializer,
        responses=_responses(
            _new_or_resumed(
                AttemptStateSerializer, "A new practice attempt.", "Your practice, resumed."
            ),
            {400: E400, 403: E403_CSRF},
            limited=True,
        ),
    )
    def post(self, request: Request) -> Response:
        data = PracticeInputSerializer.parse(request.data)
        seed = data.get("seed")
        if seed is None:
            seed = random_seed()
        player = identity.current_player(request, create=True)
        attempt, created = services.attempt_start_practice(
            player=player, game=data["game"], seed=seed
        )
        return Response(
            render_state(attempt_state(attempt)),
            status=status.HTTP_201_CREATED if created else status.HTTP_200_OK,
        )


# -- attempts --------------------------------------------------------------------------------


class AttemptDetailView(ApiView):
    @extend_schema(
        operation_id="attempt_get",
        tags=["play"],
        summary="Your attempt",
        description="The position, the legal moves, the next seq, the status and times.",
        parameters=[ATTEMPT_ID],
        responses=_responses({200: AttemptStateSerializer}, {403: E403_ATTEMPT, 404: E404_ATTEMPT}),
    )
    def get(self, request: Request, attempt_id: int) -> Response:
        attempt = selectors.attempt_get(
            attempt_id=attempt_id, player=identity.player_or_nobody(request)
        )
        return Response(render_state(attempt_state(attempt)))


class MoveView(ApiView):
    throttle_scope = "moves"

    @extend_schema(
        operation_id="attempt_move",
        tags=["play"],
        summary="Play a move",
        description=(
            "The REST twin of the play socket. `seq` is the move's index in the history (the "
            "`seq` of the last state). Sending a played seq again with the same move answers as "
            "the first time and stores nothing (`replayed: true`). Guests need no CSRF token; "
            "a logged-in user sends X-CSRFToken."
        ),
        parameters=[ATTEMPT_ID],
        request=MoveInputSerializer,
        responses=_responses(
            {200: MoveAnswerSerializer},
            {
                400: "`malformed` (not JSON), `invalid` (bad fields), `malformed_move` (not a "
                "move token), `malformed_seq`.",
                403: E403_ATTEMPT_CSRF,
                404: E404_ATTEMPT,
                409: "`wrong_seq` (not the next seq), `seq_taken` (another move was played at "
                "that seq), `attempt_finished`, `history_full`; `expected_seq` says which is next.",
                422: "`illegal_move`: the rules refuse it; `legal` lists the allowed moves.",
            },
            limited=True,
        ),
    )
    def post(self, request: Request, attempt_id: int) -> Response:
        data = MoveInputSerializer.parse(request.data)
        state = services.attempt_play(
            attempt_id=attempt_id,
            player=identity.player_or_nobody(request),
            seq=data["seq"],
            move=data["move"],
        )
        return Response(render_state(state, answer=True))


class FinishView(ApiView):
    throttle_scope = "moves"

    @extend_schema(
        operation_id="attempt_finish",
        tags=["play"],
        summary="Finish: send every card left to the foundations",
        description=(
            "Allowed when the state says `finishable`: every card left can go to the "
            "foundations by foundation moves alone. The server plays those moves; each is "
            "stored and counts as a move. `seq` is the state's seq (a stale one is 409)."
        ),
        parameters=[ATTEMPT_ID],
        request=FinishInputSerializer,
        responses=_responses(
            {200: AttemptStateSerializer},
            {
                400: E400,
                403: "`not_your_attempt`, `bad_origin` or `csrf_failed`.",
                404: E404_ATTEMPT,
                409: "`wrong_seq`, `attempt_finished`, `not_finishable`.",
            },
            limited=True,
        ),
    )
    def post(self, request: Request, attempt_id: int) -> Response:
        data = FinishInputSerializer.parse(request.data)
        state = services.attempt_finish(
            attempt_id=attempt_id, player=identity.player_or_nobody(request), seq=data["seq"]
        )
        return Response(render_state(state))


class ResignView(ApiView):
    throttle_scope = "moves"

    @extend_schema(
        operation_id="attempt_resign",
        tags=["play"],
        summary="Give up",
        description="Ends the attempt as resigned (it keeps its cards on foundations). No body.",
        parameters=[ATTEMPT_ID],
        request=None,
        responses=_responses(
            {200: AttemptStateSerializer},
            {403: E403_ATTEMPT_CSRF, 404: E404_ATTEMPT, 409: "`attempt_finished`."},
            limited=True,
        ),
    )
    def post(self, request: Request, attempt_id: int) -> Response:
        state = services.attempt_resign(
            attempt_id=attempt_id, player=identity.player_or_nobody(request)
        )
        return Response(render_state(state))


# -- players ---------------------------------------------------------------------------------

RECENT_ATTEMPTS = 5


def _me(player: Player) -> dict[str, Any]:
    return {
        "display_name": player.display_name,
        "username": player.user.get_username() if player.user_id else None,
        "stats": selectors.player_stats(player=player),
        "recent_attempts": list(selectors.player_attempts(player=player)[:RECENT_ATTEMPTS]),
    }


def _no_player() -> NotFound:
    return NotFound(
        "You have no player yet: POST /api/players/ creates one (or start a game).",
        code="no_player",
    )


class PlayersView(ApiView):
    throttle_scope = "guests"

    @extend_schema(
        operation_id="player_create",
        tags=["players"],
        summary="Become a player (no sign-up)",
        description=(
            "Creates a guest named `display_name` (or a generated guest name) and sets the "
            "`patience_player` cookie. A browser calls this once, before any parallel request, "
            "so that it is one player. With a player already, answers it (200) and creates "
            "no one."
        ),
        request=PlayerCreateSerializer,
        responses=_responses(
            _new_or_resumed(PlayerSerializer, "A new guest.", "You had a player already."),
            {
                400: "`invalid`, or `bad_display_name`.",
                403: "`bad_origin` or `csrf_failed`.",
                409: E409_NAME,
            },
            limited=True,
        ),
    )
    def post(self, request: Request) -> Response:
        data = PlayerCreateSerializer.parse(request.data)
        existing = identity.current_player(request)
        if existing is not None:
            return Response(PlayerSerializer(_me(existing)).data)
        player = identity.current_player(
            request, create=True, display_name=data.get("display_name")
        )
        return Response(PlayerSerializer(_me(player)).data, status=status.HTTP_201_CREATED)


class MeView(ApiView):
    throttle_scope = "renames"

    def get_throttles(self) -> list[Any]:
        return super().get_throttles() if self.request.method == "PATCH" else []

    @extend_schema(
        operation_id="player_me",
        tags=["players"],
        summary="Your player",
        description=(
            "Display name, account, stats and latest attempts. Creates no player: without one, "
            "404 `no_player`."
        ),
        responses=_responses({200: PlayerSerializer}, {404: "`no_player`."}),
    )
    def get(self, request: Request) -> Response:
        player = identity.current_player(request)
        if player is None:
            raise _no_player()
        return Response(PlayerSerializer(_me(player)).data)

    @extend_schema(
        operation_id="player_me_update",
        tags=["players"],
        summary="Change your display name",
        description=COOKIE_NOTE,
        request=PlayerUpdateSerializer,
        responses=_responses(
            {200: PlayerSerializer},
            {
                400: "`invalid`, or `bad_display_name` (length, characters, 'Guest ...').",
                403: E403_CSRF,
                409: E409_NAME,
            },
            limited=True,
        ),
    )
    def patch(self, request: Request) -> Response:
        data = PlayerUpdateSerializer.parse(request.data)
        player = identity.current_player(request, create=True)
        player = services.player_rename(player=player, display_name=data["display_name"])
        return Response(PlayerSerializer(_me(player)).data)


class AttemptPagination(PageNumberPagination):
    page_size = 20
    page_size_query_param = "page_size"
    max_page_size = 100


class MyAttemptsView(identity.PlayerCookieMixin, generics.ListAPIView):
    serializer_class = AttemptSummarySerializer
    pagination_class = AttemptPagination

    def get_queryset(self) -> QuerySet[Attempt]:
        player = identity.current_player(self.request)
        if player is None:
            return Attempt.objects.none()
        return selectors.player_attempts(player=player)

    @extend_schema(
        operation_id="player_me_attempts",
        tags=["players"],
        summary="Your attempts",
        description="Newest first, ranked and practice. Creates no player (no cookie: empty).",
        responses=_responses(
            {200: AttemptSummarySerializer(many=True)}, {404: "`not_found`: no page."}
        ),
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().get(request, *args, **kwargs)


# -- accounts --------------------------------------------------------------------------------


class RegisterView(ApiView):
    throttle_scope = "accounts"

    @extend_schema(
        operation_id="account_register",
        tags=["accounts"],
        summary="Create an account",
        description=(
            "Creates the account, logs in (session cookie) and links this browser's player to "
            "it, so its attempts and streaks follow the account to other devices."
        ),
        request=RegisterInputSerializer,
        responses=_responses(
            {201: PlayerSerializer},
            {
                400: "`invalid`: a username or password that does not fit.",
                403: E403_CSRF,
                409: "`username_taken`.",
            },
            limited=True,
        ),
    )
    def post(self, request: Request) -> Response:
        data = RegisterInputSerializer.parse(request.data)
        user = services.account_create(username=data["username"], password=data["password"])
        player = identity.sign_in(request, user)
        return Response(PlayerSerializer(_me(player)).data, status=status.HTTP_201_CREATED)


class LoginView(ApiView):
    throttle_scope = "accounts"

    @extend_schema(
        operation_id="account_login",
        tags=["accounts"],
        summary="Log in",
        description=(
            "Logs in (session cookie, and a new csrftoken cookie) and switches the player cookie "
            "to the account's player; this browser's guest attempts move to it where they do "
            "not clash."
        ),
        request=LoginInputSerializer,
        responses=_responses(
            {200: PlayerSerializer},
            {400: "`invalid`, or `bad_credentials`.", 403: E403_CSRF},
            limited=True,
        ),
    )
    def post(self, request: Request) -> Response:
        data = LoginInputSerializer.parse(request.data)
        user = authenticate(request._request, username=data["username"], password=data["password"])
        if user is None:
            raise ServiceError("Wrong username or password.", code="bad_credentials")
        player = identity.sign_in(request, user)
        return Response(PlayerSerializer(_me(player)).data)


class LogoutView(ApiView):
    @extend_schema(
        operation_id="account_logout",
        tags=["accounts"],
        summary="Log out",
        description=(
            "Ends the session and forgets the player cookie: the next request is a new guest. "
            "Without a session (a guest), does nothing: the cookie is all that remembers them."
        ),
        request=None,
        responses=_responses({204: None}, {403: E403_CSRF}),
    )
    def post(self, request: Request) -> Response:
        identity.sign_out(request)
        return Response(status=status.HTTP_204_NO_CONTENT)


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
