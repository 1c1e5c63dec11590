"""The site's languages: which ones there are, which one a request gets, and the decorator that
renders a page in it.

Django's LocaleMiddleware (config/settings.py) chooses the language from the language switch's
cookie, then Accept-Language; `localized` keeps that choice within the site's three languages,
and does the middleware's job for our pages where a deployment leaves it out.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils import translation
from django.utils.cache import patch_vary_headers

#: The languages the site is written in: (code, name in that language), from settings.
SITE_LANGUAGES: list[tuple[str, str]] = [(code, str(name)) for code, name in settings.LANGUAGES]
SITE_LANGUAGE_CODES = [code for code, _name in SITE_LANGUAGES]


def site_language(request: HttpRequest) -> str:
    """The request's language among the site's (cookie, then Accept-Language), else English."""
    wanted = translation.get_language_from_request(request) or settings.LANGUAGE_CODE
    base = wanted.split("-")[0].lower()
    return base if base in SITE_LANGUAGE_CODES else "en"


def localized(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Render the page in the visitor's language (`site_language`)."""

    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        language = site_language(request)
        with translation.override(language):
            request.LANGUAGE_CODE = language
            response = view(request, *args, **kwargs)
        response.headers.setdefault("Content-Language", language)
        patch_vary_headers(response, ("Accept-Language", "Cookie"))
        return response

    return wrapper
