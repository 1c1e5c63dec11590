"""Error reports (config/reporting.py): off without SENTRY_DSN; with it, the event of a view that
raises reaches Sentry's transport without cookies, player tokens, IP addresses, request bodies
or local variables, tagged with the request's id. Each in a process of its own: the SDK, once
set up, patches Django for the rest of the process."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from tests.config.support import PYTHON, ROOT, clean_env, strong_key

pytestmark = pytest.mark.slow

SCRIPT = """
import asyncio, json, sys
import django
django.setup()
import sentry_sdk
from sentry_sdk.transport import Transport
from django.conf import settings
from django.test.utils import override_settings

print(json.dumps({"active": sentry_sdk.get_client().is_active()}))
if not settings.SENTRY_DSN:
    sys.exit(0)
options = sentry_sdk.get_client().options
pii, local_variables = options["send_default_pii"], options["include_local_variables"]
print(json.dumps({"pii": pii, "locals": local_variables}))


class Capture(Transport):
    def __init__(self, options=None):
        super().__init__(options)
        self.events = []

    def capture_envelope(self, envelope):
        event = envelope.get_event()
        if event is not None:
            self.events.append(event)


capture = Capture()
from config.reporting import sentry_init
sentry_init(settings.SENTRY_DSN, environment=settings.SENTRY_ENVIRONMENT, transport=capture)

from channels.testing import HttpCommunicator
from config.asgi import application

async def boom():
    communicator = HttpCommunicator(
        application, "POST", "/api/test-boom-post/?token=QUERY-SECRET",
        body=b'{"password": "BODY-SECRET-1"}',
        headers=[
            (b"host", b"localhost"),
            (b"content-type", b"application/json"),
            (b"cookie", b"patience_player=COOKIE-TOKEN-1; csrftoken=CSRF-COOKIE-2"),
            (b"authorization", b"Bearer HEADER-TOKEN-3"),
            (b"x-forwarded-for", b"198.51.100.23"),
            (b"x-real-ip", b"198.51.100.24"),
            (b"x-request-id", b"sentry-check-1"),
            (b"user-agent", b"probe/1.0"),
        ],
    )
    communicator.scope["client"] = ("192.0.2.77", 50000)
    return await communicator.get_response(timeout=10)

with override_settings(ROOT_URLCONF="tests.config.boom_urls"):
    response = asyncio.run(boom())
assert response["status"] == 500, response
sentry_sdk.flush()
print(json.dumps({"events": capture.events}, default=str))
"""


def run(tmp_path: Path, **env: str) -> list[dict]:
    done = subprocess.run(
        [PYTHON, "-c", SCRIPT],
        cwd=ROOT,
        env=clean_env(
            SECRET_KEY=strong_key(),
            STATIC_MANIFEST="false",
            SQLITE_PATH=str(tmp_path / "db.sqlite3"),
            **env,
        ),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    return [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]


def raised(event: dict) -> str | None:
    values = event.get("exception", {}).get("values") or [{}]
    return values[-1].get("type")


def test_without_a_dsn_nothing_is_reported(tmp_path):
    assert run(tmp_path) == [{"active": False}]


def test_the_event_of_a_view_that_raises_carries_nothing_personal(tmp_path):
    active, options, sent = run(
        tmp_path, SENTRY_DSN="https://public@sentry.example/1", SENTRY_ENVIRONMENT="staging"
    )
    assert active == {"active": True}
    assert options == {"pii": False, "locals": False}

    [event] = [e for e in sent["events"] if raised(e) == "RuntimeError"]
    text = json.dumps(sent["events"])  # every event sent, the boom's and any other
    # What happened is there: the exception, where, which request, which id.
    assert event["exception"]["values"][-1]["type"] == "RuntimeError"
    assert event["environment"] == "staging"
    assert event["request"]["method"] == "POST"
    assert event["request"]["url"].endswith("/api/test-boom-post/")
    assert event["request"]["headers"] == {
        "host": "localhost",
        "content-type": "application/json",
        "user-agent": "probe/1.0",
    }
    assert event["tags"]["request_id"] == "sentry-check-1"
    # Nothing personal: cookies, tokens, the body, the query string, addresses, locals.
    for secret in (
        "COOKIE-TOKEN-1",
        "CSRF-COOKIE-2",
        "HEADER-TOKEN-3",
        "BODY-SECRET-1",
        "QUERY-SECRET",
        "198.51.100.23",
        "198.51.100.24",
        "192.0.2.77",
    ):
        assert secret not in text, secret
    for key in ("cookies", "data", "env", "query_string"):
        assert key not in event["request"], key
    assert "user" not in event
    frames = event["exception"]["values"][-1]["stacktrace"]["frames"]
    assert frames and not any("vars" in frame for frame in frames)
