"""schemathesis against the OpenAPI schema of a live server (`/api/schema/`).

The server runs on the test database with a daily of each game today. schemathesis (its CLI, in
a subprocess) sends about 30 generated requests per operation, once without a cookie and once
with a player's cookie, and checks every answer: no server error (5xx), and every response
documented and matching the schema (status code, content type, body, headers), every request
the schema calls valid accepted (or refused for what only the server can know: a 404 id, a 409
seq, a 422 illegal move; tests/abuse/schemathesis.toml) and every request it calls invalid
refused with a 4xx.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.faults.live import ROOT, Server, dailies_ready

pytestmark = [pytest.mark.slow, pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

EXAMPLES = 30
CHECKS = ",".join(
    [
        "not_a_server_error",
        "status_code_conformance",
        "content_type_conformance",
        "response_schema_conformance",
        "response_headers_conformance",
        "positive_data_acceptance",
        "negative_data_rejection",
        "missing_required_header",
        "unsupported_method",
    ]
)
CONFIG = Path(__file__).with_name("schemathesis.toml")


SCHEMATHESIS = Path(sys.executable).with_name("schemathesis")
NO_SCHEMATHESIS = (
    f"schemathesis is not installed at {SCHEMATHESIS} (.venv/bin/pip install schemathesis==4.32.5)"
)


def schemathesis(server: Server, report: Path, *extra: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [
            str(SCHEMATHESIS),
            "--config-file",
            str(CONFIG),
            "run",
            f"{server.url}/api/schema/",
            "--checks",
            CHECKS,
            "--max-examples",
            str(EXAMPLES),
            "--phases",
            "examples,coverage,fuzzing",
            "--workers",
            "1",
            "--seed",
            "20261201",
            "--generation-deterministic",
            "--request-timeout",
            "20",
            "--continue-on-failure",
            "--no-color",
            "--report",
            "junit",
            "--report-junit-path",
            str(report),
            *extra,
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=900,
    )


def failing_operations(output: str) -> list[str]:
    return sorted(set(re.findall(r"^_+ (\w+ \S+) _+$", output, flags=re.MULTILINE)))


@pytest.mark.long
@pytest.mark.skipif(not SCHEMATHESIS.exists(), reason=NO_SCHEMATHESIS)
@pytest.mark.parametrize("with_cookie", [False, True], ids=["no-cookie", "player-cookie"])
def test_the_api_answers_as_its_schema_says(start_server, tmp_path, with_cookie):
    dailies_ready()
    server = start_server()
    extra: list[str] = []
    if with_cookie:
        player = server.client()
        status, _ = player.post("/api/players/", {"display_name": "Schema Sam"})
        assert status == 201 and player.token
        extra = ["--header", f"Cookie: patience_player={player.token}"]
    done = schemathesis(server, tmp_path / "junit.xml", *extra)
    print(done.stdout[-20000:])
    # The failures in full, with a curl command for each: the JUnit report.
    assert "Traceback" not in done.stderr, done.stderr[-3000:]
    assert done.returncode == 0, failing_operations(done.stdout)
