"""The leagues' and seasons' REST API (docs/api.md, "Leagues and seasons"), mounted under /api/:
thin views over `leagues.services` and `leagues.selectors`, the games API's identity, base view,
errors and throttles."""

from __future__ import annotations

from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from games import clock
from games.api import identity
from games.api.base import (
    E400,
    E400_DATE,
    E403_CSRF,
    E413,
    E429,
    ApiView,
    choice_query,
    error_response,
    int_query,
    my_player,
    parse_date,
)
from games.api.serializers import StrictCharField, StrictSerializer
from games.models import GameName
from leagues import selectors, services
from leagues.models import League

# -- bodies and answers ------------------------------------------------------------------------


class LeagueNameSerializer(StrictSerializer):
    # The length as sent (400 `invalid`, as the schema says); the rest of the rules, the length
    # once spaces are collapsed included, are the service's (400 `bad_league_name`).
    name = StrictCharField(
        min_length=services.NAME_MIN,
        max_length=services.NAME_MAX,
        help_text=f"{services.NAME_MIN} to {services.NAME_MAX} characters, a letter or digit "
        "among them.",
    )


class LeagueSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    owner = serializers.CharField(source="owner.display_name")
    members = serializers.IntegerField(help_text="How many are in it.")
    invite_code = serializers.CharField(
        help_text="Its invite: /leagues/join/<code>/ (members only)."
    )


class StandingSerializer(serializers.Serializer):
    rank = serializers.IntegerField(help_text="Equal points share a rank.")
    player = serializers.CharField()
    player_id = serializers.IntegerField()
    points = serializers.IntegerField()
    days = serializers.IntegerField(help_text="Dailies that scored (a game's daily each).")
    wins = serializers.IntegerField()


class SeasonSerializer(serializers.Serializer):
    period = serializers.ChoiceField(choices=selectors.PERIODS)
    season = serializers.CharField(help_text="`2026-W50` or `2026-12`.")
    first = serializers.DateField()
    last = serializers.DateField()
    closed = serializers.BooleanField(help_text="Its last day is past.")
    game = serializers.ChoiceField(choices=GameName.choices, allow_null=True)
    rows = StandingSerializer(many=True)


def _league(league: League, members: int | None = None) -> dict[str, Any]:
    return {
        "id": league.pk,
        "name": league.name,
        "owner": league.owner.display_name,
        "members": getattr(league, "members", members),
        "invite_code": league.invite_code,
    }


E404_LEAGUE = error_response(
    "`league_not_found`: no such league, or not one of yours (the same answer), or a retired "
    "invite."
)
E403_OWNER = error_response("`not_league_owner`, or `csrf_failed`.")


def _op(
    operation_id: str, summary: str, description: str, responses: dict[int, Any], **more: Any
) -> Any:
    return extend_schema(
        operation_id=operation_id,
        tags=["leagues"],
        summary=summary,
        description=description,
        responses=responses,
        **more,
    )


# -- leagues ---------------------------------------------------------------------------------


class LeaguesView(ApiView):
    throttle_scope = "leagues"

    @_op(
        "leagues_mine",
        "Your leagues",
        "Every league you are in, by name.",
        {200: LeagueSerializer(many=True)},
    )
    def get(self, request: Request) -> Response:
        player = identity.current_player(request)
        if player is None:
            return Response([])
        return Response([_league(league) for league in selectors.leagues_of(player=player)])

    @_op(
        "league_make",
        "Make a league",
        "You own it and are its first member; share its invite. A guest is made for a request "
        "without a player. Limits: the leagues a player may be in, leagues made from one "
        "address a day (docs/leagues.md).",
        {
            201: LeagueSerializer,
            400: E400,
            403: E403_CSRF,
            409: error_response("`leagues_full`, `league_creations_address`."),
            413: E413,
            429: E429,
        },
        request=LeagueNameSerializer,
    )
    def post(self, request: Request) -> Response:
        data = LeagueNameSerializer.parse(request.data)
        player = identity.current_player(request, create=True)
        league = services.league_create(
            player=player, name=data["name"], address=identity.client_address(request)
        )
        return Response(_league(league, members=1), status=201)


LEAGUE_ID = OpenApiParameter("league_id", OpenApiTypes.INT, OpenApiParameter.PATH)


class LeagueView(ApiView):
    throttle_scope = "leagues"

    @_op(
        "league",
        "A league's page",
        "For its members: the league, its members, today's results of both games (held "
        "results are silent, as on the boards), and this week's, this month's and all time's "
        "standings by the points rule (docs/leagues.md).",
        {200: OpenApiTypes.OBJECT, 404: E404_LEAGUE},
        parameters=[LEAGUE_ID],
    )
    def get(self, request: Request, league_id: int) -> Response:
        player = identity.player_or_nobody(request)
        league = selectors.league_for(league_id=league_id, player=player)
        return Response(selectors.league_page(league=league, player=player))

    @_op(
        "league_rename",
        "Rename a league (its owner)",
        "",
        {200: LeagueSerializer, 400: E400, 403: E403_OWNER, 404: E404_LEAGUE, 429: E429},
        parameters=[LEAGUE_ID],
        request=LeagueNameSerializer,
    )
    def patch(self, request: Request, league_id: int) -> Response:
        data = LeagueNameSerializer.parse(request.data)
        league = services.league_rename(
            league_id=league_id, player=identity.player_or_nobody(request), name=data["name"]
        )
        return Response(_league(league, members=league.memberships.count()))


class LeagueInviteView(ApiView):
    throttle_scope = "leagues"

    @_op(
        "league_new_invite",
        "A new invite (its owner)",
        "The old invite stops working at once.",
        {200: LeagueSerializer, 403: E403_OWNER, 404: E404_LEAGUE, 429: E429},
        parameters=[LEAGUE_ID],
        request=None,
    )
    def post(self, request: Request, league_id: int) -> Response:
        league = services.league_new_invite(
            league_id=league_id, player=identity.player_or_nobody(request)
        )
        return Response(_league(league, members=league.memberships.count()))


class LeagueMemberView(ApiView):
    throttle_scope = "leagues"

    @_op(
        "league_remove_member",
        "Remove a member (its owner)",
        "",
        {
            204: None,
            403: E403_OWNER,
            404: error_response("`league_not_found`, `member_not_found`."),
            409: error_response("`owner_remove`: the owner leaves instead."),
            429: E429,
        },
        parameters=[
            LEAGUE_ID,
            OpenApiParameter("player_id", OpenApiTypes.INT, OpenApiParameter.PATH),
        ],
    )
    def delete(self, request: Request, league_id: int, player_id: int) -> Response:
        services.league_remove_member(
            league_id=league_id, player=identity.player_or_nobody(request), member_id=player_id
        )
        return Response(status=204)


class LeagueLeaveView(ApiView):
    throttle_scope = "leagues"

    @_op(
        "league_leave",
        "Leave a league",
        "An owner who leaves hands it to the member who joined first after them; the last "
        "member to leave ends it.",
        {204: None, 403: E403_CSRF, 404: E404_LEAGUE, 429: E429},
        parameters=[LEAGUE_ID],
        request=None,
    )
    def post(self, request: Request, league_id: int) -> Response:
        services.league_leave(league_id=league_id, player=identity.player_or_nobody(request))
        return Response(status=204)


CODE = OpenApiParameter("code", OpenApiTypes.STR, OpenApiParameter.PATH)


class LeagueJoinView(ApiView):
    throttle_scope = "leagues"
    creates_guest = True

    @_op(
        "league_invite",
        "What an invite leads to",
        "The league's name, owner and members, before joining.",
        {200: LeagueSerializer, 404: E404_LEAGUE},
        parameters=[CODE],
    )
    def get(self, request: Request, code: str) -> Response:
        league = selectors.league_by_code(code=code)
        return Response({**_league(league), "invite_code": None})

    @_op(
        "league_join",
        "Join a league by its invite",
        "201 when you joined now, 200 when you were in it. A guest is made for a request "
        "without a player (the page asks a new guest for a name first).",
        {
            201: LeagueSerializer,
            200: LeagueSerializer,
            403: E403_CSRF,
            404: E404_LEAGUE,
            409: error_response("`league_full`, `leagues_full`."),
            429: E429,
        },
        parameters=[CODE],
        request=None,
    )
    def post(self, request: Request, code: str) -> Response:
        player = identity.current_player(request, create=True)
        league, joined = services.league_join(code=code, player=player)
        return Response(
            _league(league, members=league.memberships.count()), status=201 if joined else 200
        )


# -- seasons ---------------------------------------------------------------------------------


class SeasonView(ApiView):
    throttle_scope = "leagues"

    @_op(
        "season",
        "A season's standings of everyone",
        "The week (Monday to Sunday) or month of the server's UTC days that holds `date` "
        "(today by default): points of the days closed so far, most first (docs/leagues.md). "
        "Past seasons stay readable.",
        {200: SeasonSerializer, 400: E400_DATE, 404: error_response("`unknown_period`.")},
        parameters=[
            OpenApiParameter(
                "period", OpenApiTypes.STR, OpenApiParameter.PATH, enum=selectors.PERIODS
            ),
            OpenApiParameter("date", OpenApiTypes.DATE, description="A day of the season."),
            OpenApiParameter("game", OpenApiTypes.STR, enum=[g for g, _ in GameName.choices]),
            OpenApiParameter(
                "limit",
                {"type": "integer", "minimum": 1, "maximum": 200},
                description="Default 50.",
            ),
        ],
    )
    def get(self, request: Request, period: str) -> Response:
        if period not in selectors.PERIODS:
            return Response(
                {"code": "unknown_period", "detail": "A season is a week or a month."}, status=404
            )
        date = request.query_params.get("date")
        day = parse_date(date) if date is not None else clock.today()
        game = choice_query(request.query_params, "game", [g for g, _ in GameName.choices])
        limit = int_query(request.query_params, "limit", default=50, low=1, high=200)
        return Response(selectors.season_standings(period=period, day=day, game=game, limit=limit))


class TodayPointsSerializer(serializers.Serializer):
    game = serializers.ChoiceField(choices=GameName.choices)
    date = serializers.DateField()
    status = serializers.ChoiceField(
        choices=["not_played", "playing", "won", "resigned", "held", "disqualified"],
        help_text="Your ranked result today; `held` counts once approved.",
    )
    rank = serializers.IntegerField(allow_null=True, help_text="On the day's board now.")
    players = serializers.IntegerField(allow_null=True, help_text="On the day's board now.")
    points = serializers.IntegerField(
        allow_null=True, help_text="What the result gives if its rank holds until the close."
    )


class LeagueWeekSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    members = serializers.IntegerField()
    rank = serializers.IntegerField(help_text="Among its members, on the closed days.")
    rank_with_today = serializers.IntegerField(
        help_text="With today's points, against the others' closed days."
    )


class WeekOutlookSerializer(serializers.Serializer):
    season = serializers.CharField(help_text="`2026-W50`.")
    first = serializers.DateField()
    last = serializers.DateField()
    points = serializers.IntegerField(help_text="Your points from the week's closed days.")
    rank = serializers.IntegerField(allow_null=True, help_text="Among everyone (None: no points).")
    players = serializers.IntegerField(help_text="Players with points this week.")
    today = TodayPointsSerializer(many=True)
    points_with_today = serializers.IntegerField()
    rank_with_today = serializers.IntegerField(allow_null=True)
    leagues = LeagueWeekSerializer(many=True)


class MyWeekView(ApiView):
    @extend_schema(
        operation_id="player_me_week",
        tags=["players"],
        summary="What today does to your week",
        description=(
            "Your points of this week's closed days and where they rank, among everyone and "
            "in each of your leagues; today's ranked results with the points each gives if "
            "its rank on the day's board holds until the day closes; and the week with them. "
            "Others may still play today: a rank with today's points is against the others' "
            "closed days. Creates no player: without one, 404 `no_player`."
        ),
        responses={200: WeekOutlookSerializer, 404: error_response("`no_player`.")},
    )
    def get(self, request: Request) -> Response:
        player = my_player(request)
        return Response(WeekOutlookSerializer(selectors.week_outlook(player=player)).data)
