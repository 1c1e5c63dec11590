"""DRF's browsable API for local development (DEBUG only; config/settings.py).

DRF's BrowsableAPIRenderer reads the request body to draw its forms, after the view has run. A
view that never read the body (a POST without one, such as resign) then meets a body it cannot
parse (an HTML form's) outside of the view's error handling, and the request ends in a 500 page.
`SafeBrowsableAPIRenderer` parses the body first and, when that fails, renders with no data.
"""

from __future__ import annotations

from typing import Any

from django.http import QueryDict
from django.utils.datastructures import MultiValueDict
from rest_framework.renderers import BrowsableAPIRenderer


class SafeBrowsableAPIRenderer(BrowsableAPIRenderer):
    def render(
        self,
        data: Any,
        accepted_media_type: str | None = None,
        renderer_context: dict[str, Any] | None = None,
    ) -> Any:
        request = (renderer_context or {}).get("request")
        if request is not None:
            try:
                request.data  # noqa: B018 (parses the body once, here)
            except Exception:
                # What DRF itself leaves behind after a parse error: no data, no files.
                request._data = QueryDict("", encoding=request._request.encoding)
                request._files = MultiValueDict()
                request._full_data = request._data
        return super().render(data, accepted_media_type, renderer_context)
