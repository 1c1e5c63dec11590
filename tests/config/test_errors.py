"""Error answers: JSON under /api/, short pages elsewhere, never internals (config/errors.py)."""

from __future__ import annotations

import logging
import subprocess

import pytest
from django.contrib.auth.models import User
from django.test import Client
from rest_framework.test import APIClient

from tests.config.boom_urls import SECRET_IN_MESSAGE
from tests.config.support import PYTHON, ROOT, clean_env, strong_key

DATABASE_URL = "postgres://patience:hunter2-db-password@db.internal:5432/patience"
REDIS_URL = "redis://:hunter2-redis-password@cache.internal:6379/0"
SECRETS = (b"hunter2", b"db.internal", b"cache.internal")


@pytest.fixture
def boom_urls(settings):
    settings.ROOT_URLCONF = "tests.config.boom_urls"


@pytest.fixture
def secret_urls(settings):
    """Settings holding credentials, as in production."""
    settings.DATABASE_URL = DATABASE_URL
    settings.REDIS_URL = REDIS_URL
    settings.CELERY_BROKER_URL = REDIS_URL
    settings.CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
        "other": {"BACKEND": "django.core.cache.backends.dummy.DummyCache", "LOCATION": REDIS_URL},
    }


def quiet_client() -> Client:
    return Client(raise_request_exception=False)


def assert_no_secrets(body: bytes) -> None:
    for secret in SECRETS:
        assert secret not in body


@pytest.mark.django_db
def test_an_unhandled_exception_under_api_is_json_500_and_its_traceback_is_logged(
    boom_urls, caplog
):
    with caplog.at_level(logging.ERROR, logger="django.request"):
        response = quiet_client().get("/api/test-boom/")

    assert response.status_code == 500
    assert response["Content-Type"] == "application/json"
    body = response.json()
    assert body["code"] == "server_error"
    assert body["detail"]
    assert SECRET_IN_MESSAGE not in body["detail"]
    logged = [r for r in caplog.records if r.name == "django.request"]
    assert logged and logged[-1].exc_info is not None
    assert "RuntimeError" in caplog.text


@pytest.mark.django_db
def test_an_unhandled_exception_on_a_page_is_a_friendly_page_without_details(boom_urls):
    response = quiet_client().get("/test-boom/")

    assert response.status_code == 500
    assert response["Content-Type"].startswith("text/html")
    html = response.content.decode()
    assert "Something went wrong" in html
    assert "RuntimeError" not in html
    assert "Traceback" not in html


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/api/test-no-database/", "/test-no-database/"])
def test_a_database_that_cannot_be_reached_is_503_with_retry_after(boom_urls, path):
    response = quiet_client().get(path)

    assert response.status_code == 503
    assert int(response["Retry-After"]) > 0
    if path.startswith("/api/"):
        body = response.json()
        assert body["code"] == "database_unavailable"
        assert body["retry_after"] == int(response["Retry-After"])
    else:
        assert response["Content-Type"].startswith("text/html")
    assert b"127.0.0.1" not in response.content


@pytest.mark.django_db
def test_a_csrf_failure_under_api_is_json(boom_urls):
    User.objects.create_user(username="alice", password="x")
    client = Client(enforce_csrf_checks=True)
    client.force_login(User.objects.get())

    api = client.post("/api/test-form/", {"a": "b"})
    page = client.post("/test-form/", {"a": "b"})

    assert api.status_code == 403
    assert api.json()["code"] == "csrf_failed"
    assert page.status_code == 403
    assert page["Content-Type"].startswith("text/html")


@pytest.mark.django_db
@pytest.mark.parametrize("debug", [False, True], ids=["production", "debug"])
def test_a_form_post_to_a_bodiless_endpoint_never_shows_a_technical_page(settings, debug):
    settings.DEBUG = debug
    renderers = ["rest_framework.renderers.JSONRenderer"]
    if debug:
        renderers.append("config.renderers.SafeBrowsableAPIRenderer")
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_RENDERER_CLASSES": renderers}
    settings.DATABASE_URL = DATABASE_URL
    settings.REDIS_URL = REDIS_URL

    for path in ["/api/attempts/1/resign/", "/api/dailies/munger/2020-01-01/attempts/"]:
        response = quiet_client().post(
            path,
            "a=b",
            content_type="application/x-www-form-urlencoded",
            HTTP_ACCEPT="text/html",
        )

        assert response.status_code < 500, response.content[:300]
        assert b"DATABASE_URL" not in response.content
        assert b"REDIS_URL" not in response.content
        assert_no_secrets(response.content)


@pytest.mark.django_db
@pytest.mark.parametrize("debug", [False, True], ids=["production", "debug"])
def test_no_url_setting_appears_in_any_error_page(settings, boom_urls, secret_urls, debug):
    settings.DEBUG = debug
    client = quiet_client()
    answers = [
        client.get("/test-boom/"),
        client.get("/api/test-boom/", HTTP_ACCEPT="text/html"),
        client.get("/test-no-database/"),
        client.get("/api/test-no-database/"),
        client.get("/no-such-page/"),
        client.get("/api/no-such-endpoint/"),
        client.get("/", HTTP_HOST="evil.example"),
        Client(enforce_csrf_checks=True).post("/admin/login/", {"username": "x"}),
        APIClient().post("/api/practice/", "{", content_type="application/json"),
    ]

    for response in answers:
        assert response.status_code >= 400
        assert_no_secrets(response.content)
    if debug:  # the technical page lists the settings, cleansed
        assert b"DATABASE_URL" in answers[0].content
        assert b"REDIS_URL" in answers[0].content


def test_with_debug_off_an_unhandled_exceptions_traceback_goes_to_stderr():
    script = """
import django
django.setup()
from django.test import Client
from django.test.utils import override_settings, setup_test_environment
setup_test_environment()
with override_settings(ROOT_URLCONF="tests.config.boom_urls"):
    response = Client(raise_request_exception=False).get("/api/test-boom/")
print(response.status_code, response.json()["code"])
"""
    done = subprocess.run(
        [PYTHON, "-c", script],
        cwd=ROOT,
        env=clean_env(SECRET_KEY=strong_key(), STATIC_MANIFEST="false"),
        capture_output=True,
        text=True,
        timeout=120,
    )

    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().splitlines()[-1] == "500 server_error"
    assert "ERROR django.request: Internal Server Error: /api/test-boom/" in done.stderr
    assert "Traceback (most recent call last)" in done.stderr
    assert f"RuntimeError: {SECRET_IN_MESSAGE}" in done.stderr
