"""The games REST API (docs/api.md). Views are thin: they parse the input with
a serializer, call one service or selector and render the answer.

The player is known by a cookie token (games/api/identity.py); errors are JSON with a stable
code (games/api/errors.py); starts, moves and the like are throttled per player, IP address
and network (games/api/throttles.py); bodies are small (games/api/parsers.py).
The base view, `ApiView`, is games/api/base.py's.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import authenticate
from django.db.models import QuerySet
from rest_framework import generics, status
from rest_framework.pagination import PageNumberPagination
from rest_framework.request import Request
from rest_framework.response import Response

from games import selectors, services
from games.api import identity, openapi
from games.api.base import ApiView, int_query, my_player, parse_date, started_response
from games.api.serializers import (
    AttemptSummarySerializer,
    DailySerializer,
    FinishInputSerializer,
    HintSerializer,
    LoginInputSerializer,
    MoveInputSerializer,
    PlayerCreateSerializer,
    PlayerSerializer,
    PlayerUpdateSerializer,
    PracticeInputSerializer,
    RegisterInputSerializer,
    render_state,
)
from games.engine.deals import random_seed
from games.errors import Unauthorized
from games.models import Attempt, Player
from games.state import attempt_state


def _daily(summary: dict[str, Any]) -> dict[str, Any]:
    """A daily as the API shows it, from its summary (`selectors.daily_summaries`)."""
    daily = {key: value for key, value in summary.items() if key != "attempt"}
    attempt = summary["attempt"]
    daily["your_attempt"] = (
        None
        if attempt is None
        else {"id": attempt.pk, "status": attempt.status, "ranked": attempt.ranked}
    )
    return daily


# -- dailies ---------------------------------------------------------------------------------


class DailyListView(ApiView):
    @openapi.DAILY_LIST_GET
    def get(self, request: Request) -> Response:
        summaries = selectors.daily_summaries(
            dailies=selectors.dailies_today(), player=identity.current_player(request)
        )
        return Response(DailySerializer([_daily(s) for s in summaries], many=True).data)


class DailyDetailView(ApiView):
    @openapi.DAILY_DETAIL_GET
    def get(self, request: Request, game: str, date: str) -> Response:
        daily = selectors.daily_get(game=game, date=parse_date(date))
        summary = selectors.daily_summary(daily=daily, player=identity.current_player(request))
        return Response(DailySerializer(_daily(summary)).data)


class DailyAttemptsView(ApiView):
    throttle_scope = "starts"
    creates_guest = True

    @openapi.DAILY_ATTEMPTS_POST
    def post(self, request: Request, game: str, date: str) -> Response:
        daily = selectors.daily_get(game=game, date=parse_date(date))
        player = identity.current_player(request, create=True)
        attempt, created = services.attempt_start(
            player=player,
            daily=daily,
            device=identity.device_of(request),
            address=identity.client_address(request),
        )
        return started_response(attempt, created)


class PracticeView(ApiView):
    throttle_scope = "starts"
    creates_guest = True

    @openapi.PRACTICE_POST
    def post(self, request: Request) -> Response:
        data = PracticeInputSerializer.parse(request.data)
        seed = data.get("seed")
        if seed is None:
            seed = random_seed()
        player = identity.current_player(request, create=True)
        attempt, created = services.attempt_start_practice(
            player=player, game=data["game"], seed=seed
        )
        return started_response(attempt, created)


# -- attempts --------------------------------------------------------------------------------


class AttemptDetailView(ApiView):
    @openapi.ATTEMPT_DETAIL_GET
    def get(self, request: Request, attempt_id: int) -> Response:
        attempt = selectors.attempt_get(
            attempt_id=attempt_id, player=identity.player_or_nobody(request)
        )
        return Response(render_state(attempt_state(attempt)))


class MoveView(ApiView):
    throttle_scope = "moves"

    @openapi.MOVE_POST
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

    @openapi.FINISH_POST
    def post(self, request: Request, attempt_id: int) -> Response:
        data = FinishInputSerializer.parse(request.data)
        state = services.attempt_finish(
            attempt_id=attempt_id, player=identity.player_or_nobody(request), seq=data["seq"]
        )
        return Response(render_state(state))


class ResignView(ApiView):
    throttle_scope = "moves"

    @openapi.RESIGN_POST
    def post(self, request: Request, attempt_id: int) -> Response:
        state = services.attempt_resign(
            attempt_id=attempt_id, player=identity.player_or_nobody(request)
        )
        return Response(render_state(state))


class HintView(ApiView):
    throttle_scope = "hints"

    @openapi.HINT_POST
    def post(self, request: Request, attempt_id: int) -> Response:
        answer = services.attempt_hint(
            attempt_id=attempt_id, player=identity.player_or_nobody(request)
        )
        return Response(HintSerializer(answer.to_json()).data)


class AnalysisView(ApiView):
    """The move-by-move analysis of the player's own finished game: POST asks for it (once:
    then it is kept), GET reads how it stands."""

    throttle_scope = "analyses"

    def _answer(self, request: Request, attempt_id: int, *, ask: bool) -> Response:
        analysis = services.attempt_analysis(
            attempt_id=attempt_id, player=identity.player_or_nobody(request), ask=ask
        )
        if analysis is None:
            return Response({"status": "none"})
        answer = selectors.analysis_answer(analysis=analysis)
        pending = answer["status"] in ("queued", "running")
        return Response(answer, status=202 if pending else 200)

    @openapi.ANALYSIS_GET
    def get(self, request: Request, attempt_id: int) -> Response:
        return self._answer(request, attempt_id, ask=False)

    @openapi.ANALYSIS_POST
    def post(self, request: Request, attempt_id: int) -> Response:
        return self._answer(request, attempt_id, ask=True)


class ContinueView(ApiView):
    throttle_scope = "starts"

    @openapi.CONTINUE_POST
    def post(self, request: Request, attempt_id: int) -> Response:
        practice, created = services.attempt_continue_as_practice(
            attempt_id=attempt_id, player=identity.player_or_nobody(request)
        )
        return started_response(practice, created)


# -- players ---------------------------------------------------------------------------------

RECENT_ATTEMPTS = 5


def _me(player: Player, *, new: bool = False) -> dict[str, Any]:
    """The player as the API shows them. `new`: made by this request, they have played
    nothing yet (nothing to count or list)."""
    return {
        "display_name": player.display_name,
        "username": player.user.get_username() if player.user_id else None,
        "stats": selectors.NO_STATS if new else selectors.player_stats(player=player),
        "recent_attempts": (
            [] if new else list(selectors.player_attempts(player=player)[:RECENT_ATTEMPTS])
        ),
    }


class PlayersView(ApiView):
    throttle_scope = "guests"

    @openapi.PLAYERS_POST
    def post(self, request: Request) -> Response:
        data = PlayerCreateSerializer.parse(request.data)
        existing = identity.current_player(request)
        if existing is not None:
            return Response(PlayerSerializer(_me(existing)).data)
        player = identity.current_player(
            request, create=True, display_name=data.get("display_name")
        )
        return Response(
            PlayerSerializer(_me(player, new=True)).data, status=status.HTTP_201_CREATED
        )


class MeView(ApiView):
    throttle_scope = "renames"
    creates_guest = True

    def get_throttles(self) -> list[Any]:
        return super().get_throttles() if self.request.method == "PATCH" else []

    @openapi.ME_GET
    def get(self, request: Request) -> Response:
        player = my_player(request)
        return Response(PlayerSerializer(_me(player)).data)

    @openapi.ME_PATCH
    def patch(self, request: Request) -> Response:
        data = PlayerUpdateSerializer.parse(request.data)
        player = identity.current_player(request, create=True)
        player = services.player_rename(player=player, display_name=data["display_name"])
        return Response(PlayerSerializer(_me(player)).data)


class AttemptPagination(PageNumberPagination):
    """Pages of 20 by default; `page_size` is 1 to 100, anything else (empty, `null`, 0, 101)
    is 400 `invalid`, as the schema's minimum and maximum say (DRF would fall back to the
    default without a word). A page past the end, or not a number, is 404."""

    page_size = 20
    page_size_query_param = "page_size"
    max_page_size = 100

    def get_page_size(self, request: Any) -> int:
        return int_query(
            request.query_params,
            self.page_size_query_param,
            default=self.page_size,
            low=1,
            high=self.max_page_size,
        )

    def get_schema_operation_parameters(self, view: Any) -> list[dict[str, Any]]:
        parameters = super().get_schema_operation_parameters(view)
        for parameter in parameters:
            if parameter["name"] == self.page_query_param:
                parameter["schema"]["minimum"] = 1
            elif parameter["name"] == self.page_size_query_param:
                parameter["schema"].update(minimum=1, maximum=self.max_page_size)
                parameter["description"] = f"Attempts per page, 1 to {self.max_page_size} (20)."
        return parameters


class MyAttemptsView(identity.PlayerCookieMixin, generics.ListAPIView):
    serializer_class = AttemptSummarySerializer
    pagination_class = AttemptPagination

    def get_queryset(self) -> QuerySet[Attempt]:
        player = identity.current_player(self.request)
        if player is None:
            return Attempt.objects.none()
        return selectors.player_attempts(player=player)

    @openapi.MY_ATTEMPTS_GET
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().get(request, *args, **kwargs)


# -- accounts --------------------------------------------------------------------------------


class RegisterView(ApiView):
    throttle_scope = "accounts"

    @openapi.REGISTER_POST
    def post(self, request: Request) -> Response:
        data = RegisterInputSerializer.parse(request.data)
        user = services.account_create(username=data["username"], password=data["password"])
        player = identity.sign_in(request, user)
        return Response(PlayerSerializer(_me(player)).data, status=status.HTTP_201_CREATED)


class LoginView(ApiView):
    throttle_scope = "accounts"

    @openapi.LOGIN_POST
    def post(self, request: Request) -> Response:
        data = LoginInputSerializer.parse(request.data)
        user = authenticate(request._request, username=data["username"], password=data["password"])
        if user is None:
            raise Unauthorized("Wrong username or password.", code="bad_credentials")
        player = identity.sign_in(request, user)
        return Response(PlayerSerializer(_me(player)).data)


class LogoutView(ApiView):
    @openapi.LOGOUT_POST
    def post(self, request: Request) -> Response:
        identity.sign_out(request)
        return Response(status=status.HTTP_204_NO_CONTENT)
