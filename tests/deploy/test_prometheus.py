"""A real Prometheus (Debian's `prometheus`) scraping a real server: the deployment's scrape job
and alert rules (deploy/monitoring/), changed only where a container differs (the target, the
token file, the intervals), against `python -m config.serving` on the test database. Moves
played over the API are the moves Prometheus counts; the dashboard's expressions and the rules
evaluate on what it scraped."""

from __future__ import annotations

import json
import shutil
import subprocess
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.faults.live import dailies_ready
from tests.support import (
    Server,
    database_url,
    free_port,
    server_env,
    stop,
    wait_for_port,
    wait_until,
)

pytestmark = [pytest.mark.slow, pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

REPO = Path(__file__).resolve().parents[2]
MONITORING = REPO / "deploy/monitoring"
TOKEN = "p" * 40
MOVES = 7


class Prometheus:
    """`prometheus` on a free port with the deployment's configuration, pointed at `target`."""

    def __init__(self, folder: Path, target: str) -> None:
        self.folder = folder
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen | None = None
        token = folder / "metrics_token"
        token.write_text(TOKEN)
        config = yaml.safe_load((MONITORING / "prometheus.yml").read_text())
        config["global"].update(scrape_interval="1s", scrape_timeout="1s", evaluation_interval="1s")
        config["rule_files"] = [str(MONITORING / name) for name in config["rule_files"]]
        [job] = [job for job in config["scrape_configs"] if job["job_name"] == "patience-web"]
        assert job["authorization"]["credentials_file"] == "/run/secrets/metrics_token"
        job["authorization"]["credentials_file"] = str(token)
        del job["dns_sd_configs"]  # compose's DNS names the web containers; here, one server
        job["static_configs"] = [{"targets": [target]}]
        config["scrape_configs"] = [job]
        (folder / "prometheus.yml").write_text(yaml.safe_dump(config))

    def start(self) -> Prometheus:
        binary = shutil.which("prometheus")
        assert binary, (
            "prometheus is missing: apt-get install -y --no-install-recommends prometheus"
        )
        with (self.folder / "prometheus.log").open("wb") as out:
            self.process = subprocess.Popen(
                [binary, f"--config.file={self.folder / 'prometheus.yml'}"]
                + [f"--storage.tsdb.path={self.folder / 'data'}"]
                + [f"--web.listen-address=127.0.0.1:{self.port}"],
                stdout=out,
                stderr=subprocess.STDOUT,
            )
        wait_for_port(self.port, timeout=30, process=self.process)
        wait_until(lambda: self.ready(), timeout=30, what="Prometheus ready")
        return self

    def ready(self) -> bool:
        try:
            with urllib.request.urlopen(f"{self.url}/-/ready", timeout=2) as response:
                return response.status == 200
        except (urllib.error.URLError, OSError):
            return False

    def api(self, path: str, **params: str) -> Any:
        query = urllib.parse.urlencode(params)
        with urllib.request.urlopen(f"{self.url}/api/v1/{path}?{query}", timeout=10) as response:
            answer = json.load(response)
        assert answer["status"] == "success", answer
        return answer["data"]

    def value(self, expression: str) -> float | None:
        """The single value of an instant query, None when it has no result."""
        result = self.api("query", query=expression)["result"]
        assert len(result) <= 1, result
        return float(result[0]["value"][1]) if result else None

    def log(self) -> str:
        return (self.folder / "prometheus.log").read_text(errors="replace")


@pytest.fixture
def monitored(tmp_path) -> Iterator[tuple[Server, Prometheus, Any]]:
    daily = dailies_ready("munger")  # no day to prepare: the server solves nothing meanwhile
    server = Server(
        server_env(database=database_url(), METRICS_TOKEN=TOKEN), tmp_path / "server.log"
    ).start()
    prometheus = Prometheus(tmp_path, f"127.0.0.1:{server.port}")
    try:
        prometheus.start()
        yield server, prometheus, daily
    finally:
        stop(prometheus.process)
        server.stop()
        print(f"--- prometheus ---\n{prometheus.log()[-4000:]}")
        print(f"--- server ---\n{server.log()[-4000:]}")


def test_prometheus_counts_the_moves_played(monitored):
    began = time.monotonic()
    server, prometheus, daily = monitored
    player = server.client()
    status, state = player.post(f"/api/dailies/munger/{daily.date.isoformat()}/attempts/")
    assert status == 201, state
    moves = list(daily.deal.certificate)
    assert len(moves) > MOVES
    for seq in range(MOVES):
        status, answer = player.post(
            f"/api/attempts/{state['id']}/moves/", {"seq": seq, "move": moves[seq]}
        )
        assert status == 200, answer
    status, answer = player.post(
        f"/api/attempts/{state['id']}/moves/", {"seq": MOVES + 5, "move": moves[MOVES]}
    )
    assert (status, answer["code"]) == (409, "wrong_seq")

    # Scraped with the token, as the deployment's job does.
    wait_until(lambda: prometheus.value('up{job="patience-web"}') == 1, timeout=30, what="a scrape")
    accepted = 'sum(patience_moves_total{outcome="accepted"})'
    wait_until(lambda: prometheus.value(accepted) == MOVES, timeout=30, what=accepted)
    assert prometheus.value('sum(patience_moves_total{outcome="refused"})') == 1
    assert prometheus.value('sum(patience_moves_total{reason="wrong_seq"})') == 1
    assert (
        prometheus.value(
            'sum(patience_http_requests_total{route="games_api:attempt-moves", status="200"})'
        )
        == MOVES
    )
    # Read at scrape time: today's and tomorrow's dailies of each game.
    assert prometheus.value('max(patience_dailies_ready{game="munger"})') == 2
    assert prometheus.value("max(patience_fairplay_held)") == 0

    # Every expression of the dashboard runs (on what was scraped).
    dashboard = json.loads((MONITORING / "grafana/dashboards/patience.json").read_text())
    for panel in dashboard["panels"]:
        for target in panel.get("targets", []):
            prometheus.api("query", query=target["expr"].replace("$__rate_interval", "1m"))

    # The rules evaluate without error; with two days ready, tomorrow is there but the week
    # ahead is not: DailiesRunningLow is pending (for 2 h before it fires), for both games.
    def evaluated() -> list[dict]:
        groups = prometheus.api("rules")["groups"]
        found = [rule for group in groups for rule in group["rules"]]
        return found if found and all(r["lastEvaluation"][:4] != "0001" for r in found) else []

    rules = {rule["name"]: rule for rule in wait_until(evaluated, timeout=30, what="rules")}
    assert {rule["health"] for rule in rules.values()} == {"ok"}, rules
    assert rules["DailyNotReadyForTomorrow"]["state"] == "inactive"

    def pending() -> list[str]:
        return [
            alert["labels"]["game"]
            for group in prometheus.api("rules")["groups"]
            for rule in group["rules"]
            if rule["name"] == "DailiesRunningLow"
            for alert in rule["alerts"]
            if alert["state"] == "pending"
        ]

    low = wait_until(pending, timeout=30, what="DailiesRunningLow pending")
    assert sorted(low) == ["masterpiece", "munger"]
    print(f"played, scraped and queried in {time.monotonic() - began:.1f} s")
