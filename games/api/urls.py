"""The games API, mounted under /api/ by config/urls.py."""

from django.urls import path, register_converter

from games.api import views


class IdConverter:
    """A database id: 1 to 18 digits, so that it always fits a 64-bit integer."""

    regex = "[0-9]{1,18}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int) -> str:
        return str(value)


register_converter(IdConverter, "id")

app_name = "games_api"

urlpatterns = [
    path("dailies/", views.DailyListView.as_view(), name="dailies"),
    path("dailies/<str:game>/<str:date>/", views.DailyDetailView.as_view(), name="daily"),
    path(
        "dailies/<str:game>/<str:date>/attempts/",
        views.DailyAttemptsView.as_view(),
        name="daily-attempts",
    ),
    path("practice/", views.PracticeView.as_view(), name="practice"),
    path("attempts/<id:attempt_id>/", views.AttemptDetailView.as_view(), name="attempt"),
    path("attempts/<id:attempt_id>/moves/", views.MoveView.as_view(), name="attempt-moves"),
    path("attempts/<id:attempt_id>/resign/", views.ResignView.as_view(), name="attempt-resign"),
    path("attempts/<id:attempt_id>/finish/", views.FinishView.as_view(), name="attempt-finish"),
    path("attempts/<id:attempt_id>/hint/", views.HintView.as_view(), name="attempt-hint"),
    path(
        "attempts/<id:attempt_id>/analysis/",
        views.AnalysisView.as_view(),
        name="attempt-analysis",
    ),
    path(
        "attempts/<id:attempt_id>/continue/",
        views.ContinueView.as_view(),
        name="attempt-continue",
    ),
    path("players/", views.PlayersView.as_view(), name="players"),
    path("players/me/", views.MeView.as_view(), name="me"),
    path("players/me/attempts/", views.MyAttemptsView.as_view(), name="my-attempts"),
    path("accounts/register/", views.RegisterView.as_view(), name="register"),
    path("accounts/login/", views.LoginView.as_view(), name="login"),
    path("accounts/logout/", views.LogoutView.as_view(), name="logout"),
]
