"""The site's URLs plus views that fail on purpose, for the error-page tests."""

from __future__ import annotations

from django.db import OperationalError
from django.http import HttpRequest, HttpResponse
from django.urls import path
from rest_framework.decorators import api_view
from rest_framework.request import Request
from rest_framework.response import Response

from config.urls import handler500
from config.urls import urlpatterns as site_urlpatterns

SECRET_IN_MESSAGE = "boom"


def boom(request: HttpRequest) -> HttpResponse:
    raise RuntimeError(SECRET_IN_MESSAGE)


def no_database(request: HttpRequest) -> HttpResponse:
    raise OperationalError('connection to server at "127.0.0.1", port 1 failed')


@api_view(["POST"])
def api_boom(request: Request) -> Response:
    raise RuntimeError(SECRET_IN_MESSAGE)


@api_view(["GET", "POST"])
def api_no_database(request: Request) -> Response:
    raise OperationalError('connection to server at "127.0.0.1", port 1 failed')


def form(request: HttpRequest) -> HttpResponse:
    return HttpResponse("ok")


urlpatterns = [
    path("api/test-boom/", boom),
    path("api/test-boom-post/", api_boom),
    path("test-boom/", boom),
    path("api/test-no-database/", api_no_database),
    path("test-no-database/", no_database),
    path("api/test-form/", form),
    path("test-form/", form),
    *site_urlpatterns,
]

__all__ = ["handler500", "urlpatterns"]
