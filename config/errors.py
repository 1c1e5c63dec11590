"""Error pages that never show internals: JSON under /api/, short plain HTML elsewhere.

- `server_error`: Django's handler500 (config/urls.py). The traceback goes to the log
  (django.request); the client gets `{"code": "server_error", ...}` or a friendly page.
- `csrf_failure`: CSRF_FAILURE_VIEW; `{"code": "csrf_failed", ...}` under /api/.
- `database_unavailable`: a 503 with Retry-After when PostgreSQL (or the SQLite file) cannot
  be reached, used by `config.middleware.DatabaseUnavailableMiddleware` and `server_error`.
- `SafeExceptionReporterFilter`: what error reports (DEBUG's technical page, logged reports)
  may show of settings and request metadata: no *_URL value, nor any URL with credentials
  (DATABASE_URL, REDIS_URL, the cache's LOCATION, the broker's address carry passwords).
"""

from __future__ import annotations

import re
import sys
from html import escape
from typing import Any

from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.views.debug import SafeExceptionReporterFilter as DjangoSafeExceptionReporterFilter

#: Seconds a client should wait before trying again after a 503.
RETRY_AFTER_SECONDS = 5

API_PREFIX = "/api/"


def is_api(request: HttpRequest | None = None, path: str | None = None) -> bool:
    if path is None:
        path = request.path if request is not None else ""
    return path == API_PREFIX[:-1] or path.startswith(API_PREFIX)


def json_error(status: int, code: str, detail: str, **extra: Any) -> JsonResponse:
    return JsonResponse({"code": code, "detail": detail, **extra}, status=status)


def html_page(status: int, title: str, message: str) -> HttpResponse:
    body = (
        '<!doctype html>\n<html lang="en">\n<head><meta charset="utf-8">'
        f"<title>{escape(title)} · Patience Daily</title></head>\n"
        f"<body>\n<h1>{escape(title)}</h1>\n<p>{escape(message)}</p>\n"
        '<p><a href="/">Back to Patience Daily</a></p>\n</body>\n</html>\n'
    )
    return HttpResponse(body, status=status, content_type="text/html; charset=utf-8")


def error_response(
    request: HttpRequest | None, status: int, code: str, detail: str, title: str, **extra: Any
) -> HttpResponse:
    """JSON for the API, a short page for people."""
    if is_api(request):
        return json_error(status, code, detail, **extra)
    return html_page(status, title, detail)


# -- the database is down ----------------------------------------------------------------------


def _pool_timeout_types() -> tuple[type[BaseException], ...]:
    try:
        from psycopg_pool import PoolTimeout
    except ImportError:  # the pool is optional (SQLite needs none)
        return ()
    return (PoolTimeout,)


def caused_by(
    exc: BaseException | None, types: tuple[type[BaseException], ...]
) -> BaseException | None:
    """The first of `exc` and what caused it (five links at most) that is one of `types`."""
    seen = 0
    while exc is not None and seen < 5:
        if isinstance(exc, types):
            return exc
        exc = exc.__cause__ or exc.__context__
        seen += 1
    return None


def is_database_unavailable(exc: BaseException | None) -> bool:
    """Whether `exc` (or what caused it) says the database cannot be reached or is busy."""
    types = (OperationalError, InterfaceError, *_pool_timeout_types())
    return caused_by(exc, types) is not None


def database_unavailable(request: HttpRequest | None) -> HttpResponse:
    if request is not None:
        # Django logs every 5xx answer; during an outage the log counts these instead
        # (config/outagelog.py).
        request.database_unavailable = True
    response = error_response(
        request,
        503,
        "database_unavailable",
        "The game's database cannot be reached right now; please try again in a few seconds.",
        "Back in a moment",
        retry_after=RETRY_AFTER_SECONDS,
    )
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response


# -- Django's error views ----------------------------------------------------------------------


def server_error(request: HttpRequest) -> HttpResponse:
    """handler500: Django calls it while handling the exception, which it then logs."""
    if is_database_unavailable(sys.exc_info()[1]):
        return database_unavailable(request)
    return error_response(
        request,
        500,
        "server_error",
        "Something went wrong on our side. It has been logged; please try again later.",
        "Something went wrong",
    )


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """CSRF_FAILURE_VIEW. The reason is Django's (e.g. "CSRF token missing."), never a secret."""
    return error_response(
        request,
        403,
        "csrf_failed",
        f"CSRF check failed: {reason or 'the request did not pass the CSRF check.'} A logged-in "
        "user sends the csrftoken cookie's value in the X-CSRFToken header.",
        "Forbidden",
    )


# -- error reports -----------------------------------------------------------------------------

#: "scheme://user:password@host" or "scheme://:password@host".
URL_WITH_CREDENTIALS = re.compile(r"[a-z][a-z0-9+.-]*://[^/@\s]*@", re.IGNORECASE)


class SafeExceptionReporterFilter(DjangoSafeExceptionReporterFilter):
    """Django's filter, also hiding every *_URL setting (and request metadata) and any value
    that is a URL with credentials, wherever it is nested."""

    hidden_settings = re.compile(
        "API|TOKEN|KEY|SECRET|PASS|SIGNATURE|HTTP_COOKIE|_URL$|^LOCATION$|^ADDRESS$|^HOSTS$",
        flags=re.IGNORECASE,
    )

    def cleanse_setting(self, key: Any, value: Any) -> Any:
        if isinstance(value, str) and URL_WITH_CREDENTIALS.search(str(value)):
            return self.cleansed_substitute
        return super().cleanse_setting(key, value)
