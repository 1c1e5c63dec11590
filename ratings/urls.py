"""The ratings API, mounted under /api/ by config/urls.py."""

from django.urls import path

from ratings import api

app_name = "ratings_api"

urlpatterns = [
    path("players/me/ratings/", api.MyRatingsView.as_view(), name="my-ratings"),
    path("dailies/<str:game>/<str:date>/rating/", api.DailyRatingView.as_view(), name="rating"),
    path(
        "leaderboards/<str:game>/<str:date>/ratings/",
        api.BoardRatingsView.as_view(),
        name="board-ratings",
    ),
]
