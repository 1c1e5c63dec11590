"""Every API error is JSON: `{"code": "...", "detail": "..."}` with the right HTTP status.

`code` is stable (clients branch on it), `detail` is a sentence for people. Some errors add
fields: `expected_seq` (a move with the wrong seq), `legal` (an illegal move), `retry_after`
(throttled, in seconds, also in the Retry-After header), `fields` (a body that failed
validation: the messages per field). Wired in as DRF's EXCEPTION_HANDLER in config/settings.py.
"""

from __future__ import annotations

import math
from typing import Any

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import RequestDataTooBig
from django.http import Http404
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
    return Response(error_body(_code(exc), detail, **extra), status=exc.status_code,
                    headers=headers)  # fmt: skip


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
