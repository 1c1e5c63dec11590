"""The races API, mounted under /api/ by config/urls.py."""

from django.urls import path

import games.api.urls  # noqa: F401 (registers the "id" converter)
from races import api

app_name = "races_api"

urlpatterns = [
    path("races/", api.RacesView.as_view(), name="races"),
    path("races/offer/<id:attempt_id>/", api.RaceOfferView.as_view(), name="race-offer"),
    path("races/<str:code>/", api.RaceView.as_view(), name="race"),
    path("races/<str:code>/join/", api.RaceJoinView.as_view(), name="race-join"),
    path("races/<str:code>/leave/", api.RaceLeaveView.as_view(), name="race-leave"),
    path("races/<str:code>/ready/", api.RaceReadyView.as_view(), name="race-ready"),
    path("races/<str:code>/start/", api.RaceStartView.as_view(), name="race-start"),
    path("races/<str:code>/attempt/", api.RaceAttemptView.as_view(), name="race-attempt"),
    path("races/<str:code>/rematch/", api.RaceRematchView.as_view(), name="race-rematch"),
    path("races/<str:code>/replays/", api.RaceReplaysView.as_view(), name="race-replays"),
]
