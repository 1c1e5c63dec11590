from django.contrib import admin
from django.urls import include, path, re_path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from games.api.views import api_not_found

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="api-schema"), name="api-docs"),
    path("api/", include("games.api.urls")),
    # Keep last among the api/ routes: any other path under /api/ is a JSON 404.
    re_path(r"^api/", api_not_found, name="api-not-found"),
    path("", include("frontend.urls")),
]
