"""The ratings REST API (docs/leagues.md, "Ratings"): your ratings, and a past daily's deal
rating. Thin views over `ratings.selectors`; errors are the games API's JSON shape. Both are
reads: neither creates a player.
"""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework.request import Request
from rest_framework.response import Response

from games import selectors as games_selectors
from games.api.base import DATE, E400_DATE, GAME, ApiView, error_response, my_player, parse_date
from games.errors import NotFound
from ratings import selectors
from ratings.serializers import DailyRatingSerializer, MyRatingsSerializer


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
