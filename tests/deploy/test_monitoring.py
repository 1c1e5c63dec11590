"""The monitoring profile's files, checked offline: Prometheus' configuration and alert rules
(`promtool check config`, `promtool check rules`, and the rules' own unit tests with `promtool
test rules`), how compose wires Prometheus and Grafana, the dashboard, the edge's part (no
metrics through it, a request id on every request), and that the guide explains every metric.
Debian's `prometheus` package gives promtool (.ci/run installs it). A real Prometheus scraping a
real server: test_prometheus.py; the edge run for real: test_edge_monitoring.py."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

from infra import metrics

REPO = Path(__file__).resolve().parents[2]
MONITORING = REPO / "deploy/monitoring"
PROMETHEUS_CONFIG = MONITORING / "prometheus.yml"
ALERTS = MONITORING / "alerts.yml"
DASHBOARD = MONITORING / "grafana/dashboards/patience.json"
DATASOURCES = MONITORING / "grafana/provisioning/datasources/prometheus.yml"
DASHBOARD_PROVIDERS = MONITORING / "grafana/provisioning/dashboards/patience.yml"
TEMPLATE = REPO / "deploy/nginx/patience.conf.template"
GUIDE = REPO / "docs/deployment.md"

#: What an operator must hear about (docs/deployment.md, "Runbook").
REQUIRED_ALERTS = {
    "DailyNotReadyForTomorrow",
    "ServerErrors",
    "DatabasePoolWaits",
    "ReviewQueueGrowing",
}


def promtool() -> str:
    found = shutil.which("promtool")
    assert found, "promtool is missing: apt-get install -y --no-install-recommends prometheus"
    return found


def services() -> dict[str, dict]:
    return yaml.safe_load((REPO / "docker-compose.yml").read_text())["services"]


def config() -> dict:
    return yaml.safe_load(PROMETHEUS_CONFIG.read_text())


def web_job() -> dict:
    [job] = [job for job in config()["scrape_configs"] if job["job_name"] == "patience-web"]
    return job


def rules() -> list[dict]:
    return [
        rule for group in yaml.safe_load(ALERTS.read_text())["groups"] for rule in group["rules"]
    ]


def expressions() -> dict[str, str]:
    """Every PromQL expression of the rules and of the dashboard, by where it is."""
    found = {f"alert {rule['alert']}": rule["expr"] for rule in rules()}
    for panel in json.loads(DASHBOARD.read_text())["panels"]:
        for target in panel.get("targets", []):
            found[f"panel {panel['title']} {target['refId']}"] = target["expr"]
    return found


def metric_names(expression: str) -> set[str]:
    return set(re.findall(r"\b(patience_[a-z_]+|up)\b(?!\s*\()", expression))


def exposed() -> dict[str, str]:
    """The metrics a scrape of this process names (whether counted yet or not), by type; the
    Celery queues' lengths too, which only Redis answers."""
    from django.conf import settings

    redis_url, settings.REDIS_URL = settings.REDIS_URL, ""
    try:
        text = metrics.exposition().decode()
    finally:
        settings.REDIS_URL = redis_url
    types = dict(re.findall(r"^# TYPE (\S+) (\S+)$", text, re.M))
    return {**types, "patience_celery_queue_length": "gauge"}


# -- promtool ------------------------------------------------------------------------------------


def test_promtool_accepts_the_configuration(tmp_path):
    # The token file is compose's secret in the container; here a file of the test's.
    token = tmp_path / "metrics_token"
    token.write_text("x" * 40)
    text = PROMETHEUS_CONFIG.read_text()
    assert "/run/secrets/metrics_token" in text
    (tmp_path / "prometheus.yml").write_text(text.replace("/run/secrets/metrics_token", str(token)))
    shutil.copy(ALERTS, tmp_path / "alerts.yml")

    done = subprocess.run(
        [promtool(), "check", "config", str(tmp_path / "prometheus.yml")],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "SUCCESS" in done.stdout + done.stderr


def test_promtool_accepts_the_rules_and_their_tests_pass():
    checked = subprocess.run(
        [promtool(), "check", "rules", str(ALERTS)], capture_output=True, text=True, timeout=60
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
    tested = subprocess.run(
        [promtool(), "test", "rules", "alerts.test.yml"],
        cwd=MONITORING,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert tested.returncode == 0, tested.stdout + tested.stderr


def test_the_rules_alert_on_what_an_operator_must_hear_about_and_each_is_tested():
    names = {rule["alert"] for rule in rules()}
    assert names >= REQUIRED_ALERTS
    tests = yaml.safe_load((MONITORING / "alerts.test.yml").read_text())["tests"]
    tested = {case["alertname"] for test in tests for case in test["alert_rule_test"]}
    assert tested == names, f"untested rules: {sorted(names - tested)}"
    for rule in rules():
        assert rule["labels"]["severity"] in {"critical", "warning"}, rule["alert"]
        assert rule["annotations"]["runbook"] == "docs/deployment.md#runbook", rule["alert"]


# -- what they read exists ------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_rules_and_the_dashboard_read_metrics_the_service_exposes():
    names = {"up"}
    for name, kind in exposed().items():
        names.add(name)
        if kind == "histogram":
            names |= {f"{name}_bucket", f"{name}_sum", f"{name}_count"}

    for where, expression in expressions().items():
        unknown = metric_names(expression) - names
        assert not unknown, f"{where} reads {sorted(unknown)}"


@pytest.mark.django_db
def test_the_guide_says_what_each_metric_means_and_what_to_do_on_each_alert():
    guide = GUIDE.read_text()
    section = guide[guide.index("## Metrics and alerts") :]
    section = section[: section.index("\n## ", 1)]
    for name in exposed():
        if name.startswith("patience_"):
            assert f"`{name}`" in section, f"docs/deployment.md does not explain {name}"
    for alert in {rule["alert"] for rule in rules()}:
        assert f"**{alert}**" in section, f"the runbook does not say what to do on {alert}"


# -- compose ---------------------------------------------------------------------------------------


def test_prometheus_scrapes_every_web_container_with_the_token():
    prometheus = services()["prometheus"]
    job = web_job()
    assert job["metrics_path"] == metrics.PATH
    assert job["authorization"]["type"] == "Bearer"
    # The token: compose's secret, from METRICS_TOKEN in .env, which the web reads too.
    document = yaml.safe_load((REPO / "docker-compose.yml").read_text())
    assert document["secrets"]["metrics_token"] == {"environment": "METRICS_TOKEN"}
    assert prometheus["secrets"] == ["metrics_token"]
    assert job["authorization"]["credentials_file"] == "/run/secrets/metrics_token"
    # Every replica of the web service, on the port it exposes.
    [dns] = job["dns_sd_configs"]
    assert dns["names"] == ["web"] and dns["type"] == "A"
    assert [str(p) for p in services()["web"]["expose"]] == [str(dns["port"])]
    assert "backend" in prometheus["networks"]
    assert prometheus["depends_on"] == {"web": {"condition": "service_healthy"}}


def test_prometheus_gets_its_files_where_its_configuration_says():
    prometheus = services()["prometheus"]
    mounts = {m.split(":")[0]: m.split(":")[1] for m in prometheus["volumes"]}
    assert mounts["./deploy/monitoring/prometheus.yml"] == "/etc/prometheus/prometheus.yml"
    assert "--config.file=/etc/prometheus/prometheus.yml" in prometheus["command"]
    for rule_file in config()["rule_files"]:
        assert (MONITORING / rule_file).is_file(), rule_file
        assert mounts[f"./deploy/monitoring/{rule_file}"] == f"/etc/prometheus/{rule_file}"


def test_grafana_is_provisioned_with_prometheus_and_the_dashboard():
    grafana = services()["grafana"]
    mounts = {m.split(":")[0]: m.split(":")[1] for m in grafana["volumes"]}
    assert mounts["./deploy/monitoring/grafana/provisioning"] == "/etc/grafana/provisioning"
    [source] = yaml.safe_load(DATASOURCES.read_text())["datasources"]
    assert source["url"] == "http://prometheus:9090" and source["type"] == "prometheus"
    [provider] = yaml.safe_load(DASHBOARD_PROVIDERS.read_text())["providers"]
    assert mounts["./deploy/monitoring/grafana/dashboards"] == provider["options"]["path"]
    dashboard = json.loads(DASHBOARD.read_text())
    uids = {
        panel["datasource"]["uid"]
        for panel in dashboard["panels"]
        if panel["type"] != "row" and "datasource" in panel
    }
    assert uids == {source["uid"]}
    assert "monitoring" in grafana["networks"]
    assert grafana["depends_on"] == {"prometheus": {"condition": "service_healthy"}}


def test_the_web_server_runs_gunicorn_with_the_settings_that_add_up_its_workers():
    dockerfile = (REPO / "Dockerfile").read_text()
    assert "-c python:config.gunicorn" in dockerfile
    assert (REPO / "config/gunicorn.py").is_file()


# -- the edge --------------------------------------------------------------------------------------


def test_the_edge_never_serves_the_metrics_and_gives_every_request_an_id():
    template = TEMPLATE.read_text()
    blocked = re.search(r"location \^~ /metrics \{\s*return 404;\s*\}", template)
    assert blocked, "the edge refuses /metrics (and all below it) itself"
    mapped = re.search(
        r"map \$http_x_request_id \$patience_request_id \{\s*default \$http_x_request_id;\s*"
        r"''\s*\$request_id;\s*\}",
        template,
    )
    assert mapped, "a request without X-Request-ID gets nginx's $request_id"
    assert "proxy_set_header X-Request-ID $patience_request_id;" in template


def test_ci_installs_prometheus():
    run = (REPO / ".ci/run").read_text()
    install = next(line for line in run.splitlines() if "apt-get install" in line)
    assert "prometheus" in install.split()
