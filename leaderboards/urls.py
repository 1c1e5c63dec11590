"""The leaderboards API, mounted under /api/ by config/urls.py, before the games API (so that
`players/me/stats/` is served here)."""

from django.urls import path

from leaderboards import api

app_name = "leaderboards_api"

urlpatterns = [
    path("leaderboards/all-time/", api.AllTimeView.as_view(), name="all-time"),
    path("leaderboards/<str:game>/<str:date>/", api.BoardView.as_view(), name="board"),
    path(
        "leaderboards/<str:game>/<str:date>/distribution/",
        api.DistributionView.as_view(),
        name="distribution",
    ),
    path("players/me/stats/", api.MyStatsView.as_view(), name="my-stats"),
    path("players/<str:display_name>/stats/", api.PlayerStatsView.as_view(), name="player-stats"),
]
