"""The health checks, `/healthz/` and `/healthz/live/` (config/health.py), asked through the
ASGI application as a load balancer asks a server process."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import threading
import time

import pytest
from channels.testing import HttpCommunicator
from django.test import Client

from config import health
from tests.config.support import PYTHON, ROOT, clean_env, free_port

pytestmark = pytest.mark.django_db


def application():
    from config.asgi import application as app

    return app


async def ask(path: str = "/healthz/", method: str = "GET", host: bytes = b"localhost"):
    communicator = HttpCommunicator(application(), method, path, headers=[(b"host", host)])
    response = await communicator.get_response(timeout=10)
    body = response["body"]
    return response["status"], (json.loads(body) if body else None), dict(response["headers"])


@pytest.fixture(autouse=True)
def fresh_answers(monkeypatch):
    """Every test starts with no answer kept (answers are kept per event loop anyway)."""
    monkeypatch.setattr(health, "_checks", type(health._checks)())


@pytest.fixture
def no_redis(settings):
    settings.REDIS_URL = ""


async def test_all_is_well_without_redis(no_redis):
    assert (await ask())[:2] == (
        200,
        {
            "status": "ok",
            "checks": {"database": "ok", "redis": "not configured", "channel_layer": "ok"},
        },
    )


@pytest.mark.redis
async def test_with_redis_every_check_is_ok():
    status, body, headers = await ask()

    assert (status, body["status"]) == (200, "ok")
    assert body["checks"] == {"database": "ok", "redis": "ok", "channel_layer": "ok"}
    assert headers[b"cache-control"] == b"no-store"


async def test_redis_down_is_degraded_and_still_in_service(settings):
    """Every process sees the same Redis: taking them all out would stop play, which works."""
    settings.REDIS_URL = f"redis://127.0.0.1:{free_port()}/0"

    status, body, _ = await ask()

    assert status == 200
    assert body["status"] == "degraded"
    assert body["checks"]["redis"] == "down"
    assert body["checks"]["database"] == "ok"


@pytest.mark.redis
async def test_a_channel_layer_that_fails_while_redis_answers_takes_the_process_out(settings):
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "realtime.layer.ReaderChannelLayer",
            "CONFIG": {"hosts": [f"redis://127.0.0.1:{free_port()}/0"]},
        }
    }

    status, body, _ = await ask()

    assert status == 503
    assert body["status"] == "degraded"
    assert body["checks"]["channel_layer"] == "down"
    assert body["checks"]["redis"] == "ok"


async def test_the_database_down_is_down(monkeypatch, no_redis):
    def broken() -> str:
        raise ConnectionError("no database")

    monkeypatch.setattr(health, "check_database", broken)

    status, body, _ = await ask()
    live_status, live, _ = await ask("/healthz/live/")

    assert (status, body["status"], body["checks"]["database"]) == (503, "down", "down")
    assert (live_status, live) == (200, {"status": "ok"})


async def test_a_hung_check_answers_down_by_its_deadline(monkeypatch, no_redis):
    monkeypatch.setattr(health, "DATABASE_TIMEOUT", 0.2)
    release = threading.Event()

    def hangs() -> str:
        release.wait(10)
        return health.OK

    monkeypatch.setattr(health, "check_database", hangs)
    try:
        status, body, _ = await asyncio.wait_for(ask(), 5)
    finally:
        release.set()

    assert (status, body["checks"]["database"]) == (503, "down")


async def test_many_askers_at_once_and_soon_after_share_one_check(monkeypatch, no_redis):
    runs = []
    real = health.check_database

    def counted() -> str:
        runs.append(1)
        time.sleep(0.1)  # still running when the other askers arrive
        return real()

    monkeypatch.setattr(health, "check_database", counted)

    answers = await asyncio.gather(*(ask() for _ in range(40)))
    again = await ask()

    assert {status for status, _, _ in answers} == {200}
    assert again[0] == 200
    assert len(runs) == 1


async def test_the_answer_never_reaches_django(settings, no_redis):
    """No allowed Host, no HTTPS, and Django would refuse (400) or redirect (301)."""
    settings.ALLOWED_HOSTS = ["patience.example"]
    settings.SECURE_SSL_REDIRECT = True

    assert (await ask(host=b"10.0.0.7:8000"))[0] == 200
    assert (await ask("/healthz/live/", host=b"10.0.0.7:8000"))[0] == 200
    assert Client(HTTP_HOST="patience.example").get("/").status_code == 301


async def test_only_get_and_head_are_answered(no_redis):
    status, body, _ = await ask(method="POST")
    head_status, head_body, head_headers = await ask(method="HEAD")

    assert (status, body["code"]) == (405, "method_not_allowed")
    assert (head_status, head_body) == (200, None)
    assert int(head_headers[b"content-length"]) > 0


@pytest.mark.slow
def test_without_the_database_health_is_down_and_the_api_answers_503():
    """A PostgreSQL server that cannot be reached (nothing listens on the port)."""
    script = """
import asyncio, json
import django
django.setup()
from channels.testing import HttpCommunicator
from django.test import Client
from config.asgi import application

async def healthz():
    response = await HttpCommunicator(application, "GET", "/healthz/").get_response(timeout=20)
    return response["status"], json.loads(response["body"])

status, body = asyncio.run(healthz())
client = Client()
a = client.get("/api/dailies/")
p = client.get("/")
print(status, body["status"], body["checks"]["database"])
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
