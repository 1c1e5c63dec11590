from django.contrib import admin
from django.urls import include, path, re_path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from games.api.base import api_not_found

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    # The split view serves its start-up script from a URL rather than inline, so the
    # Content-Security-Policy needs no 'unsafe-inline' for scripts.
    path("api/docs/", SpectacularSwaggerSplitView.as_view(url_name="api-schema"), name="api-docs"),
    # The games API first: its routes (a move, a start, the dailies) are nearly every request
    # at the daily rollover, and every route tried before the one that matches costs the
    # resolver a little. No route of one of these three matches a path of another (every
    # pattern is anchored at its end: /api/players/me/ is games', /api/players/me/stats/ the
    # leaderboards'), so their order changes nothing else; tests/test_urls.py checks it.
    path("api/", include("games.api.urls")),
    path("api/", include("leaderboards.urls")),
    path("api/", include("races.urls")),
    path("api/", include("ratings.urls")),
    path("api/", include("leagues.urls")),
    # Keep last among the api/ routes: any other path under /api/ is a JSON 404.
    re_path(r"^api/", api_not_found, name="api-not-found"),
    path("", include("frontend.urls")),
]

# An unhandled exception: JSON under /api/, a short page elsewhere; the traceback is logged.
handler500 = "config.errors.server_error"
