"""config/urls.py mounts four APIs at /api/ (games first, for speed: its routes are nearly every
request at the daily rollover). Their order must change nothing: no path that one of them
serves is matched by a route of another."""

from __future__ import annotations

import itertools
import re

import pytest
from django.urls import URLPattern, URLResolver, get_resolver

API_APPS = ("games_api", "leaderboards_api", "races_api", "ratings_api", "leagues_api")
#: Values tried for each converter: "me" meets the routes that name it.
SAMPLES = {"id": ["12"], "str": ["me", "stats", "munger", "2026-12-01", "abc"]}


def api_includes() -> dict[str, list[URLPattern]]:
    found = {}
    for entry in get_resolver().url_patterns:
        if isinstance(entry, URLResolver) and str(entry.pattern) == "api/":
            module = entry.urlconf_name
            name = getattr(module, "app_name", None) or module.__name__.split(".")[0]
            found[name] = [p for p in entry.url_patterns if isinstance(p, URLPattern)]
    return found


def sample_paths(route: str) -> list[str]:
    parts = re.split(r"<(?:(\w+):)?\w+>", route)
    literals, kinds = parts[0::2], parts[1::2]
    paths = []
    for values in itertools.product(*(SAMPLES[kind or "str"] for kind in kinds)):
        paths.append(
            "".join(a + b for a, b in itertools.zip_longest(literals, values, fillvalue=""))
        )
    return paths


def test_the_games_api_is_tried_first():
    assert list(api_includes()) == list(API_APPS)


@pytest.mark.parametrize("app", API_APPS)
def test_no_route_of_one_api_matches_a_path_of_another(app):
    includes = api_includes()
    others = [p for name, patterns in includes.items() if name != app for p in patterns]
    for pattern in includes[app]:
        for path in sample_paths(str(pattern.pattern)):
            assert pattern.resolve(path) is not None, path
            clashes = [str(p.pattern) for p in others if p.resolve(path) is not None]
            assert clashes == [], f"/api/{path} ({app}) is also matched by {clashes}"
