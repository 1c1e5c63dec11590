"""Request bodies are small: a JSON body has at most `API_MAX_BODY_BYTES` (settings, 16 KiB).

Under ASGI, `config.bodylimit.BodySizeLimitMiddleware` refuses a larger body before Django
reads any of it. Views also refuse a larger declared Content-Length (`body_size_check`, for
other servers and the test client), and the parser measures what it was given.
"""

from __future__ import annotations

import io
from typing import Any

from django.conf import settings
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser

from games.errors import TooLarge

DEFAULT_MAX_BODY_BYTES = 16 * 1024


def max_body_bytes() -> int:
    return int(getattr(settings, "API_MAX_BODY_BYTES", DEFAULT_MAX_BODY_BYTES))


def too_large() -> TooLarge:
    return TooLarge(f"A request body has at most {max_body_bytes()} bytes.", code="too_large")


def body_size_check(request: Any) -> None:
    """Refuse a request whose declared body is larger than the API takes."""
    meta = getattr(request, "META", {})
    declared = meta.get("CONTENT_LENGTH") or meta.get("HTTP_CONTENT_LENGTH") or ""
    if str(declared).isdigit() and int(declared) > max_body_bytes():
        raise too_large()


class BoundedJSONParser(JSONParser):
    """DRF's JSON parser, refusing a body larger than `API_MAX_BODY_BYTES`."""

    def parse(
        self,
        stream: Any,
        media_type: str | None = None,
        parser_context: dict[str, Any] | None = None,
    ) -> Any:
        limit = max_body_bytes()
        body = stream.read(limit + 1)
        if len(body) > limit:
            raise too_large()
        try:
            return super().parse(io.BytesIO(body), media_type, parser_context)
        except RecursionError:  # "[[[[..." within the size limit
            raise ParseError("JSON parse error - nested too deeply.") from None
