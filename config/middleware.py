"""Project-wide Django middleware (listed in config/settings.py MIDDLEWARE).

- `OriginCheckMiddleware`: a state-changing request (POST, PUT, PATCH, DELETE) sent by a
  browser from another origin is refused with 403 `bad_origin`, for every path and every
  player. Guests need no CSRF token (their cookie is SameSite=Lax), but SameSite treats
  another port of the same host as the same site; the Origin header does not.
- `NulRefusalMiddleware`: a request whose path, query, cookies or body hold the NUL character
  is refused with 400 `malformed` before anything reads it (infra/textinput.py says why).
- `DatabaseUnavailableMiddleware`: a view that cannot reach the database answers 503
  `database_unavailable` with Retry-After rather than a 500 page.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from urllib.parse import urlsplit

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest, HttpResponse

from config.errors import database_unavailable, error_response, is_database_unavailable
from infra.textinput import NUL_DETAIL, holds_nul, json_holds_nul

UNSAFE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})

#: Sec-Fetch-Site values of requests a browser sent on behalf of another site's page.
FOREIGN_FETCH_SITES = frozenset({"cross-site", "same-site"})

logger = logging.getLogger(__name__)


def _origin_parts(origin: str) -> tuple[str, str] | None:
    """("https", "patience.example:8443") for an origin, or None when it is not one."""
    try:
        parts = urlsplit(origin.strip())
    except ValueError:
        return None
    if parts.scheme not in {"http", "https"} or not parts.netloc:
        return None
    if parts.path or parts.query or parts.fragment or "@" in parts.netloc:
        return None
    return parts.scheme.lower(), parts.netloc.lower()


def _trusted(scheme: str, netloc: str) -> bool:
    for entry in settings.CSRF_TRUSTED_ORIGINS:
        parts = urlsplit(entry.strip())
        if parts.scheme.lower() != scheme:
            continue
        trusted = parts.netloc.lower()
        if trusted == netloc:
            return True
        # Django's form: https://*.example.com trusts every subdomain of example.com.
        if trusted.startswith("*.") and netloc.endswith(trusted[1:]):
            return True
    return False


def origin_allowed(request: HttpRequest, origin: str) -> bool:
    parts = _origin_parts(origin)
    if parts is None:  # "null" (sandboxed frames, file: pages, some redirects) or garbage
        return False
    own = (request.scheme or "http", request.get_host().lower())
    return parts == own or _trusted(*parts)


class OriginCheckMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.method in UNSAFE_METHODS:
            refusal = self.check(request)
            if refusal is not None:
                return refusal
        return self.get_response(request)

    def check(self, request: HttpRequest) -> HttpResponse | None:
        origin = request.headers.get("Origin")
        if origin is not None:
            if origin_allowed(request, origin):
                return None
            why = f"Requests from {origin[:100]!r} may not change anything here."
        elif request.headers.get("Sec-Fetch-Site", "").lower() in FOREIGN_FETCH_SITES:
            why = "Requests sent by another site's page may not change anything here."
        else:
            return None  # not a browser acting for another page (a script, curl)
        return error_response(request, 403, "bad_origin", why, "Forbidden")


class NulRefusalMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if self.holds_nul(request):
            return error_response(request, 400, "malformed", NUL_DETAIL, "Bad request")
        return self.get_response(request)

    @staticmethod
    def holds_nul(request: HttpRequest) -> bool:
        if holds_nul(request.path) or holds_nul(list(request.GET.lists())):
            return True
        if holds_nul(dict(request.COOKIES)):
            return True
        if request.method not in UNSAFE_METHODS:
            return False
        kind = request.content_type or ""
        if kind.startswith("multipart/"):  # files, and admin forms: Django's fields refuse NUL
            return False
        try:
            body = request.body  # bounded by config.bodylimit before Django
        except RequestDataTooBig:  # answered by the view's own size check
            return False
        if kind == "application/x-www-form-urlencoded":
            return b"\x00" in body or holds_nul(list(request.POST.lists()))
        return json_holds_nul(body)


class DatabaseUnavailableMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if is_database_unavailable(exception):
            logger.error(
                "database unavailable: %s %s", request.method, request.path, exc_info=exception
            )
            return database_unavailable(request)
        return None
