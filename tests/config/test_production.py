"""Production mode end to end: collectstatic, then the ASGI app under uvicorn with DEBUG off."""

from __future__ import annotations

import re
import subprocess
import urllib.error
import urllib.request

import pytest

from tests.config.support import (
    PYTHON,
    ROOT,
    clean_env,
    free_port,
    stop,
    strong_key,
    wait_for_port,
)


def get(url: str) -> tuple[int, dict[str, str], bytes]:
    try:
        with urllib.request.urlopen(url, timeout=90) as response:
            return (
                response.status,
                {k.lower(): v for k, v in response.headers.items()},
                response.read(),
            )
    except urllib.error.HTTPError as error:
        return error.code, {k.lower(): v for k, v in error.headers.items()}, error.read()


@pytest.mark.long
@pytest.mark.slow
def test_the_site_serves_pages_admin_api_and_hashed_static_files_with_debug_off(tmp_path):
    env = clean_env(
        DEBUG="false",
        SECRET_KEY=strong_key(),
        ALLOWED_HOSTS="127.0.0.1",
        HTTPS="false",
        STATIC_MANIFEST="true",
        STATIC_ROOT=str(tmp_path / "static"),
        SQLITE_PATH=str(tmp_path / "db.sqlite3"),
    )
    for command in (["collectstatic", "--noinput"], ["migrate", "--noinput"]):
        done = subprocess.run(
            [PYTHON, "manage.py", *command, "-v", "0"],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert done.returncode == 0, done.stderr
    assert (tmp_path / "static" / "staticfiles.json").exists()

    port = free_port()
    log = (tmp_path / "server.log").open("w+")
    server = subprocess.Popen(
        [PYTHON, "-m", "config.serving", "--port", str(port)],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    try:
        wait_for_port(port, process=server)
        base = f"http://127.0.0.1:{port}"
        answers = {path: get(base + path) for path in ["/", "/rules/munger/", "/admin/login/"]}
        answers["/api/dailies/"] = get(base + "/api/dailies/")
        answers["/healthz/"] = get(base + "/healthz/")
        home = answers["/"][2].decode()
        css = re.search(r'href="(/static/frontend/site\.[0-9a-f]{12}\.css)"', home)
        static = get(base + css.group(1)) if css else None
        missing = get(base + "/api/no-such-endpoint/")
    finally:
        stop(server)
        log.seek(0)
        server_log = log.read()
        log.close()

    for path, (status, _, body) in answers.items():
        assert status == 200, (path, body[:500], server_log)
    assert css is not None, home
    assert "default-src 'self'" in answers["/"][1]["content-security-policy"]
    assert b'"status": "ok"' in answers["/healthz/"][2]
    assert static is not None and static[0] == 200
    assert "immutable" in static[1].get("cache-control", "")
    assert missing[0] == 404
    assert "Missing staticfiles manifest entry" not in server_log
    assert "Traceback" not in server_log
