"""The races REST API (docs/api.md, "Races"), mounted under /api/races/: thin views over
`races.services` and `races.selectors`, the games API's identity, errors and throttles."""

from __future__ import annotations

from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from games.api import identity
from games.api.base import (
    E400,
    E403_CSRF,
    E413,
    E429,
    ApiView,
    error_response,
    started_response,
)
from games.api.serializers import (
    AttemptStateSerializer,
    StrictSerializer,
)
from games.models import GameName
from races import selectors, services
from races.models import RACER_STATUSES, RACERS_MAX, RACERS_MIN, Race

# -- bodies and answers ------------------------------------------------------------------------


class RaceMakeSerializer(StrictSerializer):
    game = serializers.ChoiceField(choices=GameName.choices)
    date = serializers.DateField(
        required=False,
        help_text="A past daily's date: race its deal. Left out (and no `attempt`): a fresh "
        "certified deal.",
    )
    attempt = serializers.IntegerField(
        required=False,
        min_value=1,
        help_text="One of your games: race its deal (a past daily's, or a certified deal "
        "played in practice; see `race_offer`). Not with `date`.",
    )
    capacity = serializers.IntegerField(
        min_value=RACERS_MIN,
        max_value=RACERS_MAX,
        required=False,
        help_text=f"Places, the maker's included ({RACERS_MIN} to {RACERS_MAX}; default "
        f"{RACERS_MAX}).",
    )


class ReadySerializer(StrictSerializer):
    ready = serializers.BooleanField(help_text="true: ready; false: not yet.")


class FoundationSerializer(serializers.Serializer):
    suit = serializers.CharField()
    top = serializers.CharField(allow_null=True, help_text="The top card; null when empty.")
    count = serializers.IntegerField()


class RacerSerializer(serializers.Serializer):
    id = serializers.IntegerField(help_text="The racer, as the race socket's progress names them.")
    version = serializers.IntegerField(
        help_text="The racer's own version: one more with each write of their progress (the "
        "race socket's progress messages carry it; the higher one is the newer)."
    )
    name = serializers.CharField()
    maker = serializers.BooleanField()
    host = serializers.BooleanField(help_text="May start the race (the maker, while present).")
    ready = serializers.BooleanField()
    gone = serializers.BooleanField(help_text="Left the race; may come back.")
    status = serializers.ChoiceField(choices=RACER_STATUSES)
    moves = serializers.IntegerField()
    foundation_cards = serializers.IntegerField()
    foundations = FoundationSerializer(many=True)
    seconds = serializers.FloatField(help_text="Play time so far (to the last move).")


class ResultSerializer(serializers.Serializer):
    id = serializers.IntegerField(help_text="The racer (as in `racers`).")
    rank = serializers.IntegerField(
        allow_null=True,
        help_text="The place among the results that stand (ties share one); null for a held "
        "result.",
    )
    held = serializers.BooleanField(
        help_text="Held by the fair-play checks: under review, listed in its place in the "
        "order, ranking nobody."
    )
    name = serializers.CharField()
    won = serializers.BooleanField()
    moves = serializers.IntegerField()
    seconds = serializers.IntegerField()
    foundation_cards = serializers.IntegerField()


class YouSerializer(serializers.Serializer):
    in_race = serializers.BooleanField()
    name = serializers.CharField(allow_null=True)
    named = serializers.BooleanField(
        help_text="Your name is one you chose, not a generated guest name (`Guest 123456`)."
    )
    gone = serializers.BooleanField()
    ready = serializers.BooleanField()
    host = serializers.BooleanField()
    attempt_id = serializers.IntegerField(allow_null=True)
    replays = serializers.BooleanField(
        help_text="The racers' replays are shown to you (`race_replays`): the race is over, "
        "or your own game is."
    )


class RaceSerializer(serializers.Serializer):
    code = serializers.CharField()
    version = serializers.IntegerField(
        help_text="The version of the race's changes (a racer's moves are not changes of the "
        "race: each racer has a version of their own)."
    )
    game = serializers.ChoiceField(choices=GameName.choices)
    status = serializers.ChoiceField(choices=Race.Status.choices)
    capacity = serializers.IntegerField()
    daily = serializers.DateField(allow_null=True, help_text="The past daily raced, if any.")
    created_at = serializers.DateTimeField()
    expires_at = serializers.DateTimeField()
    starts_at = serializers.DateTimeField(allow_null=True, help_text="The countdown's end.")
    finished_at = serializers.DateTimeField(allow_null=True)
    racers = RacerSerializer(many=True)
    results = ResultSerializer(many=True, help_text="Finished results in the boards' order.")
    par = serializers.IntegerField(
        allow_null=True, help_text="The deal's par (the fewest moves known), once the race is over."
    )
    rematch = serializers.CharField(allow_null=True, help_text="The rematch's code, once made.")
    you = YouSerializer()
    now = serializers.DateTimeField(help_text="The server's clock (for the countdown).")


class OfferSerializer(serializers.Serializer):
    raceable = serializers.BooleanField(help_text="A race may use this game's deal now.")
    reason = serializers.ChoiceField(
        choices=["daily_running", "not_certified"],
        allow_null=True,
        help_text="Why not: a daily still played for the boards, or a deal not proven winnable.",
    )


class ReplayStepSerializer(serializers.Serializer):
    move = serializers.CharField(help_text="The move token (U: an undo).")
    card = serializers.CharField(
        allow_null=True, help_text="The face-up card that led what moved (null: a draw, an undo)."
    )
    count = serializers.IntegerField(help_text="How many cards moved.")
    view = serializers.DictField(help_text="The position after the move, as the racer saw it.")


class ReplaySerializer(serializers.Serializer):
    name = serializers.CharField()
    status = serializers.ChoiceField(choices=["won", "resigned"])
    moves = serializers.IntegerField()
    start = serializers.DictField(help_text="The deal as the racers first saw it.")
    steps = ReplayStepSerializer(many=True)


# -- the schema --------------------------------------------------------------------------------


CODE = OpenApiParameter(
    "code", OpenApiTypes.STR, OpenApiParameter.PATH, description="The race's code."
)
E404 = error_response("`race_not_found`.")
E403_RACER = error_response("`not_in_race` (join first), or `csrf_failed`.")
E410 = error_response("`race_expired`: the link lived a week.")


def _race_op(
    operation_id: str,
    summary: str,
    description: str,
    errors: dict[int, Any],
    *,
    request: Any = None,
    ok: dict[int, Any] | None = None,
) -> Any:
    return extend_schema(
        operation_id=operation_id,
        tags=["races"],
        summary=summary,
        description=description,
        parameters=[CODE],
        request=request,
        responses={
            **(ok or {200: RaceSerializer}),
            **dict(sorted({**errors, 404: E404, 413: E413, 429: E429}.items())),
        },
    )


# -- views -------------------------------------------------------------------------------------


def _race(request: Request, race: Race, created: bool = False) -> Response:
    view = selectors.race_for(race=race, player=identity.current_player(request))
    return Response(
        RaceSerializer(view).data, status=status.HTTP_201_CREATED if created else status.HTTP_200_OK
    )


class RacesView(ApiView):
    throttle_scope = "starts"
    creates_guest = True

    @extend_schema(
        operation_id="race_make",
        tags=["races"],
        summary="Challenge friends: make a race",
        description=(
            "A race on a past daily's deal (`date`; never a daily whose ranked play still "
            "runs: 409 `daily_running`), on the deal of one of your games (`attempt`: a past "
            "daily's, or a certified deal played in practice, else 409 `daily_running` or "
            "`not_certified`) or on a fresh certified deal (the races' own supply, else a past "
            "daily's; never a spare kept for the dailies), for 2 to 8 players. "
            "Share `/challenge/<code>/`; the link lets people in for 7 days. You are its first "
            "racer. A guest is made for a request without a player."
        ),
        request=RaceMakeSerializer,
        responses={
            201: RaceSerializer,
            400: error_response("`invalid`, `bad_date`."),
            403: E403_CSRF,
            404: error_response("`unknown_game`, `daily_not_found`, `attempt_not_found`."),
            409: error_response(
                "`daily_running`, `not_certified`, or `no_deal` (no deal to race on yet: try "
                "again shortly)."
            ),
            413: E413,
            429: E429,
        },
    )
    def post(self, request: Request) -> Response:
        data = RaceMakeSerializer.parse(request.data)
        player = identity.current_player(request, create=True)
        race = services.race_make(
            player=player,
            game=data["game"],
            date=data.get("date"),
            attempt_id=data.get("attempt"),
            capacity=data.get("capacity", RACERS_MAX),
        )
        return _race(request, race, created=True)


class RaceOfferView(ApiView):
    @extend_schema(
        operation_id="race_offer",
        tags=["races"],
        summary="May friends race the deal of one of your games?",
        description=(
            "What the end of a game offers: `raceable` when a race may use the deal of this "
            "game of yours (a past daily's once its ranked play is over, or a certified deal "
            "played in practice), else `reason`. Make the race with `race_make` (`attempt`)."
        ),
        parameters=[
            OpenApiParameter(
                "attempt_id", OpenApiTypes.INT, OpenApiParameter.PATH, description="Your game."
            )
        ],
        responses={200: OfferSerializer, 404: error_response("`attempt_not_found`."), 429: E429},
    )
    def get(self, request: Request, attempt_id: int) -> Response:
        offer = selectors.attempt_race_offer(
            attempt_id=attempt_id, player=identity.player_or_nobody(request)
        )
        return Response(OfferSerializer(offer).data)


class RaceView(ApiView):
    throttle_scope = "races"

    @_race_op(
        "race_get",
        "A race",
        "The lobby, each racer's progress and the results; `you` says what you are in it.",
        {},
    )
    def get(self, request: Request, code: str) -> Response:
        return _race(request, selectors.race_get(code=code))


class RaceJoinView(ApiView):
    throttle_scope = "starts"
    creates_guest = True

    @_race_op(
        "race_join",
        "Join a race (or come back to it)",
        "201 when you joined now, 200 when you were in it (a racer who left comes back). "
        "A guest is made for a request without a player.",
        {
            403: E403_CSRF,
            409: error_response("`race_full`, or `race_started` (a newcomer after the start)."),
            410: E410,
        },
        ok={201: RaceSerializer, 200: RaceSerializer},
    )
    def post(self, request: Request, code: str) -> Response:
        player = identity.current_player(request, create=True)
        race, joined = services.race_join(code=code, player=player)
        return _race(request, race, created=joined)


class RaceLeaveView(ApiView):
    throttle_scope = "moves"

    @_race_op(
        "race_leave",
        "Leave a race",
        "You are shown as gone and may come back (join again); the race goes on.",
        {403: E403_RACER},
    )
    def post(self, request: Request, code: str) -> Response:
        race = services.race_leave(code=code, player=identity.player_or_nobody(request))
        return _race(request, race)


class RaceReadyView(ApiView):
    throttle_scope = "moves"

    @_race_op(
        "race_ready",
        "Say you are ready (or not)",
        "The race starts when every racer present (two at least) is ready.",
        {
            400: E400,
            403: E403_RACER,
            409: error_response("`race_started`, or `racer_gone` (join again first)."),
            410: E410,
        },
        request=ReadySerializer,
    )
    def post(self, request: Request, code: str) -> Response:
        data = ReadySerializer.parse(request.data)
        race = services.race_ready(
            code=code, player=identity.player_or_nobody(request), ready=data["ready"]
        )
        return _race(request, race)


class RaceStartView(ApiView):
    throttle_scope = "moves"

    @_race_op(
        "race_start",
        "Start the race",
        "The host (the maker, or the first racer present when the maker left) starts the "
        "countdown (`starts_at`).",
        {
            403: error_response("`not_in_race`, `not_host`, or `csrf_failed`."),
            409: error_response("`race_started`, or `too_few_racers`."),
            410: E410,
        },
    )
    def post(self, request: Request, code: str) -> Response:
        race = services.race_start(code=code, player=identity.player_or_nobody(request))
        return _race(request, race)


class RaceAttemptView(ApiView):
    throttle_scope = "starts"

    @_race_op(
        "race_attempt",
        "Your attempt at the race's deal",
        "After the countdown: your own attempt at the deal (made at the first ask, resumed "
        "after), played like any other (the play socket or the moves endpoint). Never ranked "
        "on a daily's board.",
        {
            403: E403_RACER,
            409: error_response(
                "`race_not_started`, `countdown` (`starts_in` says how many seconds are "
                "left), or `race_over` (for a racer who never played)."
            ),
        },
        ok={
            201: OpenApiResponse(AttemptStateSerializer, description="Your new attempt."),
            200: OpenApiResponse(AttemptStateSerializer, description="Your attempt, resumed."),
        },
    )
    def post(self, request: Request, code: str) -> Response:
        attempt, created = services.race_attempt(
            code=code, player=identity.player_or_nobody(request)
        )
        return started_response(attempt, created)


class RaceRematchView(ApiView):
    throttle_scope = "starts"

    @_race_op(
        "race_rematch",
        "Rematch: the same people, a new deal",
        "A new race with the same racers on a new deal, once this one has started; the first "
        "to ask makes it (201), the others get the same one (200).",
        {
            403: E403_RACER,
            409: error_response("`race_not_started`, or `no_deal`."),
        },
        ok={201: RaceSerializer, 200: RaceSerializer},
    )
    def post(self, request: Request, code: str) -> Response:
        race, created = services.race_rematch(code=code, player=identity.player_or_nobody(request))
        return _race(request, race, created=created)


class RaceReplaysView(ApiView):
    throttle_scope = "races"

    @_race_op(
        "race_replays",
        "The racers' games, to replay",
        "Each finished racer's game, step by step: the position after each move as the racer "
        "saw it (never a card they had not turned up, nor the deal): once the race is over, or "
        "once your own game is finished (`you.replays`).",
        {
            403: error_response("`race_not_over`: you are not in the race and it is not over."),
            409: error_response("`race_not_over`: finish your own game first."),
        },
        ok={200: ReplaySerializer(many=True)},
    )
    def get(self, request: Request, code: str) -> Response:
        race = selectors.race_get(code=code)
        replays = selectors.race_replays(race=race, player=identity.current_player(request))
        return Response(ReplaySerializer(replays, many=True).data)


def one_deal_source(result: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """A postprocessing hook (settings' SPECTACULAR_SETTINGS): a race's body names its deal by
    `date` or by `attempt`, never both (the server answers both with 400 `invalid`), and its
    schema says so."""
    schema = result.get("components", {}).get("schemas", {}).get("RaceMake")
    if schema is not None:
        schema["not"] = {"required": ["date", "attempt"]}
    return result
