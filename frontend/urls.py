from django.urls import path
from django.views.i18n import set_language

from frontend import league_pages, views

app_name = "frontend"

urlpatterns = [
    path("", views.home, name="home"),
    path("play/<slug:game>/", views.play_today, name="play"),
    path("play/<slug:game>/<str:date>/", views.play_day, name="play-day"),
    path("play/<slug:game>/<str:date>/solution/", views.solution, name="solution"),
    path("board/", views.boards, name="boards"),
    path("board/<slug:game>/<str:date>/", views.board, name="board"),
    path("archive/", views.archive, name="archive"),
    path("me/", views.me, name="me"),
    path("analysis/<int:attempt_id>/", views.analysis, name="analysis"),
    path("account/", views.account, name="account"),
    path("rules/<slug:game>/", views.rules, name="rules"),
    path("challenge/", views.challenge_new, name="challenge-new"),
    path("challenge/<str:code>/", views.challenge, name="challenge"),
    path("leagues/", league_pages.leagues, name="leagues"),
    path("leagues/join/<str:code>/", league_pages.league_join, name="league-join"),
    path("leagues/<int:league_id>/", league_pages.league, name="league"),
    # The language switch posts here (Django's view: sets the language cookie, then goes back).
    path("i18n/setlang/", set_language, name="set_language"),
]
