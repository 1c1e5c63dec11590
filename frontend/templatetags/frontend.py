"""Template helpers of the site: the play page's string catalogue, language names."""

from __future__ import annotations

from django import template
from django.utils.html import json_script
from django.utils.safestring import SafeString

from frontend.catalogue import frontend_strings
from frontend.languages import SITE_LANGUAGES

register = template.Library()


@register.simple_tag(takes_context=True)
def frontend_strings_json(context: template.Context) -> SafeString:
    """The play page's catalogue (frontend/catalogue.py) as
    `<script type="application/json" id="strings">`."""
    return json_script(frontend_strings(context.get("request")), "strings")


@register.simple_tag
def site_languages() -> list[tuple[str, str]]:
    return SITE_LANGUAGES
