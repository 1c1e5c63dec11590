"""The image's web server, run for real: gunicorn with two uvicorn workers and config/gunicorn.py,
as the Dockerfile's command starts it. Whichever worker answers `/metrics`, it answers for both
(prometheus_client's multiprocess mode); what a last run left in the folder is gone at start;
a worker that dies stops counting in the gauges, not in the counters."""

from __future__ import annotations

import os
import signal
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from prometheus_client.parser import text_string_to_metric_families

from tests.faults.live import dailies_ready
from tests.support import (
    PYTHON,
    ROOT,
    database_url,
    free_port,
    server_env,
    stop,
    wait_for_port,
    wait_until,
)

pytestmark = [pytest.mark.slow, pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

TOKEN = "g" * 40
ROUTE = "api-not-found"


class Gunicorn:
    def __init__(self, folder: Path, log: Path) -> None:
        self.port = free_port()
        self.folder = folder
        self.log = log
        self.process: subprocess.Popen | None = None

    def start(self) -> Gunicorn:
        env = server_env(
            database=database_url(), METRICS_TOKEN=TOKEN, PROMETHEUS_MULTIPROC_DIR=str(self.folder)
        )
        with self.log.open("ab") as out:
            self.process = subprocess.Popen(
                [PYTHON, "-m", "gunicorn", "config.server:application"]
                + ["-c", "python:config.gunicorn", "-k", "config.serving.Worker"]
                + ["--bind", f"127.0.0.1:{self.port}", "--workers", "2"]
                + ["--graceful-timeout", "5"],
                cwd=ROOT,
                env=env,
                stdout=out,
                stderr=subprocess.STDOUT,
            )
        wait_for_port(self.port, process=self.process)
        wait_until(lambda: len(self.workers()) == 2, timeout=60, what="two workers")
        # Both workers answer (each has loaded the application).
        wait_until(lambda: self.get("/healthz/live/")[0] == 200, timeout=60, what="health")
        return self

    def workers(self) -> list[int]:
        assert self.process is not None
        children = Path(f"/proc/{self.process.pid}/task/{self.process.pid}/children")
        try:
            return [int(pid) for pid in children.read_text().split()]
        except FileNotFoundError:
            return []

    def get(self, path: str, token: str | None = None) -> tuple[int, str]:
        request = urllib.request.Request(f"http://127.0.0.1:{self.port}{path}")
        if token:
            request.add_header("Authorization", f"Bearer {token}")
        try:
            with urllib.request.urlopen(request, timeout=20) as response:
                return response.status, response.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode()

    def metric(self, name: str, **labels: str) -> float:
        status, text = self.get("/metrics", TOKEN)
        assert status == 200, text
        return sum(
            sample.value
            for family in text_string_to_metric_families(text)
            for sample in family.samples
            if sample.name == name and labels.items() <= sample.labels.items()
        )


@pytest.fixture
def gunicorn(tmp_path) -> Iterator[Gunicorn]:
    server = Gunicorn(tmp_path / "metrics", tmp_path / "gunicorn.log")
    yield server
    stop(server.process)
    print(server.log.read_text(errors="replace")[-6000:])


def stale_counts(folder: Path) -> None:
    """What a last run left: 1000 requests counted in the folder."""
    code = (
        "from infra import metrics; "
        f"metrics.HTTP_REQUESTS.labels({ROUTE!r}, 'GET', '404').inc(1000)"
    )
    env = {**os.environ, "PROMETHEUS_MULTIPROC_DIR": str(folder), "PYTHONPATH": str(ROOT)}
    subprocess.run([PYTHON, "-c", code], cwd=ROOT, env=env, check=True)


def test_the_workers_metrics_are_added_up_and_the_last_runs_are_gone(gunicorn):
    dailies_ready()  # the server has no day to prepare (it would solve deals meanwhile)
    gunicorn.folder.mkdir()
    stale_counts(gunicorn.folder)
    assert list(gunicorn.folder.iterdir())
    gunicorn.start()

    requests = 24
    for _ in range(requests):  # each on a connection of its own: either worker may take it
        assert gunicorn.get("/api/nothing-here/")[0] == 404
    counted = {gunicorn.metric("patience_http_requests_total", route=ROUTE) for _ in range(10)}
    assert counted == {requests}, counted  # the same total whoever answers, nothing stale
    # Each worker keeps its own file.
    assert {path.name for path in gunicorn.folder.glob("counter_*.db")} >= {
        f"counter_{pid}.db" for pid in gunicorn.workers()
    }

    # A worker killed: gunicorn starts another; its requests still count, its gauges do not.
    killed = gunicorn.workers()[0]
    os.kill(killed, signal.SIGKILL)
    wait_until(
        lambda: killed not in gunicorn.workers() and len(gunicorn.workers()) == 2,
        timeout=60,
        what="a new worker",
    )
    wait_until(
        lambda: not list(gunicorn.folder.glob(f"gauge_livesum_{killed}.db")),
        timeout=30,
        what="the dead worker's gauges marked dead",
    )
    time.sleep(1)  # the new worker loads the application
    assert gunicorn.metric("patience_http_requests_total", route=ROUTE) == requests
    # Without the token, nobody: the site's 404.
    assert gunicorn.get("/metrics")[0] == 404
