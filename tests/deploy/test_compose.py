"""The deployment files, checked offline (no Docker engine): docker-compose.yml, the Dockerfile,
.env.example and .dockerignore.

What a broken deployment file would only show on the day of a deploy is asserted here: the
compose file is valid compose, every long-running service is health-checked, start-up order
waits on health, exactly one beat runs, every command exists in the image, every setting is
documented, and the image runs as a non-root user without a baked-in secret.
"""

from __future__ import annotations

import ast
import os
import re
import shlex
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
import yaml

REPO = Path(__file__).resolve().parents[2]
COMPOSE_FILE = REPO / "docker-compose.yml"
DOCKERFILE = REPO / "Dockerfile"
ENV_EXAMPLE = REPO / ".env.example"
DOCKERIGNORE = REPO / ".dockerignore"

#: The services built from this repository's Dockerfile.
APP_SERVICES = ("migrate", "web", "worker", "solver", "checker", "beat")
#: The monitoring profile's (`docker compose --profile monitoring up`): tests/deploy/
#: test_monitoring.py.
MONITORING_SERVICES = ("prometheus", "grafana")
#: What the image provides besides the packages of requirements.txt: the base image's Python,
#: and sh for the default command.
BASE_EXECUTABLES = {"python", "sh"}
#: The console scripts of the pinned packages that the commands run.
EXECUTABLE_PACKAGES = {"gunicorn": "gunicorn", "celery": "celery"}
#: Read by config/settings.py, but for development only (no DATABASE_URL): not for a deployment.
DEVELOPMENT_ONLY_SETTINGS = {"SQLITE_PATH", "CLOCK_OFFSET_SECONDS"}


# --- Loading --------------------------------------------------------------------------------------


def compose() -> dict:
    return yaml.safe_load(COMPOSE_FILE.read_text())


def services() -> dict[str, dict]:
    return compose()["services"]


def documented_variables() -> dict[str, str | None]:
    """.env.example's names: "NAME=value" is set, "# NAME=value" is optional (the default)."""
    names: dict[str, str | None] = {}
    for line in ENV_EXAMPLE.read_text().splitlines():
        set_match = re.fullmatch(r"([A-Z][A-Z0-9_]*)=(.*)", line)
        optional_match = re.fullmatch(r"#\s?([A-Z][A-Z0-9_]*)=(.*)", line)
        if set_match:
            names[set_match.group(1)] = set_match.group(2)
        elif optional_match:
            names.setdefault(optional_match.group(1), None)
    return names


def pinned_requirements(path: Path) -> dict[str, str]:
    """`name==version` lines of a requirements file, by lower-case name without extras."""
    pins = {}
    for raw in path.read_text().splitlines():
        line = raw.split("#", 1)[0].strip()
        match = re.fullmatch(r"([A-Za-z0-9_.-]+)(\[[A-Za-z0-9_,.-]+\])?==([\w.]+)", line)
        if match:
            pins[match.group(1).lower().replace("_", "-")] = match.group(3)
    return pins


def with_defaults(text: str) -> str:
    """`text` with each `${VAR:-default}` replaced by its default, as compose does when the
    variable is unset."""
    return re.sub(r"\$\{[A-Za-z_][A-Za-z0-9_]*:-([^}]*)\}", r"\1", text)


def as_argv(command: str | list[str]) -> list[str]:
    return shlex.split(command) if isinstance(command, str) else list(command)


def option(argv: list[str], name: str) -> str | None:
    """The value of `--name=value` or `--name value` in argv."""
    for index, arg in enumerate(argv):
        if arg.startswith(name + "="):
            return arg.split("=", 1)[1]
        if arg == name and index + 1 < len(argv):
            return argv[index + 1]
    return None


# --- A small Dockerfile parser --------------------------------------------------------------------


@dataclass(frozen=True)
class Instruction:
    keyword: str  # upper case
    args: str  # continuation lines joined with a space
    stage: int  # index of the FROM it belongs to (0-based; -1 before the first FROM)


def parse_dockerfile(text: str) -> list[Instruction]:
    """One Instruction per instruction: comments and blank lines dropped, a line ending in a
    backslash continued on the next (a comment or blank line inside a continuation is skipped,
    as Docker does). Heredocs are not supported: the Dockerfile uses none."""
    instructions: list[Instruction] = []
    stage = -1
    pending: list[str] = []
    for raw in text.splitlines():
        stripped = raw.strip()
        if not stripped or stripped.startswith("#"):
            continue
        if stripped.endswith("\\"):
            pending.append(stripped[:-1].strip())
            continue
        pending.append(stripped)
        line = " ".join(part for part in pending if part)
        pending = []
        keyword, _, args = line.partition(" ")
        keyword = keyword.upper()
        if keyword == "FROM":
            stage += 1
        instructions.append(Instruction(keyword, args.strip(), stage))
    assert not pending, "the Dockerfile ends inside a continuation line"
    return instructions


def dockerfile() -> list[Instruction]:
    return parse_dockerfile(DOCKERFILE.read_text())


def final_stage() -> list[Instruction]:
    instructions = dockerfile()
    last = max(instruction.stage for instruction in instructions)
    return [instruction for instruction in instructions if instruction.stage == last]


def exec_form(args: str) -> list[str]:
    """The argv of an exec-form (JSON array) CMD or HEALTHCHECK CMD; shell form is split."""
    args = args.strip()
    if args.startswith("["):
        return list(ast.literal_eval(args))
    return ["sh", "-c", args]


def default_command() -> list[str]:
    cmds = [instruction for instruction in final_stage() if instruction.keyword == "CMD"]
    assert len(cmds) == 1, "the final stage has exactly one CMD"
    return exec_form(cmds[0].args)


def unwrap_shell(argv: list[str]) -> list[str]:
    """`sh -c "exec prog args"` is `prog args`."""
    if argv[:2] == ["sh", "-c"] and len(argv) == 3:
        inner = shlex.split(argv[2])
        return inner[1:] if inner[:1] == ["exec"] else inner
    return argv


def test_dockerfile_parser_joins_continuations_and_skips_comments():
    text = (
        "# syntax comment\n"
        "FROM python:3.11-slim AS build\n"
        "RUN a \\\n"
        "    # a comment inside the continuation\n"
        "    && b \\\n"
        "\n"
        "    && c\n"
        "from python:3.11-slim\n"
        'CMD ["x", "y"]\n'
    )
    parsed = parse_dockerfile(text)
    assert [(i.keyword, i.args, i.stage) for i in parsed] == [
        ("FROM", "python:3.11-slim AS build", 0),
        ("RUN", "a && b && c", 0),
        ("FROM", "python:3.11-slim", 1),
        ("CMD", '["x", "y"]', 1),
    ]
    assert exec_form(parsed[-1].args) == ["x", "y"]
    assert unwrap_shell(["sh", "-c", "exec prog --flag 'two words'"]) == [
        "prog",
        "--flag",
        "two words",
    ]


# --- docker-compose.yml: the compose spec ---------------------------------------------------------


def check_jsonschema() -> str:
    beside_python = Path(sys.executable).parent / "check-jsonschema"
    found = str(beside_python) if beside_python.exists() else shutil.which("check-jsonschema")
    assert found, "check-jsonschema is missing: make setup-dev installs it (requirements-dev.txt)"
    return found


def test_compose_file_validates_against_the_compose_spec():
    result = subprocess.run(
        [check_jsonschema(), "--builtin-schema", "vendor.compose-spec", str(COMPOSE_FILE)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_compose_file_has_no_version_key_and_the_expected_services():
    document = compose()
    assert "version" not in document, "the compose spec has no version: key"
    assert set(document["services"]) == {"db", "redis", "edge", *APP_SERVICES, *MONITORING_SERVICES}
    # Started only with their profile; everything else always.
    for name, service in document["services"].items():
        expected = ["monitoring"] if name in MONITORING_SERVICES else None
        assert service.get("profiles") == expected, name


# --- docker-compose.yml: services -----------------------------------------------------------------


def test_every_service_has_an_image_or_a_build():
    for name, service in services().items():
        assert "image" in service or "build" in service, name


def test_app_services_run_the_project_image():
    all_services = services()
    images = set()
    for name in APP_SERVICES:
        service = all_services[name]
        build = service.get("build")
        context = build.get("context", ".") if isinstance(build, dict) else build
        assert context == ".", f"{name} is built from this repository's Dockerfile"
        dockerfile_name = build.get("dockerfile", "Dockerfile") if isinstance(build, dict) else None
        assert dockerfile_name in (None, "Dockerfile"), name
        images.add(service["image"])
    assert len(images) == 1, f"one image for every app service, not {images}"
    assert all_services["db"]["image"] == "postgres:15"
    assert all_services["redis"]["image"] == "redis:7"


def is_one_off(service: dict) -> bool:
    return service.get("restart") == "no"


def test_every_service_is_health_checked_or_a_one_off():
    for name, service in services().items():
        healthcheck = service.get("healthcheck") or {}
        if is_one_off(service):
            continue
        assert not healthcheck.get("disable"), name
        test = healthcheck.get("test")
        assert test and test != ["NONE"], f"{name} has no health check"
        assert test[0] in ("CMD", "CMD-SHELL"), name


def test_one_offs_do_not_restart_and_others_do():
    all_services = services()
    assert [name for name, s in all_services.items() if is_one_off(s)] == ["migrate"]
    for name, service in all_services.items():
        if not is_one_off(service):
            assert service.get("restart") in ("always", "unless-stopped"), name


def test_dependencies_name_their_condition():
    all_services = services()
    for name, service in all_services.items():
        depends_on = service.get("depends_on", {})
        assert isinstance(depends_on, dict), f"{name}: depends_on with conditions (long syntax)"
        for target, spec in depends_on.items():
            assert target in all_services, f"{name} depends on unknown {target}"
            expected = (
                "service_completed_successfully"
                if is_one_off(all_services[target])
                else "service_healthy"
            )
            assert spec.get("condition") == expected, f"{name} -> {target}"


def test_app_services_wait_for_their_backing_services_and_the_migrations():
    all_services = services()
    assert set(all_services["migrate"]["depends_on"]) >= {"db"}
    for name in ("web", "worker", "solver", "checker"):
        assert set(all_services[name]["depends_on"]) == {"db", "redis", "migrate"}, name
    assert set(all_services["beat"]["depends_on"]) >= {"redis", "migrate"}


def test_settings_come_from_the_env_file():
    for name in APP_SERVICES:
        service = services()[name]
        env_file = service.get("env_file")
        env_files = env_file if isinstance(env_file, list) else [env_file]
        assert ".env" in env_files, name
        assert "environment" not in service, f"{name}: settings belong in .env"


def test_db_keeps_its_data_in_a_named_volume():
    document = compose()
    mounts = [as_argv(volume)[0] for volume in document["services"]["db"]["volumes"]]
    named = {m.split(":")[0] for m in mounts if m.endswith(":/var/lib/postgresql/data")}
    assert len(named) == 1
    (volume,) = named
    assert not volume.startswith((".", "/")), "a named volume, not a bind mount"
    assert volume in document["volumes"]


def test_web_can_be_scaled():
    for name, service in services().items():
        assert "container_name" not in service, f"{name}: a fixed name cannot be scaled"
    web = services()["web"]
    assert "ports" not in web, "the web containers are reached through the edge only"
    assert [str(p) for p in web["expose"]] == ["8000"]


def test_only_the_edge_is_published_and_it_proxies_to_web():
    published = {name for name, service in services().items() if service.get("ports")}
    assert published == {"edge", "grafana"}
    # Grafana (monitoring profile) only on the host's loopback, unless told otherwise.
    assert [with_defaults(p) for p in services()["grafana"]["ports"]] == ["127.0.0.1:3000:3000"]
    edge = services()["edge"]
    assert edge["image"].startswith("nginx:")
    assert {with_defaults(p).split(":")[-1] for p in edge["ports"]} == {"80", "443"}
    template = REPO / "deploy/nginx/patience.conf.template"
    mounts = [as_argv(volume)[0] for volume in edge["volumes"]]
    assert f"./{template.relative_to(REPO)}:/etc/nginx/templates/default.conf.template:ro" in mounts
    assert "server web:8000;" in template.read_text()
    # The app trusts exactly the one proxy in front of it (the edge) by default.
    assert re.search(r"^NUM_PROXIES=1$", (REPO / ".env.example").read_text(), re.M)


def test_the_edge_closes_its_idle_connections_to_the_app_before_the_app_does():
    """Else a request the edge sends on a connection the app is closing is lost (a 502)."""
    from config.serving import SERVER_OPTIONS

    template = (REPO / "deploy/nginx/patience.conf.template").read_text()
    upstream = re.search(r"^upstream patience_web \{(.*?)^\}", template, re.M | re.S)
    assert upstream is not None
    assert re.search(r"^\s*keepalive \d+;", upstream.group(1), re.M)  # connections are reused
    edge = re.search(r"^\s*keepalive_timeout (\d+)s;", upstream.group(1), re.M)
    assert edge is not None, "the edge's idle time is said, not nginx's default"
    assert SERVER_OPTIONS["timeout_keep_alive"] > int(edge.group(1))


def networks_of(name: str) -> set[str]:
    service = services()[name]
    networks = service.get("networks", ["default"])
    return set(networks if isinstance(networks, list) else networks.keys())


def test_the_app_is_on_an_internal_network_only_the_edge_shares():
    # A web port a client could reach directly would let it choose its own X-Forwarded-For.
    document = compose()
    internal = {name for name, net in document["networks"].items() if (net or {}).get("internal")}
    assert internal == {"backend", "monitoring"}
    for name in services():
        if name == "edge":
            assert networks_of(name) == {"backend", "public"}
        elif name == "prometheus":  # scrapes the web containers; Grafana reads it
            assert networks_of(name) == {"backend", "monitoring"}
            assert "ports" not in services()[name], name
        elif name == "grafana":  # reads Prometheus; its port on the host's loopback
            assert networks_of(name) == {"monitoring", "console"}
        else:
            assert networks_of(name) == {"backend"}, name
            assert "ports" not in services()[name], name


def test_the_servers_bind_where_the_guide_says():
    guide = (REPO / "docs" / "deployment.md").read_text()
    web = unwrap_shell(default_command())
    # In the container, on the internal network the edge alone reaches.
    assert option(web, "--bind") == "0.0.0.0:8000"
    assert "`--bind 0.0.0.0:8000`" in guide and "internal" in guide
    # On a machine of its own, without compose: loopback, behind a proxy on the same machine.
    assert "--bind 127.0.0.1:8000" in guide


# --- docker-compose.yml: Celery -------------------------------------------------------------------


def command(name: str) -> list[str]:
    service = services()[name]
    if "command" in service:
        return as_argv(service["command"])
    assert name == "web", f"{name} needs its own command: the image's CMD is the web server"
    return unwrap_shell(default_command())


def test_exactly_one_beat():
    beats = [
        name
        for name, service in services().items()
        if "beat" in as_argv(service.get("command", []))
        or (name == "web" and "beat" in command(name))
    ]
    assert beats == ["beat"]
    beat = services()["beat"]
    assert beat["deploy"]["replicas"] == 1
    assert beat.get("scale", 1) == 1


def test_beat_keeps_its_schedule_on_a_writable_volume():
    beat = services()["beat"]
    schedule = option(command("beat"), "--schedule")
    assert schedule, "beat's schedule file is placed explicitly (the code is read-only)"
    targets = {as_argv(volume)[0].split(":")[1] for volume in beat["volumes"]}
    assert str(Path(schedule).parent) in targets
    # The image creates that directory for the app user, so a new volume inherits the owner.
    runs = " ".join(i.args for i in final_stage() if i.keyword == "RUN")
    assert f"install -d -o app -g app {Path(schedule).parent}" in runs


def test_workers_split_the_queues(settings):
    worker, solver, checker = command("worker"), command("solver"), command("checker")
    assert worker[:4] == solver[:4] == checker[:4] == ["celery", "-A", "config", "worker"]
    assert option(worker, "--queues") == "celery"
    assert option(solver, "--queues") == "solve"
    assert option(checker, "--queues") == "checks"
    assert option(solver, "--concurrency") == option(checker, "--concurrency") == "1"
    # Every queue a task is routed to has its worker.
    routed = {route["queue"] for route in settings.CELERY_TASK_ROUTES.values()}
    assert routed == {"solve", "checks"}
    # The limits leave room for the longest run a task accepts.
    from games.tasks import HARD_LIMIT, SOFT_LIMIT

    for one in (solver, checker):
        assert int(option(one, "--soft-time-limit")) >= SOFT_LIMIT
        assert int(option(one, "--time-limit")) >= HARD_LIMIT


def test_the_solve_task_is_routed_to_the_solvers_queue(settings):
    assert settings.CELERY_TASK_ROUTES["games.tasks.solve_deal"]["queue"] == "solve"


def test_celery_health_checks_ping_their_own_node():
    expected = {"worker": "celery", "solver": "solver", "checker": "checker", "beat": "celerybeat"}
    for name, node in expected.items():
        argv = command(name)
        hostname = option(argv, "--hostname")
        if hostname is not None:
            assert hostname == f"{node}@%h", name
        test = services()[name]["healthcheck"]["test"]
        assert test[0] == "CMD-SHELL", name
        check = shlex.split(" ".join(test[1:]))
        assert check[:4] == ["celery", "-A", "config", "inspect"], name
        assert check[4] == "ping", name
        # $$ is compose's escape for a literal $: the container's shell expands $HOSTNAME.
        assert option(check, "--destination") == f"{node}@$$HOSTNAME", name
    assert "--enable-remote-control" in command("beat"), "beat answers ping only when enabled"


# --- Commands exist in the image ------------------------------------------------------------------


def all_commands() -> dict[str, list[str]]:
    """Every argv the image runs: services' commands, their health checks, the Dockerfile's."""
    argvs: dict[str, list[str]] = {}
    for name in APP_SERVICES:
        argvs[name] = command(name)
        test = services()[name].get("healthcheck", {}).get("test")
        if test and test[0] == "CMD":
            argvs[f"{name} healthcheck"] = list(test[1:])
        elif test and test[0] == "CMD-SHELL":
            argvs[f"{name} healthcheck"] = shlex.split(" ".join(test[1:]))
    for instruction in final_stage():
        if instruction.keyword == "HEALTHCHECK":
            argvs["Dockerfile HEALTHCHECK"] = exec_form(instruction.args.split(" CMD ", 1)[1])
    argvs["Dockerfile CMD"] = unwrap_shell(default_command())
    return argvs


def test_every_command_runs_an_executable_the_image_has():
    pins = pinned_requirements(REPO / "requirements.txt")
    for where, argv in all_commands().items():
        executable = argv[0]
        if executable in BASE_EXECUTABLES:
            continue
        assert executable in EXECUTABLE_PACKAGES, f"{where}: unknown executable {executable}"
        assert EXECUTABLE_PACKAGES[executable] in pins, f"{where}: {executable} is not pinned"


def test_commands_name_modules_that_exist():
    pins = pinned_requirements(REPO / "requirements.txt")
    for where, argv in all_commands().items():
        if argv[0] == "python" and argv[1:2] != ["-c"]:
            assert (REPO / argv[1]).is_file(), f"{where}: {argv[1]}"
        if argv[0] == "celery":
            assert argv[1:3] == ["-A", "config"], where
            assert (REPO / "config" / "celery.py").is_file()
            assert "celery_app" in (REPO / "config" / "__init__.py").read_text()
    web = unwrap_shell(default_command())
    assert web[0] == "gunicorn"
    module, _, attribute = web[1].partition(":")
    assert (module, attribute) == ("config.server", "application")
    assert re.search(r"^application\s*=", (REPO / "config/asgi.py").read_text(), re.M)
    assert option(web, "-k") == "config.serving.Worker"
    from uvicorn_worker import UvicornWorker

    from config.serving import SERVER_OPTIONS, Worker

    assert issubclass(Worker, UvicornWorker)
    assert SERVER_OPTIONS.items() <= Worker.CONFIG_KWARGS.items()
    assert "uvicorn-worker" in pins
    assert "uvicorn" in pins


def test_health_checks_ask_healthz_on_the_port_gunicorn_binds():
    web = unwrap_shell(default_command())
    assert option(web, "--bind") == "0.0.0.0:8000"
    checks = {
        where: argv
        for where, argv in all_commands().items()
        if where in ("web healthcheck", "Dockerfile HEALTHCHECK")
    }
    assert len(checks) == 2
    for where, argv in checks.items():
        assert argv[:2] == ["python", "-c"], f"{where}: slim has no curl"
        code = argv[2]
        assert "http://127.0.0.1:8000/healthz/" in code, where
        assert "urllib.request" in code, where
        compile(code, where, "exec")


# --- .env.example ---------------------------------------------------------------------------------


def compose_variables() -> set[str]:
    """Every ${VAR} compose substitutes ($$ is a literal $, not a variable)."""
    text = re.sub(r"\$\$", "", COMPOSE_FILE.read_text())
    names = set(re.findall(r"\$\{([A-Za-z_][A-Za-z0-9_]*)", text))
    names |= set(re.findall(r"\$([A-Za-z_][A-Za-z0-9_]*)", text))
    return names


def settings_variables() -> set[str]:
    """The environment variables config/settings.py reads by name."""
    source = (REPO / "config" / "settings.py").read_text()
    readers = r"(?:os\.environ\.get|env_bool|env_int|env_list|env_str)"
    names = set(re.findall(readers + r"\(\s*\"([A-Z0-9_]+)\"", source))
    return names | {"SECRET_KEY"}  # read by config/security.py from the environment


def test_every_compose_variable_is_documented():
    documented = documented_variables()
    missing = compose_variables() - set(documented)
    assert not missing, f"not in .env.example: {sorted(missing)}"


def test_every_variable_of_the_image_is_documented():
    documented = documented_variables()
    used = set(re.findall(r"\$\{([A-Z_][A-Z0-9_]*)", DOCKERFILE.read_text()))
    assert used, "the default command reads WEB_CONCURRENCY"
    assert not used - set(documented), sorted(used - set(documented))


def test_every_setting_is_documented(settings):
    documented = documented_variables()
    missing = settings_variables() - DEVELOPMENT_ONLY_SETTINGS - set(documented)
    assert not missing, (
        f"config/settings.py reads these, .env.example lacks them: {sorted(missing)}"
    )
    rates = settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]
    throttles = {f"THROTTLE_{scope.upper()}" for scope in rates}
    missing = throttles - set(documented)
    assert not missing, f"throttle rates .env.example lacks: {sorted(missing)}"


def test_env_example_holds_placeholders_not_secrets():
    values = documented_variables()
    secret_key = values["SECRET_KEY"]
    assert secret_key and "CHANGE-ME" in secret_key
    # Too short on purpose: the settings refuse a key under 50 characters, so a forgotten
    # placeholder stops the start instead of signing cookies with a published key.
    assert len(secret_key) < 50
    password = values["POSTGRES_PASSWORD"]
    assert password and "CHANGE-ME" in password
    assert values["DEBUG"] == "false"
    # DATABASE_URL names the db service with the credentials the db service is created with.
    url = values["DATABASE_URL"]
    assert url == (
        f"postgres://{values['POSTGRES_USER']}:{password}@db:5432/{values['POSTGRES_DB']}"
    )
    assert values["REDIS_URL"].startswith("redis://redis:6379/")
    for host in values["ALLOWED_HOSTS"].split(","):
        assert host.endswith(".example"), "example hosts only (RFC 2606)"


def test_readme_says_how_to_make_a_secret_key():
    command_text = 'python -c "import secrets; print(secrets.token_urlsafe(50))"'
    assert command_text in (REPO / "README.md").read_text()
    assert command_text in ENV_EXAMPLE.read_text()


# --- Dockerfile -----------------------------------------------------------------------------------


def test_dockerfile_is_multi_stage_on_python_slim():
    froms = [i.args.split()[0] for i in dockerfile() if i.keyword == "FROM"]
    assert len(froms) >= 2
    assert set(froms) == {"python:3.11-slim"}


def test_image_runs_as_a_non_root_user():
    users = [i.args for i in final_stage() if i.keyword == "USER"]
    assert users, "the final stage sets USER"
    user = users[-1].split(":")[0]
    assert user not in ("root", "0")
    # After USER nothing switches back.
    keywords = [i.keyword for i in final_stage()]
    assert keywords.index("USER") > keywords.index("COPY")


def test_image_has_a_health_check_and_exposes_8000():
    keywords = [i.keyword for i in final_stage()]
    assert keywords.count("HEALTHCHECK") == 1
    assert any(i.keyword == "EXPOSE" and i.args.split() == ["8000"] for i in final_stage())


def test_no_secret_key_in_the_image_environment():
    for instruction in dockerfile():
        if instruction.keyword in ("ENV", "ARG"):
            assert "SECRET_KEY" not in instruction.args, instruction


def test_image_installs_the_production_requirements_only():
    runs = [i.args for i in dockerfile() if i.keyword == "RUN"]
    copies = [i.args for i in dockerfile() if i.keyword in ("COPY", "ADD")]
    assert any("pip install -r /tmp/requirements.txt" in run for run in runs)
    assert any(copy.split()[0] == "requirements.txt" for copy in copies)
    assert not any("requirements-dev" in text for text in runs + copies)
    assert dockerignored("requirements-dev.txt")


def test_image_serves_the_static_files_it_collected():
    # collectstatic at build and the running app use the same storage: the hashed copies.
    envs = " ".join(i.args for i in final_stage() if i.keyword == "ENV")
    assert re.search(r"(^|\s)STATIC_MANIFEST=true(\s|$)", envs)
    assert not any(i.keyword == "ENV" and "STATIC_ROOT" in i.args for i in final_stage())


def test_image_collects_static_files_with_a_throwaway_key():
    runs = [i.args for i in final_stage() if i.keyword == "RUN"]
    collect = [run for run in runs if "manage.py collectstatic" in run]
    assert len(collect) == 1
    # The key is made in that RUN and passed to that command only.
    assert re.match(r"SECRET_KEY=\"\$\(python -c '.*secrets.*'\)\"", collect[0])
    # Collected before USER: the app user cannot write the code directory.
    stage = final_stage()
    collect_at = next(index for index, i in enumerate(stage) if "collectstatic" in i.args)
    user_at = next(index for index, i in enumerate(stage) if i.keyword == "USER")
    assert collect_at < user_at


def dockerignored(path: str) -> bool:
    """Whether `docker build` leaves `path` (relative to the repository) out of the build
    context, as .dockerignore's rules say: Go's filepath.Match per pattern (`*` and `?` within
    one path element), `**` for any number of elements, a pattern that matches a folder leaves
    out everything in it, `!` takes a path back, and the last matching line wins."""
    excluded = False
    for raw in DOCKERIGNORE.read_text().splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        negate = line.startswith("!")
        pattern = line.lstrip("!").strip("/")
        regex = ""
        for part in re.split(r"(\*\*/|\*\*|\*|\?|\[[^]]*\])", pattern):
            if part == "**/":
                regex += "(?:.*/)?"
            elif part == "**":
                regex += ".*"
            elif part == "*":
                regex += "[^/]*"
            elif part == "?":
                regex += "[^/]"
            elif part.startswith("["):
                regex += part
            else:
                regex += re.escape(part)
        if re.fullmatch(regex + "(?:/.*)?", path):
            excluded = not negate
    return excluded


def test_the_dockerignore_matcher_follows_dockers_rules():
    assert dockerignored(".env") and dockerignored(".env.example")
    assert dockerignored("games/__pycache__/models.cpython-311.pyc")
    assert dockerignored(".git/HEAD") and not dockerignored("games/models.py")


@pytest.mark.parametrize(
    "path",
    [
        # The development database and the files SQLite keeps beside it while it runs.
        "db.sqlite3",
        "db.sqlite3-journal",
        "db.sqlite3-wal",
        "db.sqlite3-shm",
        "data/other.sqlite3",
        "data/other.sqlite3-wal",
        # Secrets, environments, version control.
        ".env",
        ".env.production",
        ".secret_key",
        ".venv/bin/python",
        "venv/bin/python",
        ".git/config",
        # Collected files, uploads, dumps and backups an operator may keep in the checkout.
        "staticfiles/app.css",
        "media/avatar.png",
        "patience-2026-01-01.dump",
        "backups/patience-2026-01-01.dump",
        "dump.sql",
        "dump.sql.gz",
        # TLS keys and certificates, wherever an operator puts them.
        "deploy/certs/privkey.pem",
        "deploy/certs/fullchain.pem",
        "certs/server.key",
        "config/privkey.pem",
        # What services and tools run from the checkout leave behind.
        "dump.rdb",
        "games/dump.rdb",
        "nohup.out",
        "celerybeat-schedule",
        "celerybeat-schedule.db",
        "schemathesis-report/index.html",
        "server.log",
        "frontend/debug.log",
        # Whatever else lands at the top of a checkout: only the code is taken.
        "notes.txt",
        "scratch/anything.py",
    ],
)
def test_dockerignore_keeps_local_data_out_of_the_image(path):
    assert dockerignored(path), f"{path} would be copied into the image"


@pytest.mark.parametrize(
    "path",
    [
        "requirements.txt",
        "manage.py",
        "config/settings.py",
        "games/engine/__init__.py",
        "frontend/static/frontend/app.js",
        "frontend/locale/fr/LC_MESSAGES/django.mo",
        "games/migrations/0001_initial.py",
        "games/templates/admin/games/review.html",
        "leaderboards/ranking.py",
        "races/services.py",
        "realtime/sockets.py",
    ],
)
def test_dockerignore_keeps_what_the_image_needs(path):
    assert not dockerignored(path), path


def test_every_file_the_image_needs_is_in_the_build_context():
    # What git tracks in the code's folders: the image's code, templates, catalogues and assets.
    for path in git_files():
        top = path.split("/", 1)[0]
        if top in {"config", "infra", "games", "leaderboards", "races", "realtime"} or (
            top == "frontend" and not path.startswith("frontend/tools/")
        ):
            assert not dockerignored(path), f"{path} would be missing from the image"


def git_files() -> set[str]:
    listed = subprocess.run(
        ["git", "ls-files", "-z"], cwd=REPO, capture_output=True, check=True
    ).stdout.decode()
    return {path for path in listed.split("\0") if path}


def test_no_file_git_does_not_track_would_be_copied_into_the_image():
    # `make check-deploy` runs this on the checkout the image is built from: a file that is not
    # part of the code (a key, a dump, a log, a schedule, a report) must not reach the builder,
    # whatever its name and wherever it lies.
    tracked = git_files()
    copied = []
    for folder, subfolders, files in os.walk(REPO):
        relative = os.path.relpath(folder, REPO)
        relative = "" if relative == "." else relative + "/"
        subfolders[:] = [name for name in subfolders if not dockerignored(relative + name)]
        copied += [
            relative + name
            for name in files
            if not dockerignored(relative + name) and relative + name not in tracked
        ]
    assert not copied, f"these files are not the code's and would be copied: {sorted(copied)}"


def test_what_git_ignores_docker_ignores_too():
    # .gitignore lists what is local to a checkout: none of it belongs in an image.
    for raw in (REPO / ".gitignore").read_text().splitlines():
        pattern = raw.strip()
        if pattern and not pattern.startswith("#"):
            sample = pattern.rstrip("/").replace("**/", "").replace("*", "x")
            sample = re.sub(r"\[([^]])[^]]*\]", r"\1", sample)
            assert dockerignored(sample), f"{pattern} (.gitignore) is not in .dockerignore"


def test_the_documented_backup_writes_its_dump_outside_the_build_folder():
    # A dump in the checkout would be sent to the builder by `docker compose build`.
    guide = (REPO / "docs" / "deployment.md").read_text()
    backup = guide[guide.index("## Backups") :]
    backup = "\n".join(re.findall(r"```sh\n(.*?)```", backup[: backup.index("\n## ", 1)], re.S))
    targets = re.findall(r"(?<![<>])>\s*(\S+)", backup)
    sources = re.findall(r"<\s*(\S+)", backup)
    assert targets and sources
    for path in targets + sources:
        assert path.startswith(("/", "~", '"$BACKUP_DIR', "$BACKUP_DIR")), path


@pytest.mark.parametrize("path", ["Dockerfile", "docker-compose.yml", ".env.example", "README.md"])
def test_deployment_files_point_to_the_guide(path):
    assert "docs/deployment.md" in (REPO / path).read_text()
    assert (REPO / "docs" / "deployment.md").is_file()
