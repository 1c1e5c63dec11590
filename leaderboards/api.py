"""The leaderboards REST API (docs/leaderboards.md): boards, the day's histogram, the all-time
board and players' statistics. Thin views over `leaderboards.selectors`; errors are the games
API's JSON shape. Every endpoint is a read: none creates a player.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.request import Request
from rest_framework.response import Response

from games import names
from games import selectors as games_selectors
from games.api import identity
from games.api.base import (
    DATE,
    E404_DAILY,
    GAME,
    ApiView,
    choice_query,
    error_response,
    int_query,
    my_player,
    parse_date,
)
from games.errors import NotFound
from games.models import GameName, Player
from leaderboards import selectors
from leaderboards.serializers import (
    AllTimeSerializer,
    BoardSerializer,
    DistributionSerializer,
    StatsSerializer,
)

LIMIT_MAX = 100
OFFSET_MAX = 10**9
AROUND_RADIUS = 5


E400_QUERY = error_response("`invalid`: a query parameter out of range or unknown.")

LIMIT = OpenApiParameter(
    "limit",
    {"type": "integer", "minimum": 1, "maximum": LIMIT_MAX},
    description=f"Rows, 1 to {LIMIT_MAX} (default 50).",
)
OFFSET = OpenApiParameter(
    "offset",
    {"type": "integer", "minimum": 0, "maximum": OFFSET_MAX},
    description="Rows to skip (default 0).",
)
AROUND = OpenApiParameter(
    "around",
    OpenApiTypes.STR,
    enum=["me"],
    description=(
        f"`me`: your row with up to {AROUND_RADIUS} rows above and below, instead of a page "
        "(the top page when you have no row)."
    ),
)
GAME_QUERY = OpenApiParameter(
    "game", OpenApiTypes.STR, enum=GameName.values, description="One game; both when left out."
)


def _game_query(request: Request) -> str | None:
    return choice_query(request.query_params, "game", GameName.values)


def _mark(row: dict[str, Any], you: dict[str, Any] | None) -> dict[str, Any]:
    return {**row, "you": you is not None and row["attempt_id"] == you["attempt_id"]}


class BoardView(ApiView):
    @extend_schema(
        operation_id="leaderboard_get",
        tags=["leaderboards"],
        summary="A daily's board",
        description=(
            "Ranked attempts of the daily: wins first (fewer moves, then less time, then "
            "earlier finish), then unfinished attempts (more cards on the foundations, then "
            "fewer moves, then less time). Equal results share a rank (1, 2, 2, 4). `you` is "
            "your row. Today's or a past day's; a future one is 404. Creates no player."
        ),
        parameters=[GAME, DATE, LIMIT, OFFSET, AROUND],
        responses={
            200: BoardSerializer,
            400: error_response("`bad_date`, `invalid`."),
            404: E404_DAILY,
        },
    )
    def get(self, request: Request, game: str, date: str) -> Response:
        daily = games_selectors.daily_get(game=game, date=parse_date(date))
        limit = int_query(request.query_params, "limit", default=50, low=1, high=LIMIT_MAX)
        offset = int_query(request.query_params, "offset", default=0, low=0, high=OFFSET_MAX)
        around = choice_query(request.query_params, "around", ["me"])
        player = identity.current_player(request)
        you = selectors.player_row(daily=daily, player=player)
        if around == "me" and you is not None:
            rows = selectors.board_around(daily=daily, player=player, radius=AROUND_RADIUS)
        else:
            rows = selectors.board_page(daily=daily, limit=limit, offset=offset)
        body = {
            "game": daily.game,
            "date": daily.date,
            "total": selectors.board_total(daily=daily),
            "rows": [_mark(row, you) for row in rows],
            "you": {**you, "you": True} if you is not None else None,
        }
        return Response(BoardSerializer(body).data)


class DistributionView(ApiView):
    @extend_schema(
        operation_id="leaderboard_distribution",
        tags=["leaderboards"],
        summary="How the day's winners did",
        description=(
            "Move counts of the daily's verified ranked wins in buckets of ten, and the par "
            "once you finished your attempt or the day is over. Creates no player."
        ),
        parameters=[GAME, DATE],
        responses={
            200: DistributionSerializer,
            400: error_response("`bad_date`."),
            404: E404_DAILY,
        },
    )
    def get(self, request: Request, game: str, date: str) -> Response:
        daily = games_selectors.daily_get(game=game, date=parse_date(date))
        day = selectors.day_distribution(daily=daily, player=identity.current_player(request))
        body = {"game": daily.game, "date": daily.date, **day}
        return Response(DistributionSerializer(body).data)


class AllTimeView(ApiView):
    @extend_schema(
        operation_id="leaderboard_all_time",
        tags=["leaderboards"],
        summary="The all-time board",
        description=(
            "Players by verified ranked wins, then by average moves over par (over days that "
            "are over), with their current and best streaks. Creates no player."
        ),
        parameters=[GAME_QUERY, LIMIT],
        responses={200: AllTimeSerializer, 400: E400_QUERY},
    )
    def get(self, request: Request) -> Response:
        game = _game_query(request)
        limit = int_query(request.query_params, "limit", default=50, low=1, high=LIMIT_MAX)
        rows = selectors.all_time_board(game=game, limit=limit)
        return Response(AllTimeSerializer({"game": game, "rows": rows}).data)


def _stats(player: Player, request: Request) -> Response:
    game = _game_query(request)
    body = {"player": player.display_name, **selectors.player_stats(player=player, game=game)}
    return Response(StatsSerializer(body).data)


class MyStatsView(ApiView):
    @extend_schema(
        operation_id="player_me_stats",
        tags=["players"],
        summary="Your statistics",
        description=(
            "Ranked dailies played and won, win rate, streaks (consecutive UTC days with a "
            "win), average moves over par, moves of your wins, and wins per week. Creates no "
            "player: without one, 404 `no_player`."
        ),
        parameters=[GAME_QUERY],
        responses={200: StatsSerializer, 400: E400_QUERY, 404: error_response("`no_player`.")},
    )
    def get(self, request: Request) -> Response:
        player = my_player(request)
        return _stats(player, request)


class PlayerStatsView(ApiView):
    @extend_schema(
        operation_id="player_stats",
        tags=["players"],
        summary="A player's statistics",
        description="The same as your statistics, for the player of that display name.",
        parameters=[
            OpenApiParameter("display_name", OpenApiTypes.STR, OpenApiParameter.PATH),
            GAME_QUERY,
        ],
        responses={
            200: StatsSerializer,
            400: E400_QUERY,
            404: error_response("`player_not_found`."),
        },
    )
    def get(self, request: Request, display_name: str) -> Response:
        player = Player.objects.filter(name_key=names.name_key(display_name[:100])).first()
        if player is None:
            raise NotFound("There is no player of that name.", code="player_not_found")
        return _stats(player, request)
