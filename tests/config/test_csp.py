"""The Content-Security-Policy and the other browser security headers."""

from __future__ import annotations

import re

import pytest
from django.test import Client


def policy(response) -> dict[str, list[str]]:
    directives = {}
    for part in response["Content-Security-Policy"].split(";"):
        name, *values = part.split()
        directives[name] = values
    return directives


@pytest.mark.django_db
def test_pages_carry_a_strict_content_security_policy():
    response = Client().get("/")

    assert policy(response) == {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "connect-src": ["'self'"],
        "frame-ancestors": ["'none'"],
        "form-action": ["'self'"],
        "base-uri": ["'none'"],
        "object-src": ["'none'"],
    }
    assert response["X-Frame-Options"] == "DENY"
    assert response["X-Content-Type-Options"] == "nosniff"
    assert response["Referrer-Policy"] == "same-origin"


@pytest.mark.django_db
def test_the_api_docs_need_no_inline_script():
    client = Client()

    page = client.get("/api/docs/")
    html = page.content.decode()
    scripts = re.findall(r"<script([^>]*)>", html)
    init = re.search(r'<script src="([^"]*\?[^"]*script[^"]*)"', html)
    code = client.get(init.group(1).replace("&amp;", "&")) if init else None

    assert page.status_code == 200
    assert scripts and all("src=" in attributes for attributes in scripts)
    assert code is not None and code.status_code == 200
    assert "SwaggerUIBundle" in code.content.decode()
    assert "/static/" in html  # Swagger UI from our own static files, not a CDN
