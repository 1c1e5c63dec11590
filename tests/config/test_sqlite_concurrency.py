"""The embedded SQLite database holds many players at once (config/settings.py DATABASES).

Twenty guests start today's daily at the same moment against a uvicorn server on a SQLite
file, then each plays five moves: no "database is locked", every answer 2xx.
"""

from __future__ import annotations

import json
import subprocess
import threading
import urllib.error
import urllib.request
from http.cookiejar import CookieJar, DefaultCookiePolicy

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

PLAYERS = 20
MOVES = 5


class LoopbackCookiePolicy(DefaultCookiePolicy):
    """Send Secure cookies to http://127.0.0.1, as browsers do for loopback addresses."""

    def return_ok_secure(self, cookie, request) -> bool:
        return True


class Browser:
    def __init__(self, base: str) -> None:
        self.base = base
        jar = CookieJar(policy=LoopbackCookiePolicy())
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))

    def call(self, method: str, path: str, body: dict | None = None) -> tuple[int, dict]:
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(self.base + path, data=data, method=method)
        if data is not None:
            request.add_header("Content-Type", "application/json")
        try:
            with self.opener.open(request, timeout=60) as response:
                return response.status, json.loads(response.read())
        except urllib.error.HTTPError as error:
            return error.code, {"error": error.read().decode(errors="replace")[:300]}


@pytest.mark.long
@pytest.mark.slow
def test_twenty_guests_start_and_play_at_once_on_sqlite(tmp_path):
    env = clean_env(
        SECRET_KEY=strong_key(),
        ALLOWED_HOSTS="127.0.0.1",
        STATIC_MANIFEST="false",
        SQLITE_PATH=str(tmp_path / "db.sqlite3"),
        # Twenty guests from one address: more than a household's ranked rows.
        RANKED_STARTS_PER_ADDRESS="100",
        RANKED_STARTS_PER_NETWORK="100",
    )
    for command in (
        ["migrate", "--noinput", "-v", "0"],
        ["schedule_dailies", "--days", "1", "--candidates", "2"],
    ):
        done = subprocess.run(
            [PYTHON, "manage.py", *command],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=600,
        )
        # schedule_dailies exits 1 when a game found no solvable deal: the other one will do.
        assert done.returncode in ((0, 1) if command[0] == "schedule_dailies" else (0,))
        assert "Traceback" not in done.stderr, done.stderr

    port = free_port()
    log = (tmp_path / "server.log").open("w+")
    server = subprocess.Popen(
        [PYTHON, "-m", "config.serving", "--port", str(port)],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    answers: list[tuple[str, int, dict]] = []
    try:
        wait_for_port(port, process=server)
        base = f"http://127.0.0.1:{port}"
        status, dailies = Browser(base).call("GET", "/api/dailies/")
        assert status == 200 and dailies, dailies
        munger = [d for d in dailies if d["game"] == "munger"]
        daily = (munger or dailies)[0]
        start_path = f"/api/dailies/{daily['game']}/{daily['date']}/attempts/"
        barrier = threading.Barrier(PLAYERS)

        def play() -> None:
            browser = Browser(base)
            barrier.wait()
            status, state = browser.call("POST", start_path)
            answers.append(("start", status, state))
            for _ in range(MOVES):
                if status >= 300 or not state.get("legal"):
                    return
                status, state = browser.call(
                    "POST",
                    f"/api/attempts/{state['id']}/moves/",
                    {"seq": state["seq"], "move": state["legal"][0]},
                )
                answers.append(("move", status, state))

        threads = [threading.Thread(target=play) for _ in range(PLAYERS)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=300)
    finally:
        stop(server)
        log.seek(0)
        server_log = log.read()
        log.close()

    failures = [answer for answer in answers if not 200 <= answer[1] < 300]
    assert not failures, (failures[:3], server_log[-3000:])
    assert sum(1 for kind, _, _ in answers if kind == "start") == PLAYERS
    assert sum(1 for kind, _, _ in answers if kind == "move") >= PLAYERS
    assert "database is locked" not in server_log
