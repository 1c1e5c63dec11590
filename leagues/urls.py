"""The leagues' and seasons' API, mounted under /api/ by config/urls.py."""

from django.urls import path

import games.api.urls  # noqa: F401 (registers the "id" converter)
from leagues import api

app_name = "leagues_api"

urlpatterns = [
    path("leagues/", api.LeaguesView.as_view(), name="leagues"),
    path("leagues/join/<str:code>/", api.LeagueJoinView.as_view(), name="league-join"),
    path("leagues/<id:league_id>/", api.LeagueView.as_view(), name="league"),
    path("leagues/<id:league_id>/invite/", api.LeagueInviteView.as_view(), name="league-invite"),
    path("leagues/<id:league_id>/leave/", api.LeagueLeaveView.as_view(), name="league-leave"),
    path(
        "leagues/<id:league_id>/members/<id:player_id>/",
        api.LeagueMemberView.as_view(),
        name="league-member",
    ),
    path("seasons/<str:period>/", api.SeasonView.as_view(), name="season"),
    path("players/me/week/", api.MyWeekView.as_view(), name="my-week"),
]
