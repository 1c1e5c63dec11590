"""The project's URLs with the leaderboards API mounted as config/urls.py mounts it: before
the games API and the /api/ catch-all."""

from django.urls import include, path

from config import urls as project

urlpatterns = [path("api/", include("leaderboards.urls")), *project.urlpatterns]
