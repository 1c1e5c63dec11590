"""The project's URLs plus `GET /api/bench/empty/`, in benchmark servers only (`_settings.py`).

The empty endpoint is the floor of a Django request in this project: the whole middleware stack,
URL resolution and a JSON answer of `{}`, and no database, cache or channel-layer work.
`benchmarks/play.py` compares the server CPU of a move with it.
"""

from django.http import HttpRequest, JsonResponse
from django.urls import path

from benchmarks._servers import EMPTY_PATH
from config.urls import handler500
from config.urls import urlpatterns as project_urlpatterns


def empty(request: HttpRequest) -> JsonResponse:
    return JsonResponse({})


urlpatterns = [path(EMPTY_PATH.lstrip("/"), empty), *project_urlpatterns]

__all__ = ["handler500", "urlpatterns"]
