"""Every API error is JSON: `{"code": "...", "detail": "..."}` with the right HTTP status.

`code` is stable (clients branch on it), `detail` is a sentence for people. Some errors add
fields: `expected_seq` (a move with the wrong seq), `legal` (an illegal move), `retry_after`
(throttled or locked out, in seconds, also in the Retry-After header), `fields` (a body that
failed validation: the messages per field). Wired in as DRF's EXCEPTION_HANDLER in
config/settings.py.

A login to an account that django-axes has locked (too many wrong passwords) is 429
`locked_out`, whatever the view made of the refused login: `lockout_response` is axes'
AXES_LOCKOUT_CALLABLE.
"""

from __future__ import annotations

import math
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import RequestDataTooBig
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from rest_framework import exceptions
from rest_framework.response import Response
from rest_framework.views import set_rollback

from games.errors import ServiceError

#: The codes of DRF's own exceptions, in our words.
DRF_CODES: list[tuple[type[exceptions.APIException], str]] = [
    (exceptions.ParseError, "malformed"),
    (exceptions.ValidationError, "invalid"),
    (exceptions.NotFound, "not_found"),
    (exceptions.MethodNotAllowed, "method_not_allowed"),
    (exceptions.NotAcceptable, "not_acceptable"),
    (exceptions.UnsupportedMediaType, "unsupported_media_type"),
    (exceptions.Throttled, "throttled"),
    (exceptions.NotAuthenticated, "not_authenticated"),
    (exceptions.AuthenticationFailed, "authentication_failed"),
    (exceptions.PermissionDenied, "forbidden"),
]


def error_body(code: str, detail: str, **extra: Any) -> dict[str, Any]:
    return {"code": code, "detail": detail, **extra}


def api_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """DRF's exception handler, answering our error shape for everything it knows.

    Anything else (a bug) returns None, so Django answers 500 and logs the traceback.
    """
    request = context.get("request")
    if is_locked_out(request):
        set_rollback()
        wait = lockout_seconds()
        return Response(
            error_body("locked_out", lockout_detail(wait), retry_after=wait),
            status=429,
            headers={"Retry-After": str(wait)},
        )
    if isinstance(exc, ServiceError):
        set_rollback()
        return Response(error_body(exc.code, exc.detail, **exc.extra), status=exc.status)
    if isinstance(exc, RequestDataTooBig):
        set_rollback()
        return Response(error_body("too_large", "The request body is too large."), status=413)
    if isinstance(exc, Http404):
        exc = exceptions.NotFound(*exc.args)
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied(*exc.args)
    if not isinstance(exc, exceptions.APIException):
        return None

    headers = {}
    if getattr(exc, "auth_header", None):
        headers["WWW-Authenticate"] = exc.auth_header
    extra: dict[str, Any] = {}
    if isinstance(exc, exceptions.ValidationError):
        fields = _field_messages(exc.detail)
        detail = "; ".join(
            " ".join(messages) if name == "non_field_errors" else f"{name}: {' '.join(messages)}"
            for name, messages in fields.items()
        )
        extra["fields"] = fields
    else:
        detail = str(exc.detail)
    if isinstance(exc, exceptions.Throttled):
        wait = max(1, math.ceil(exc.wait or 1))
        headers["Retry-After"] = str(wait)
        extra["retry_after"] = wait
        detail = f"Too many requests; try again in {wait} s."
    set_rollback()
    return Response(
        error_body(_code(exc), detail, **extra), status=exc.status_code, headers=headers
    )


# -- logins locked out by django-axes ---------------------------------------------------------


def is_locked_out(request: Any) -> bool:
    """Whether django-axes refused this request's login (the account is locked)."""
    http = getattr(request, "_request", request)
    return bool(getattr(http, "axes_locked_out", False))


def lockout_seconds() -> int:
    cool_off = getattr(settings, "AXES_COOLOFF_TIME", None)
    if isinstance(cool_off, timedelta):
        return max(1, math.ceil(cool_off.total_seconds()))
    if isinstance(cool_off, int | float):  # hours, as django-axes reads a number
        return max(1, math.ceil(cool_off * 3600))
    return 15 * 60


def lockout_detail(wait: int) -> str:
    minutes = math.ceil(wait / 60)
    return (
        "Too many wrong passwords for this account: logging in is locked for "
        f"{minutes} minute{'s' if minutes != 1 else ''}."
    )


def lockout_response(
    request: HttpRequest, original_response: HttpResponse | None = None, credentials: Any = None
) -> HttpResponse:
    """django-axes' answer to a locked-out login (AXES_LOCKOUT_CALLABLE): 429 `locked_out`.

    The API's own answer (from `api_exception_handler`, with the player cookie) is kept; an
    admin login gets a short page.
    """
    # django-axes' async path passes the credentials where the response belongs.
    if isinstance(original_response, HttpResponse) and original_response.status_code == 429:
        return original_response
    wait = lockout_seconds()
    if request.path.startswith("/api/"):
        response: HttpResponse = JsonResponse(
            error_body("locked_out", lockout_detail(wait), retry_after=wait), status=429
        )
    else:
        response = HttpResponse(
            lockout_detail(wait) + "\n", status=429, content_type="text/plain; charset=utf-8"
        )
    response["Retry-After"] = str(wait)
    return response


def _code(exc: exceptions.APIException) -> str:
    # DRF's session authentication refuses a logged-in user's unsafe request without the token.
    if isinstance(exc, exceptions.PermissionDenied) and str(exc.detail).startswith("CSRF Failed"):
        return "csrf_failed"
    for cls, code in DRF_CODES:
        if isinstance(exc, cls):
            return code
    return str(exc.default_code)


def _field_messages(detail: Any, prefix: str = "") -> dict[str, list[str]]:
    """`{"seq": ["A valid integer is required."]}`, nested fields joined with dots."""
    if isinstance(detail, dict):
        out: dict[str, list[str]] = {}
        for key, value in detail.items():
            name = f"{prefix}.{key}" if prefix else str(key)
            out.update(_field_messages(value, name))
        return out
    if isinstance(detail, list) and any(isinstance(item, dict | list) for item in detail):
        out = {}
        for index, value in enumerate(detail):
            out.update(_field_messages(value, f"{prefix}.{index}" if prefix else str(index)))
        return out
    messages = detail if isinstance(detail, list) else [detail]
    return {prefix or "non_field_errors": [str(m) for m in messages]}
