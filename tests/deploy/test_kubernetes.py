"""The Kubernetes manifests (deploy/kubernetes/), checked offline: no cluster, no kubectl.

Each manifest validates against the Kubernetes API's schema (kubernetes-validate, strict: a
misspelt or misplaced field fails) for `KUBERNETES_VERSIONS`, and the kustomization applies every
one of them but the Secret's example. Then what docker-compose.yml says is held against them:
each app service has its workload, running the same command on the same image with the same
settings (the ConfigMap and the Secret hold what .env gives compose's services); the probes ask
the paths the web process answers, the web pods outlast their own drain, beat runs once, and
every pod runs unprivileged on a read-only root file system with a volume wherever a process
writes.
"""

from __future__ import annotations

import ast
import copy
import json
import re
import shlex
from pathlib import Path
from typing import Any

import kubernetes_validate  # type: ignore[import-untyped]
import pytest
import yaml  # type: ignore[import-untyped]

from config import health
from config.serving import GRACEFUL_SECONDS
from tests.deploy.test_compose import option


def _metrics_dir() -> str:
    """config/gunicorn.py's `METRICS_DIR`, read from its source: importing the module sets
    PROMETHEUS_MULTIPROC_DIR in this process, which every subprocess a later test starts
    would inherit."""
    tree = ast.parse((Path(__file__).resolve().parents[2] / "config/gunicorn.py").read_text())
    for node in tree.body:
        if isinstance(node, ast.Assign) and [
            t.id for t in node.targets if isinstance(t, ast.Name)
        ] == ["METRICS_DIR"]:
            return str(ast.literal_eval(node.value))
    raise AssertionError("config/gunicorn.py names no METRICS_DIR")


METRICS_DIR = _metrics_dir()

REPO = Path(__file__).resolve().parents[2]
KUBERNETES = REPO / "deploy/kubernetes"
KUSTOMIZATION = KUBERNETES / "kustomization.yaml"
COMPOSE_FILE = REPO / "docker-compose.yml"
DOCKERFILE = REPO / "Dockerfile"
ENV_EXAMPLE = REPO / ".env.example"
EDGE_TEMPLATE = REPO / "deploy/nginx/patience.conf.template"
GUIDE = REPO / "docs/deployment.md"

#: The oldest Kubernetes the manifests are for (the preStop `sleep` action needs 1.30), and the
#: newest whose schema the pinned kubernetes-validate holds: an API removed since fails there.
KUBERNETES_VERSIONS = ("1.33", "1.37")

#: Manifests of the folder that `kubectl apply -k` must not apply.
NOT_APPLIED = {
    # Placeholders: applied, they would replace the real Secret on every apply.
    "secret.example.yaml",
}

#: Each app service of docker-compose.yml, and the workload that runs it here.
WORKLOADS = {
    "migrate": ("Job", "migrate"),
    "web": ("Deployment", "web"),
    "worker": ("Deployment", "worker"),
    "solver": ("Deployment", "solver"),
    "checker": ("Deployment", "checker"),
    "beat": ("Deployment", "beat"),
}

CONFIG_MAP = "patience-config"
SECRET = "patience-secrets"

#: Names .env sets for docker compose itself or for its other services, not for the app; what
#: stands in for each on Kubernetes.
COMPOSE_ONLY = {
    "POSTGRES_DB": "the db service's; PostgreSQL is managed, named by DATABASE_URL",
    "POSTGRES_USER": "the db service's",
    "POSTGRES_PASSWORD": "the db service's",
    "SERVER_NAME": "the edge's host name: the Ingress's host",
    "EDGE_BIND": "the edge's published address: the ingress controller's",
    "HTTP_PORT": "the edge's published port: the ingress controller's",
    "HTTPS_PORT": "the edge's published port: the ingress controller's",
    "TLS_CERT_DIR": "the edge's certificate: the Ingress's TLS Secret",
    "IMAGE_TAG": "the image's tag: kustomization.yaml's images",
    "GRAFANA_ADMIN_PASSWORD": "the monitoring profile's Grafana",
    "GRAFANA_BIND": "the monitoring profile's Grafana",
    "GRAFANA_PORT": "the monitoring profile's Grafana",
}

#: Settings that only the Secret may hold.
SECRET_SETTINGS = {"SECRET_KEY", "DATABASE_URL", "REDIS_URL", "METRICS_TOKEN", "SENTRY_DSN"}

Manifest = dict[str, Any]


# --- Loading --------------------------------------------------------------------------------------


def manifest_files() -> list[Path]:
    return sorted(KUBERNETES.glob("*.y*ml"))


def documents(path: Path) -> list[Manifest]:
    return [document for document in yaml.safe_load_all(path.read_text()) if document]


def kustomization() -> Manifest:
    document: Manifest = yaml.safe_load(KUSTOMIZATION.read_text())
    return document


def applied() -> list[Manifest]:
    """What `kubectl apply -k` applies: the documents of the files the kustomization lists."""
    return [
        document
        for name in kustomization()["resources"]
        for document in documents(KUBERNETES / name)
    ]


def find(kind: str, name: str) -> Manifest:
    found = [m for m in applied() if m["kind"] == kind and m["metadata"]["name"] == name]
    assert len(found) == 1, f"{kind} {name}: {len(found)} found"
    return found[0]


def workload(service: str) -> Manifest:
    return find(*WORKLOADS[service])


def pod_spec(manifest: Manifest) -> dict[str, Any]:
    spec: dict[str, Any] = manifest["spec"]["template"]["spec"]
    return spec


def main_container(manifest: Manifest) -> dict[str, Any]:
    containers = pod_spec(manifest)["containers"]
    assert len(containers) == 1, manifest["metadata"]["name"]
    container: dict[str, Any] = containers[0]
    return container


def all_containers(manifest: Manifest) -> list[dict[str, Any]]:
    spec = pod_spec(manifest)
    return [*spec.get("initContainers", []), *spec["containers"]]


def config_map() -> dict[str, str]:
    data: dict[str, str] = find("ConfigMap", CONFIG_MAP)["data"]
    return data


def secret_example() -> Manifest:
    [secret] = documents(KUBERNETES / "secret.example.yaml")
    return secret


def compose_services() -> dict[str, Any]:
    services: dict[str, Any] = yaml.safe_load(COMPOSE_FILE.read_text())["services"]
    return services


def app_services() -> set[str]:
    """The compose services built from this repository's Dockerfile."""
    return {name for name, service in compose_services().items() if "build" in service}


def with_defaults(text: str) -> str:
    """`${VAR:-default}` as compose reads it with VAR unset."""
    return re.sub(r"\$\{[A-Za-z_][A-Za-z0-9_]*:-([^}]*)\}", r"\1", text)


def as_kubernetes(arg: str) -> str:
    """compose's `${VAR}` / `${VAR:-default}` as Kubernetes writes a variable: `$(VAR)`."""
    return re.sub(r"\$\{([A-Za-z_][A-Za-z0-9_]*)(?::?-[^}]*)?\}", r"$(\1)", arg)


def env_example() -> tuple[dict[str, str], set[str]]:
    """.env.example's names: those it sets ("NAME=value") with their values, and every name it
    documents (optional ones too: "# NAME=default")."""
    values: dict[str, str] = {}
    documented: set[str] = set()
    for line in ENV_EXAMPLE.read_text().splitlines():
        match = re.fullmatch(r"(#\s?)?([A-Z][A-Z0-9_]*)=(.*)", line)
        if match:
            documented.add(match.group(2))
            if not match.group(1):
                values[match.group(2)] = match.group(3)
    return values, documented


def settings_variables() -> set[str]:
    """The environment variables config/settings.py reads by name."""
    source = (REPO / "config/settings.py").read_text()
    readers = r"(?:os\.environ\.get|env_bool|env_int|env_list|env_str)"
    return set(re.findall(readers + r"\(\s*\"([A-Z0-9_]+)\"", source)) | {"SECRET_KEY"}


def image_command() -> list[str]:
    """The Dockerfile's CMD (the web server), the argv inside its `sh -c "exec ..."`."""
    [cmd] = re.findall(r"^CMD (\[.*\])$", DOCKERFILE.read_text(), re.M)
    argv = json.loads(cmd)
    assert argv[:2] == ["sh", "-c"]
    inner = shlex.split(argv[2])
    assert inner[0] == "exec"
    return list(inner[1:])


def seconds(duration: str) -> int:
    """A compose or nginx duration ("60s", "1h", "30") in seconds."""
    match = re.fullmatch(r"(\d+)([smh]?)", duration)
    assert match, duration
    return int(match.group(1)) * {"": 1, "s": 1, "m": 60, "h": 3600}[match.group(2)]


def edge_directive(name: str, location: str | None = None) -> str:
    """The value of an nginx directive of the edge's HTTPS server (or of one of its locations)."""
    text = EDGE_TEMPLATE.read_text()
    text = text[text.index("listen 443") :]
    if location is not None:
        text = text[text.index(f"location {location} {{") :]
        text = text[: text.index("}")]
    match = re.search(rf"^\s*{re.escape(name)} ([^;]+);", text, re.M)
    assert match, f"{name} is not in the edge's configuration"
    return match.group(1).strip()


# --- Schema ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("version", KUBERNETES_VERSIONS)
@pytest.mark.parametrize(
    "path", [path for path in manifest_files() if path != KUSTOMIZATION], ids=lambda p: p.name
)
def test_every_manifest_validates_against_the_kubernetes_schema(path: Path, version: str) -> None:
    manifests = documents(path)
    assert manifests, f"{path.name} holds no resource"
    for manifest in manifests:
        # Strict: a field the API does not know fails, as the API server would refuse it.
        validated = kubernetes_validate.validate(manifest, version, strict=True)
        assert validated == version, f"validated against {validated}, not {version}"


def test_the_validation_refuses_unknown_fields_and_wrong_types() -> None:
    web = workload("web")
    kubernetes_validate.validate(web, KUBERNETES_VERSIONS[0], strict=True)
    misspelt = copy.deepcopy(web)
    container = misspelt["spec"]["template"]["spec"]["containers"][0]
    container["readinesProbe"] = container.pop("readinessProbe")
    with pytest.raises(kubernetes_validate.ValidationError):
        kubernetes_validate.validate(misspelt, KUBERNETES_VERSIONS[0], strict=True)
    wrong_type = copy.deepcopy(web)
    wrong_type["spec"]["template"]["spec"]["terminationGracePeriodSeconds"] = "45"
    with pytest.raises(kubernetes_validate.ValidationError):
        kubernetes_validate.validate(wrong_type, KUBERNETES_VERSIONS[0], strict=True)


def test_the_kustomization_applies_every_manifest_of_the_folder() -> None:
    listed = kustomization()["resources"]
    assert len(listed) == len(set(listed)), "a manifest listed twice"
    files = {path.name for path in manifest_files()} - {KUSTOMIZATION.name}
    assert files >= NOT_APPLIED, "the manifests kept out are in the folder"
    assert set(listed) == files - NOT_APPLIED


def test_one_namespace_for_everything() -> None:
    [namespace] = [m for m in applied() if m["kind"] == "Namespace"]
    assert kustomization()["namespace"] == namespace["metadata"]["name"]
    # The kustomization places every resource; none names another namespace.
    for manifest in applied() + [secret_example()]:
        assert "namespace" not in manifest["metadata"], manifest["metadata"]["name"]
    # Every pod below satisfies the "restricted" standard (test_pods_run_unprivileged).
    assert namespace["metadata"]["labels"]["pod-security.kubernetes.io/enforce"] == "restricted"


def test_names_are_unique_per_kind() -> None:
    keys = [(m["kind"], m["metadata"]["name"]) for m in applied()]
    assert len(keys) == len(set(keys)), keys


# --- The workloads run what compose runs ----------------------------------------------------------


def test_every_app_service_of_compose_has_its_workload() -> None:
    assert set(WORKLOADS) == app_services()
    kinds = {(m["kind"], m["metadata"]["name"]) for m in applied()}
    assert set(WORKLOADS.values()) <= kinds
    # And no workload runs anything compose does not.
    runs = {key for key in kinds if key[0] in ("Deployment", "StatefulSet", "DaemonSet", "Job")}
    assert runs == set(WORKLOADS.values())


@pytest.mark.parametrize("service", sorted(WORKLOADS))
def test_each_workload_runs_the_command_of_its_compose_service(service: str) -> None:
    container = main_container(workload(service))
    assert "args" not in container, service
    compose_service = compose_services()[service]
    if "command" not in compose_service:
        # compose's web runs the image's CMD: so does the web Deployment, with no command.
        assert service == "web"
        assert "command" not in container, "the image's CMD, as in compose"
        assert image_command()[0] == "gunicorn"
        return
    expected = [as_kubernetes(arg) for arg in compose_service["command"]]
    assert container["command"] == expected, service


def test_variables_in_the_commands_are_set_by_the_config_map() -> None:
    # Kubernetes puts in $(NAME) from the container's environment, and leaves the text as it is
    # when NAME is not set; compose's ${NAME} it never reads.
    names = set()
    for service in WORKLOADS:
        for container in all_containers(workload(service)):
            for arg in container.get("command", []):
                assert "${" not in arg, f"{service}: compose's syntax, which Kubernetes keeps as is"
                names |= set(re.findall(r"\$\(([A-Za-z_][A-Za-z0-9_]*)\)", arg))
    assert names, "the Celery commands take LOG_LEVEL and WORKER_CONCURRENCY"
    assert names <= set(config_map()), sorted(names - set(config_map()))


@pytest.mark.parametrize("service", sorted(WORKLOADS))
def test_every_process_gets_the_settings_compose_gives_it(service: str) -> None:
    # compose gives each app service .env whole (env_file); here the ConfigMap and the Secret.
    assert compose_services()[service]["env_file"] == ".env"
    assert "environment" not in compose_services()[service]
    manifest = workload(service)
    for container in all_containers(manifest):
        where = f"{service}/{container['name']}"
        assert container["envFrom"] == [
            {"configMapRef": {"name": CONFIG_MAP}},
            {"secretRef": {"name": SECRET}},
        ], where
        assert "env" not in container, f"{where}: settings belong in the ConfigMap or the Secret"
    # Nor the Service variables Kubernetes would add (WEB_PORT=tcp://...): the environment is
    # the settings' alone.
    assert pod_spec(manifest)["enableServiceLinks"] is False, service


def test_the_config_map_and_the_secret_hold_what_env_example_sets() -> None:
    values, documented = env_example()
    configured = set(config_map())
    secret_keys = set(secret_example()["stringData"])
    assert secret_example()["metadata"]["name"] == SECRET
    assert not configured & secret_keys, "a setting in both"
    provided = configured | secret_keys
    required = set(values) - set(COMPOSE_ONLY)
    assert required <= provided, f"compose passes these, the workloads lack: {required - provided}"
    assert provided <= documented - set(COMPOSE_ONLY), (
        f"not settings compose passes: {provided - (documented - set(COMPOSE_ONLY))}"
    )
    # The same values as compose's, for what .env.example sets.
    for name, value in config_map().items():
        if name in values:
            assert value == values[name], name


def test_the_names_left_to_compose_are_not_the_apps() -> None:
    compose_text = COMPOSE_FILE.read_text()
    _, documented = env_example()
    read_by_the_image = set(re.findall(r"\$\{([A-Z_][A-Z0-9_]*)", DOCKERFILE.read_text()))
    for name in COMPOSE_ONLY:
        assert name in documented, name
        assert "${" + name in compose_text, f"{name}: compose no longer uses it"
        assert name not in settings_variables(), f"{name}: the app reads it"
        assert name not in read_by_the_image, f"{name}: the image reads it"


def test_secrets_are_in_the_secret_and_its_example_holds_placeholders() -> None:
    assert not SECRET_SETTINGS & set(config_map())
    example = secret_example()["stringData"]
    assert {"SECRET_KEY", "DATABASE_URL", "REDIS_URL"} <= set(example)
    assert set(example) <= SECRET_SETTINGS
    for name, value in example.items():
        assert "CHANGE-ME" in value, f"{name}: a placeholder, never a real value"
    # Too short on purpose: the settings refuse a key under 50 characters.
    assert len(example["SECRET_KEY"]) < 50
    # PostgreSQL and Redis are external: reached by URL, on example hosts here.
    for name in ("DATABASE_URL", "REDIS_URL"):
        host = re.sub(r"^\w+://[^@]*@([^:/]+).*$", r"\1", example[name])
        assert host.endswith(".example"), name


# --- Health -------------------------------------------------------------------------------------


def test_the_web_probes_ask_the_paths_the_process_answers() -> None:
    web = main_container(workload("web"))
    ports = {port["name"]: port["containerPort"] for port in web["ports"]}
    # Where gunicorn binds in the image, and where compose's health check asks.
    assert option(image_command(), "--bind") == f"0.0.0.0:{ports['http']}"
    assert [str(port) for port in compose_services()["web"]["expose"]] == [str(ports["http"])]
    # Readiness: the deep check (database, Redis, channel layer), compose's health check.
    readiness = web["readinessProbe"]["httpGet"]
    assert readiness == {"path": health.READY_PATH, "port": "http"}
    compose_check = " ".join(compose_services()["web"]["healthcheck"]["test"])
    assert f"http://127.0.0.1:{ports['http']}{health.READY_PATH}" in compose_check
    # Liveness (and start-up): the cheap one, which touches nothing but the event loop.
    for probe in ("livenessProbe", "startupProbe"):
        assert web[probe]["httpGet"] == {"path": health.LIVE_PATH, "port": "http"}, probe
    assert health.LIVE_PATH != health.READY_PATH


async def test_the_process_answers_both_probe_paths_itself(monkeypatch: pytest.MonkeyPatch) -> None:
    """They are not in the URLconf: the health middleware answers them before Django."""
    monkeypatch.setattr(health, "check_database", lambda: health.OK)
    monkeypatch.setattr(health, "check_redis", lambda: health.OK)

    async def channel_layer_ok() -> str:
        return health.OK

    monkeypatch.setattr(health, "check_channel_layer", channel_layer_ok)

    async def django(scope: Any, receive: Any, send: Any) -> None:
        raise AssertionError(f"{scope['path']} reached Django")

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"", "more_body": False}

    web = main_container(workload("web"))
    for probe in ("readinessProbe", "livenessProbe", "startupProbe"):
        sent: list[dict[str, Any]] = []

        async def send(message: Any, sent: list[dict[str, Any]] = sent) -> None:
            sent.append(message)

        path = web[probe]["httpGet"]["path"]
        scope = {"type": "http", "path": path, "method": "GET", "headers": []}
        await health.HealthCheckMiddleware(django)(scope, receive, send)
        assert sent[0]["status"] == 200, probe
        assert json.loads(sent[1]["body"])["status"] == "ok", probe


@pytest.mark.parametrize("service", ["worker", "solver", "checker", "beat"])
def test_celery_liveness_probes_are_composes_health_checks(service: str) -> None:
    test = compose_services()[service]["healthcheck"]["test"]
    assert test[0] == "CMD-SHELL"
    # $$ is compose's escape of a literal $: the shell reads $HOSTNAME, the pod's name.
    expected = ["sh", "-c", " ".join(test[1:]).replace("$$", "$")]
    probe = main_container(workload(service))["livenessProbe"]
    assert probe["exec"]["command"] == expected
    healthcheck = compose_services()[service]["healthcheck"]
    assert probe["timeoutSeconds"] == seconds(healthcheck["timeout"])
    assert probe["periodSeconds"] == seconds(healthcheck["interval"])
    assert probe["initialDelaySeconds"] == seconds(healthcheck["start_period"])


# --- Stopping -----------------------------------------------------------------------------------


def test_a_web_pod_outlasts_its_own_drain() -> None:
    web = workload("web")
    grace = pod_spec(web)["terminationGracePeriodSeconds"]
    # The endpoint leaves the Service (the ingress controller and kube-proxy see it) while
    # preStop sleeps; only then does gunicorn get SIGTERM.
    pre_stop = main_container(web)["lifecycle"]["preStop"]["sleep"]["seconds"]
    assert pre_stop >= 5
    # Then the workers close their connections after GRACEFUL_SECONDS, and gunicorn waits
    # --graceful-timeout for them before it kills them.
    graceful_timeout = option(image_command(), "--graceful-timeout")
    assert graceful_timeout is not None
    assert grace > pre_stop + GRACEFUL_SECONDS
    assert grace > pre_stop + int(graceful_timeout)


@pytest.mark.parametrize("service", ["worker", "solver", "checker"])
def test_celery_workers_get_the_time_to_stop_compose_gives_them(service: str) -> None:
    grace = pod_spec(workload(service))["terminationGracePeriodSeconds"]
    assert grace == seconds(compose_services()[service]["stop_grace_period"])


def test_a_rollout_of_web_never_lowers_its_capacity() -> None:
    strategy = workload("web")["spec"]["strategy"]
    assert strategy["type"] == "RollingUpdate"
    assert strategy["rollingUpdate"]["maxUnavailable"] == 0
    assert strategy["rollingUpdate"]["maxSurge"] >= 1


# --- Beat, migrations -----------------------------------------------------------------------------


def test_exactly_one_beat() -> None:
    beat = workload("beat")
    assert beat["spec"]["replicas"] == 1 == compose_services()["beat"]["deploy"]["replicas"]
    # Recreate: the old pod is gone before the new one starts (a rolling update runs both).
    assert beat["spec"]["strategy"] == {"type": "Recreate"}
    runs_beat = [
        service
        for service in WORKLOADS
        if "beat" in main_container(workload(service)).get("command", [])
    ]
    assert runs_beat == ["beat"]
    scaled = {
        m["spec"]["scaleTargetRef"]["name"]
        for m in applied()
        if m["kind"] == "HorizontalPodAutoscaler"
    }
    assert "beat" not in scaled


def test_beat_keeps_its_schedule_on_a_volume() -> None:
    beat = workload("beat")
    schedule = option(main_container(beat)["command"], "--schedule")
    assert schedule is not None
    mounts = {mount["mountPath"] for mount in main_container(beat)["volumeMounts"]}
    assert str(Path(schedule).parent) in mounts


def test_the_migrate_job_runs_once_and_the_others_wait_for_it() -> None:
    job = workload("migrate")
    assert pod_spec(job)["restartPolicy"] == "Never"
    assert job["spec"]["backoffLimit"] >= 1
    for service in WORKLOADS:
        if service == "migrate":
            continue
        # compose starts each after `migrate` succeeded; here each pod first checks that no
        # migration of its image is unapplied (and is retried until the Job has run).
        assert "migrate" in compose_services()[service]["depends_on"], service
        inits = pod_spec(workload(service))["initContainers"]
        commands = [init["command"] for init in inits]
        assert ["python", "manage.py", "migrate", "--check"] in commands, service


# --- The image, and how it runs -------------------------------------------------------------------


def test_one_image_for_every_workload_the_one_compose_names() -> None:
    images = {
        container["image"]
        for service in WORKLOADS
        for container in all_containers(workload(service))
    }
    compose_images = {with_defaults(compose_services()[service]["image"]) for service in WORKLOADS}
    assert len(compose_images) == 1
    assert images == compose_images
    # The kustomization's images entry (a registry and a tag for a release) rewrites that one.
    [entry] = kustomization()["images"]
    [image] = images
    assert entry["name"] == image.split(":")[0]


def dockerfile_user() -> int:
    [user] = re.findall(r"^USER (\d+)(?::\d+)?$", DOCKERFILE.read_text(), re.M)
    return int(user)


def app_home() -> str:
    match = re.search(r"--home-dir (\S+)", DOCKERFILE.read_text())
    assert match
    return match.group(1)


@pytest.mark.parametrize("service", sorted(WORKLOADS))
def test_pods_run_unprivileged(service: str) -> None:
    spec = pod_spec(workload(service))
    assert spec["securityContext"]["runAsNonRoot"] is True
    assert spec["securityContext"]["runAsUser"] == dockerfile_user()
    assert spec["securityContext"]["seccompProfile"] == {"type": "RuntimeDefault"}
    assert spec["automountServiceAccountToken"] is False
    for container in all_containers(workload(service)):
        where = f"{service}/{container['name']}"
        context = container["securityContext"]
        assert context["allowPrivilegeEscalation"] is False, where
        assert context["readOnlyRootFilesystem"] is True, where
        assert context["capabilities"] == {"drop": ["ALL"]}, where


def mounted(container: dict[str, Any], path: str) -> bool:
    return any(
        path == mount["mountPath"] or path.startswith(mount["mountPath"].rstrip("/") + "/")
        for mount in container.get("volumeMounts", [])
    )


@pytest.mark.parametrize("service", sorted(WORKLOADS))
def test_every_process_can_write_where_it_writes(service: str) -> None:
    # The root file system is read-only: temporary files (Python's, a large request body's)
    # go to /tmp, a volume of the pod's own.
    manifest = workload(service)
    volumes = {volume["name"] for volume in pod_spec(manifest)["volumes"]}
    for container in all_containers(manifest):
        assert mounted(container, "/tmp"), f"{service}/{container['name']}"
        assert {mount["name"] for mount in container["volumeMounts"]} <= volumes


def test_the_web_server_can_write_its_metrics_and_control_socket(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from gunicorn.config import _get_default_control_socket

    web = main_container(workload("web"))
    assert mounted(web, METRICS_DIR)
    # gunicorn's control socket: under XDG_RUNTIME_DIR, else in the home of the app user.
    monkeypatch.delenv("XDG_RUNTIME_DIR", raising=False)
    monkeypatch.setenv("HOME", app_home())
    control_socket = _get_default_control_socket()
    assert mounted(web, control_socket), control_socket
    assert "XDG_RUNTIME_DIR" not in config_map()


def quantity(value: str | int) -> float:
    """A Kubernetes quantity ("500m", "2", "512Mi", "1Gi") as a number."""
    text = str(value)
    units = {"m": 1e-3, "Ki": 2**10, "Mi": 2**20, "Gi": 2**30}
    for suffix, factor in units.items():
        if text.endswith(suffix):
            return float(text[: -len(suffix)]) * factor
    return float(text)


@pytest.mark.parametrize("service", sorted(WORKLOADS))
def test_every_container_requests_and_limits_its_resources(service: str) -> None:
    for container in all_containers(workload(service)):
        where = f"{service}/{container['name']}"
        resources = container["resources"]
        for kind in ("cpu", "memory"):
            request = quantity(resources["requests"][kind])
            limit = quantity(resources["limits"][kind])
            assert 0 < request <= limit, f"{where} {kind}"


# --- Web: Service, autoscaler, disruption budget, Ingress -----------------------------------------


def web_pod_labels() -> dict[str, str]:
    labels: dict[str, str] = workload("web")["spec"]["template"]["metadata"]["labels"]
    return labels


@pytest.mark.parametrize("service", sorted(WORKLOADS))
def test_selectors_match_their_pods(service: str) -> None:
    manifest = workload(service)
    labels = manifest["spec"]["template"]["metadata"]["labels"]
    if manifest["kind"] == "Deployment":
        assert manifest["spec"]["selector"]["matchLabels"].items() <= labels.items()
    assert labels["app.kubernetes.io/component"] == service


def test_the_service_reaches_the_web_pods() -> None:
    service = find("Service", "web")
    assert service["spec"]["selector"].items() <= web_pod_labels().items()
    names = {port["name"] for port in main_container(workload("web"))["ports"]}
    for port in service["spec"]["ports"]:
        assert port["targetPort"] in names
    # The port the edge's configuration names the web service by (`server web:8000`).
    ports = [port["port"] for port in service["spec"]["ports"]]
    assert re.search(rf"server web:{ports[0]};", EDGE_TEMPLATE.read_text())


def test_the_autoscaler_sizes_web_by_cpu() -> None:
    autoscaler = find("HorizontalPodAutoscaler", "web")
    assert autoscaler["apiVersion"] == "autoscaling/v2"
    assert autoscaler["spec"]["scaleTargetRef"] == {
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "name": "web",
    }
    [metric] = autoscaler["spec"]["metrics"]
    assert metric["type"] == "Resource" and metric["resource"]["name"] == "cpu"
    assert 0 < metric["resource"]["target"]["averageUtilization"] <= 100
    assert 2 <= autoscaler["spec"]["minReplicas"] < autoscaler["spec"]["maxReplicas"]
    # Utilisation is measured against the request: there must be one.
    assert "cpu" in main_container(workload("web"))["resources"]["requests"]
    # The autoscaler owns the count: a `replicas` here would be reset by every apply.
    assert "replicas" not in workload("web")["spec"]


def test_a_disruption_leaves_web_pods_serving() -> None:
    budget = find("PodDisruptionBudget", "web")
    assert budget["spec"]["selector"]["matchLabels"].items() <= web_pod_labels().items()
    minimum = find("HorizontalPodAutoscaler", "web")["spec"]["minReplicas"]
    assert minimum - budget["spec"]["maxUnavailable"] >= 1


def test_the_ingress_serves_the_site_as_the_edge_does() -> None:
    ingress = find("Ingress", "patience")
    assert ingress["apiVersion"] == "networking.k8s.io/v1"
    assert ingress["spec"]["ingressClassName"] == "nginx"
    hosts = [rule["host"] for rule in ingress["spec"]["rules"]]
    [tls] = ingress["spec"]["tls"]
    assert tls["hosts"] == hosts and tls["secretName"]
    # The settings answer these hosts, and trust forms from their HTTPS origins.
    allowed = config_map()["ALLOWED_HOSTS"].split(",")
    origins = config_map()["CSRF_TRUSTED_ORIGINS"].split(",")
    for host in hosts:
        assert host in allowed and f"https://{host}" in origins, host
    # Every path to the web Service's named port (pages, the API and the sockets under /ws/).
    service_ports = {port["name"] for port in find("Service", "web")["spec"]["ports"]}
    for rule in ingress["spec"]["rules"]:
        [path] = rule["http"]["paths"]
        assert (path["path"], path["pathType"]) == ("/", "Prefix")
        assert path["backend"]["service"]["name"] == "web"
        assert path["backend"]["service"]["port"]["name"] in service_ports
    annotations = ingress["metadata"]["annotations"]

    def annotation(name: str) -> str:
        value: str = annotations[f"nginx.ingress.kubernetes.io/{name}"]
        return value

    # Sockets stay open as long as the edge keeps /ws/ open.
    socket_timeout = seconds(edge_directive("proxy_read_timeout", "/ws/"))
    assert int(annotation("proxy-read-timeout")) >= socket_timeout
    assert int(annotation("proxy-send-timeout")) >= socket_timeout
    # Bodies: the same bound, read whole before they go on.
    assert annotation("proxy-body-size") == edge_directive("client_max_body_size")
    assert annotation("proxy-request-buffering") == edge_directive("proxy_request_buffering")
    limit_conn = edge_directive("limit_conn").split()[-1]
    assert annotation("limit-connections") == limit_conn
    assert annotation("ssl-redirect") == "true"
    # One proxy in front of the app, as with the edge.
    assert config_map()["NUM_PROXIES"] == "1"


# --- The guide ------------------------------------------------------------------------------------


def test_the_guide_says_how_to_apply_them_and_the_autoscalers_bounds() -> None:
    guide = GUIDE.read_text()
    section = guide[guide.index("## On Kubernetes") :]
    assert "kubectl apply -k deploy/kubernetes" in section
    assert "secret.example.yaml" in section and "kubectl -n patience create secret" in section
    autoscaler = find("HorizontalPodAutoscaler", "web")["spec"]
    assert f"`minReplicas: {autoscaler['minReplicas']}`" in section
    assert f"`maxReplicas: {autoscaler['maxReplicas']}`" in section
    assert "docs/deployment.md" in KUSTOMIZATION.read_text()
