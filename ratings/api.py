"""The ratings REST API (docs/leagues.md, "Ratings"): your ratings, and a past daily's deal
rating. Thin views over `ratings.selectors`; errors are the games API's JSON shape. Both are
reads: neither creates a player.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.request import Request
from rest_framework.response import Response

from games import selectors as games_selectors
from games.api.base import (
    DATE,
    E400_DATE,
    E404_DAILY,
    GAME,
    ApiView,
    error_response,
    my_player,
    parse_date,
)
from games.errors import Malformed, NotFound
from ratings import selectors
from ratings.serializers import (
    BoardRatingsSerializer,
    DailyRatingSerializer,
    MyRatingsSerializer,
)


class MyRatingsView(ApiView):
    @extend_schema(
        operation_id="player_me_ratings",
        tags=["players"],
        summary="Your ratings",
        description=(
            "Your Glicko-2 rating in each game, moved by each ranked daily you played once its "
            "day is over (a verified win beats the deal; a resignation or a game left "
            "unfinished loses to it), with the history of those changes. A game you have not "
            "played rated shows a newcomer's rating. Creates no player: without one, 404 "
            "`no_player`."
        ),
        responses={200: MyRatingsSerializer, 404: error_response("`no_player`.")},
    )
    def get(self, request: Request) -> Response:
        player = my_player(request)
        body = {"player": player.display_name, "ratings": selectors.player_ratings(player=player)}
        return Response(MyRatingsSerializer(body).data)


class DailyRatingView(ApiView):
    @extend_schema(
        operation_id="daily_rating",
        tags=["dailies"],
        summary="A past daily's deal rating",
        description=(
            "The Glicko-2 rating of the daily's deal from the players who played it ranked, "
            "once its day is over and rated; 404 `daily_not_rated` before (while the day is "
            "played, nothing of it is told). Creates no player."
        ),
        parameters=[GAME, DATE],
        responses={
            200: DailyRatingSerializer,
            400: E400_DATE,
            404: error_response(
                "`unknown_game`, `daily_not_found` (no such daily, or a future date), or "
                "`daily_not_rated` (its day is not over, or not rated yet)."
            ),
        },
    )
    def get(self, request: Request, game: str, date: str) -> Response:
        daily = games_selectors.daily_get(game=game, date=parse_date(date))
        body = selectors.daily_rating(daily=daily)
        if body is None:
            raise NotFound(
                "This daily has no rating yet: a deal is rated once its day is over.",
                code="daily_not_rated",
            )
        return Response(DailyRatingSerializer(body).data)


#: The board rows a ratings request may name (a board page shows fewer).
BOARD_RATINGS_MAX = 100


def player_names_query(query: Any) -> list[str]:
    """The `player` query parameters (repeated): 1 to `BOARD_RATINGS_MAX` display names;
    400 `invalid` otherwise."""
    names: list[str] = query.getlist("player")
    if not names or len(names) > BOARD_RATINGS_MAX or not all(0 < len(n) <= 64 for n in names):
        raise Malformed(
            f"player is given 1 to {BOARD_RATINGS_MAX} times, each a display name.",
            code="invalid",
        )
    return names


class BoardRatingsView(ApiView):
    @extend_schema(
        operation_id="leaderboard_ratings",
        tags=["leaderboards"],
        summary="The ratings of a board's players",
        description=(
            "For rows of the daily's board (`player`, repeated: their display names), each "
            "player's current Glicko-2 rating in the game (a newcomer's when none was counted "
            "yet), for a board that shows ratings. Names with no ranked attempt on this daily "
            "are left out. Creates no player."
        ),
        parameters=[
            GAME,
            DATE,
            OpenApiParameter(
                "player",
                {
                    "type": "array",
                    "items": {"type": "string", "minLength": 1, "maxLength": 64},
                    "minItems": 1,
                    "maxItems": BOARD_RATINGS_MAX,
                },
                required=True,
                explode=True,
                description=f"A row's player; 1 to {BOARD_RATINGS_MAX} of them.",
            ),
        ],
        responses={
            200: BoardRatingsSerializer,
            400: error_response("`bad_date`, `invalid`."),
            404: E404_DAILY,
        },
    )
    def get(self, request: Request, game: str, date: str) -> Response:
        daily = games_selectors.daily_get(game=game, date=parse_date(date))
        names = player_names_query(request.query_params)
        body = {"ratings": selectors.board_ratings(daily=daily, names=names)}
        return Response(BoardRatingsSerializer(body).data)
