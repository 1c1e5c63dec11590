"""GET /healthz/: the database, Redis and the channel layer (config/health.py)."""

from __future__ import annotations

import os
import subprocess

import pytest
from django.test import Client

from tests.config.support import PYTHON, ROOT, clean_env, free_port


def health(client: Client | None = None, **extra):
    response = (client or Client()).get("/healthz/", **extra)
    return response.status_code, response.json()


@pytest.mark.django_db
def test_all_is_well_without_redis(settings):
    settings.REDIS_URL = ""

    assert health() == (
        200,
        {
            "status": "ok",
            "checks": {"database": "ok", "redis": "not configured", "channel_layer": "ok"},
        },
    )


@pytest.mark.django_db
def test_redis_down_is_degraded_not_down(settings):
    settings.REDIS_URL = f"redis://127.0.0.1:{free_port()}/0"

    status, body = health()

    assert status == 503
    assert body["status"] == "degraded"
    assert body["checks"]["redis"] == "down"
    assert body["checks"]["database"] == "ok"


@pytest.mark.django_db
def test_a_channel_layer_that_cannot_be_reached_is_degraded(settings):
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {"hosts": [f"redis://127.0.0.1:{free_port()}/0"]},
        }
    }

    status, body = health()

    assert status == 503
    assert body["status"] == "degraded"
    assert body["checks"]["channel_layer"] == "down"


@pytest.mark.redis
@pytest.mark.django_db
def test_with_redis_every_check_is_ok():
    status, body = health()

    assert (status, body["checks"]["redis"], body["checks"]["channel_layer"]) == (200, "ok", "ok")


@pytest.mark.django_db
def test_health_checks_over_plain_http_are_not_redirected(settings):
    settings.SECURE_SSL_REDIRECT = True
    settings.SECURE_REDIRECT_EXEMPT = [r"^healthz/$"]

    assert Client().get("/").status_code == 301
    assert health()[0] == 200


@pytest.mark.slow
def test_without_the_database_health_is_down_and_the_api_answers_503():
    """A PostgreSQL server that cannot be reached (nothing listens on the port)."""
    script = """
import django
django.setup()
from django.test import Client
client = Client()
h = client.get("/healthz/")
a = client.get("/api/dailies/")
p = client.get("/")
print(h.status_code, h.json()["status"], h.json()["checks"]["database"])
print(a.status_code, a.json()["code"], a["Retry-After"])
print(p.status_code, p["Content-Type"])
"""
    env = clean_env(
        DATABASE_URL=f"postgres://postgres@127.0.0.1:{free_port()}/patience",
        ALLOWED_HOSTS="testserver",
        HTTPS="false",
        STATIC_MANIFEST="false",
        SECRET_KEY=os.urandom(40).hex(),
    )

    done = subprocess.run(
        [PYTHON, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )

    assert done.returncode == 0, done.stderr
    health_line, api_line, page_line = done.stdout.strip().splitlines()[-3:]
    assert health_line == "503 down down"
    assert api_line.startswith("503 database_unavailable ")
    assert page_line.startswith("503 text/html")
