"""config/settings.py: safe defaults, every knob from the environment, refusals at start-up.

Each test loads the settings in a fresh Python process with a chosen environment.
"""

from __future__ import annotations

import re
import subprocess

import pytest

from tests.config.support import (
    PYTHON,
    ROOT,
    SETTINGS_VARIABLES,
    clean_env,
    settings_error,
    settings_of,
    strong_key,
)

PRODUCTION = {"ALLOWED_HOSTS": "patience.example", "SECRET_KEY": strong_key()}


def test_debug_is_off_by_default_and_only_loopback_hosts_are_served():
    values = settings_of(["DEBUG", "ALLOWED_HOSTS", "HTTPS"])

    assert values == {
        "DEBUG": False,
        "ALLOWED_HOSTS": ["localhost", "127.0.0.1", "[::1]"],
        "HTTPS": False,
    }


def test_no_secret_key_is_committed():
    source = (ROOT / "config" / "settings.py").read_text()

    assert "django-insecure-" not in source
    assert not re.search(r"SECRET_KEY\s*=\s*[\"']", source)


@pytest.mark.parametrize(
    "key",
    [
        "short-but-random-Zq8",
        "a" * 60,
        "abab" * 20,
        "django-insecure-" + "x1Y2z3" * 10,
    ],
    ids=["short", "one-character", "few-characters", "django-insecure"],
)
def test_a_weak_secret_key_is_refused(key):
    assert "SECRET_KEY is too weak" in settings_error(SECRET_KEY=key)


def test_a_strong_secret_key_from_the_environment_is_used():
    key = strong_key()

    assert settings_of(["SECRET_KEY"], SECRET_KEY=key) == {"SECRET_KEY": key}


def test_a_site_served_to_other_machines_needs_its_secret_key_from_the_environment():
    error = settings_error(ALLOWED_HOSTS="patience.example")

    assert "SECRET_KEY must be set" in error


def test_debug_refuses_to_serve_a_host_that_is_not_loopback():
    error = settings_error(DEBUG="true", ALLOWED_HOSTS="localhost,patience.example")

    assert "ImproperlyConfigured" in error
    assert "patience.example" in error


def test_debug_serves_loopback_hosts():
    values = settings_of(["DEBUG"], DEBUG="true", ALLOWED_HOSTS="localhost,127.0.0.1,[::1]")

    assert values == {"DEBUG": True}


def test_the_browsable_api_is_there_with_debug_only():
    def renderers(**env: str) -> list[str]:
        return settings_of(["REST_FRAMEWORK"], **env)["REST_FRAMEWORK"]["DEFAULT_RENDERER_CLASSES"]

    assert renderers() == ["rest_framework.renderers.JSONRenderer"]
    assert renderers(DEBUG="true") == [
        "rest_framework.renderers.JSONRenderer",
        "config.renderers.SafeBrowsableAPIRenderer",
    ]


def test_a_public_host_means_https_hsts_and_secure_cookies():
    names = [
        "SECURE_SSL_REDIRECT",
        "SECURE_HSTS_SECONDS",
        "SECURE_HSTS_INCLUDE_SUBDOMAINS",
        "SESSION_COOKIE_SECURE",
        "CSRF_COOKIE_SECURE",
        "SECURE_PROXY_SSL_HEADER",
    ]

    values = settings_of(names, **PRODUCTION)

    assert values == {
        "SECURE_SSL_REDIRECT": True,
        "SECURE_HSTS_SECONDS": 31536000,
        "SECURE_HSTS_INCLUDE_SUBDOMAINS": True,
        "SESSION_COOKIE_SECURE": True,
        "CSRF_COOKIE_SECURE": True,
        "SECURE_PROXY_SSL_HEADER": None,  # no trusted proxy: X-Forwarded-Proto is ignored
    }


def test_behind_a_trusted_proxy_its_forwarded_scheme_counts():
    values = settings_of(
        ["SECURE_PROXY_SSL_HEADER", "SECURE_HSTS_SECONDS"],
        NUM_PROXIES="1",
        HSTS_SECONDS="600",
        **PRODUCTION,
    )

    assert values == {
        "SECURE_PROXY_SSL_HEADER": ["HTTP_X_FORWARDED_PROTO", "https"],
        "SECURE_HSTS_SECONDS": 600,
    }


def test_https_can_be_turned_off_for_a_public_host_and_on_for_loopback():
    assert settings_of(["SECURE_SSL_REDIRECT"], HTTPS="false", **PRODUCTION) == {
        "SECURE_SSL_REDIRECT": None
    }
    assert settings_of(["SECURE_SSL_REDIRECT"], HTTPS="true") == {"SECURE_SSL_REDIRECT": True}


def test_browser_security_headers_are_on_in_every_mode():
    names = [
        "SECURE_CONTENT_TYPE_NOSNIFF",
        "SECURE_REFERRER_POLICY",
        "X_FRAME_OPTIONS",
        "SESSION_COOKIE_HTTPONLY",
    ]

    expected = {
        "SECURE_CONTENT_TYPE_NOSNIFF": True,
        "SECURE_REFERRER_POLICY": "same-origin",
        "X_FRAME_OPTIONS": "DENY",
        "SESSION_COOKIE_HTTPONLY": True,
    }
    assert settings_of(names) == expected
    assert settings_of(names, **PRODUCTION) == expected


def test_djangos_deployment_checklist_passes_with_production_settings():
    env = clean_env(DEBUG="false", **PRODUCTION)

    done = subprocess.run(
        [PYTHON, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )

    assert done.returncode == 0, done.stdout + done.stderr


def test_static_files_are_the_hashed_manifest_unless_told_otherwise():
    names = ["STORAGES", "WHITENOISE_USE_FINDERS", "STATIC_ROOT"]

    manifest = settings_of(names, STATIC_MANIFEST="true")
    plain = settings_of(names, STATIC_MANIFEST="false", STATIC_ROOT="/srv/static")

    assert manifest["STORAGES"]["staticfiles"]["BACKEND"] == (
        "whitenoise.storage.CompressedManifestStaticFilesStorage"
    )
    assert manifest["WHITENOISE_USE_FINDERS"] is False
    assert manifest["STATIC_ROOT"] == str(ROOT / "staticfiles")
    assert plain["STORAGES"]["staticfiles"]["BACKEND"] == (
        "django.contrib.staticfiles.storage.StaticFilesStorage"
    )
    assert plain["WHITENOISE_USE_FINDERS"] is True
    assert plain["STATIC_ROOT"] == "/srv/static"


def test_logs_go_to_stderr_with_the_app_loggers_at_log_level():
    logging_ = settings_of(["LOGGING"], LOG_LEVEL="debug")["LOGGING"]

    assert logging_["handlers"]["stderr"]["stream"] == "ext://sys.stderr"
    assert logging_["root"]["handlers"] == ["stderr"]
    for app in ("games", "leaderboards", "config"):
        assert logging_["loggers"][app]["level"] == "DEBUG"
    assert settings_of(["LOGGING"])["LOGGING"]["loggers"]["games"]["level"] == "INFO"


def test_postgresql_connections_come_from_a_pool():
    databases = settings_of(
        ["DATABASES"],
        DATABASE_URL="postgres://postgres@127.0.0.1:5432/patience",
        DATABASE_POOL_SIZE="12",
    )["DATABASES"]

    default = databases["default"]
    assert default["CONN_MAX_AGE"] == 0
    # Django's backend with the fast answer while the database is down (config/postgresql).
    assert default["ENGINE"] == "config.postgresql"
    assert default["OPTIONS"]["connect_timeout"] == 3
    assert default["OPTIONS"]["pool"] == {
        "min_size": 1,
        "max_size": 12,
        "timeout": 5,
        "reconnect_timeout": 10,
    }


def test_sqlite_waits_for_the_write_lock_and_uses_wal(tmp_path):
    path = tmp_path / "play.sqlite3"

    default = settings_of(["DATABASES"], SQLITE_PATH=str(path))["DATABASES"]["default"]

    assert default["NAME"] == str(path)
    assert default["OPTIONS"] == {
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
    }


def test_the_cache_on_redis_fails_fast_and_is_ignored_when_down():
    values = settings_of(
        ["CACHES", "DJANGO_REDIS_LOG_IGNORED_EXCEPTIONS"], REDIS_URL="redis://127.0.0.1:6379/0"
    )

    cache = values["CACHES"]["default"]
    assert cache["BACKEND"] == "django_redis.cache.RedisCache"
    assert cache["OPTIONS"]["IGNORE_EXCEPTIONS"] is True
    assert cache["OPTIONS"]["SOCKET_CONNECT_TIMEOUT"] <= 0.5
    assert cache["OPTIONS"]["SOCKET_TIMEOUT"] <= 1
    assert values["DJANGO_REDIS_LOG_IGNORED_EXCEPTIONS"] is True


def test_solving_and_fair_plays_measures_have_celery_queues_of_their_own():
    routes = settings_of(["CELERY_TASK_ROUTES"])["CELERY_TASK_ROUTES"]

    assert routes == {
        "games.tasks.solve_deal": {"queue": "solve"},
        "games.tasks.prove_deal_par": {"queue": "solve"},
        "games.tasks.check_perfection": {"queue": "checks"},
        "games.tasks.analyse_attempt": {"queue": "solve"},  # at the lowest priority
    }


def test_throttle_rates_have_defaults_and_each_can_be_set_from_the_environment():
    def rates(**env: str) -> dict[str, str]:
        return settings_of(["REST_FRAMEWORK"], **env)["REST_FRAMEWORK"]["DEFAULT_THROTTLE_RATES"]

    defaults = rates()
    changed = rates(THROTTLE_GUESTS_NET="7/min", THROTTLE_RENAMES_PLAYER="3/hour")

    assert defaults["starts_net"] == "600/min"
    assert defaults["guests_ip"] == "60/min"
    assert defaults["guests_net"] == "120/min"
    assert defaults["renames_player"] == "10/hour"
    assert defaults["renames_ip"] == "60/hour"
    assert changed == {**defaults, "guests_net": "7/min", "renames_player": "3/hour"}


def test_the_settings_docstring_lists_every_environment_variable():
    import config.settings

    doc = config.settings.__doc__
    for name in (*SETTINGS_VARIABLES, "THROTTLE_"):
        assert re.search(rf"^    {name}", doc, re.MULTILINE), name
    assert "celery -A config worker -Q celery" in doc
    assert "celery -A config worker -Q solve -c 1" in doc


def test_the_checkouts_secret_key_file_is_ignored_by_git():
    done = subprocess.run(
        ["git", "check-ignore", "-q", ".secret_key"], cwd=ROOT, capture_output=True, timeout=30
    )

    assert done.returncode == 0


def test_every_redis_name_starts_with_the_deployments_prefix():
    names = ["CHANNEL_LAYERS", "CACHES", "REDIS_KEY_PREFIX"]
    url = "redis://127.0.0.1:6379/0"

    default = settings_of(names, REDIS_URL=url)
    staging = settings_of(names, REDIS_URL=url, REDIS_KEY_PREFIX="staging")

    assert default["REDIS_KEY_PREFIX"] == "patience"
    assert staging["CHANNEL_LAYERS"]["default"]["CONFIG"]["prefix"] == "staging:ws"
    assert staging["CACHES"]["default"]["KEY_PREFIX"] == "staging"
    assert default["CHANNEL_LAYERS"]["default"]["CONFIG"]["prefix"] == "patience:ws"


@pytest.mark.optimisation
def test_no_redis_client_reads_package_metadata_for_a_new_connection():
    """The channel layer's, the cache's and the short commands' clients each make a connection
    (made, not connected: no Redis is needed) without redis-py reading its version from the
    package's metadata, which it would do for every connection."""
    code = """
import django
django.setup()
import redis.utils

def read(*args):
    raise AssertionError("redis-py read its package metadata for a connection")

redis.utils.get_lib_version = read
from channels.layers import get_channel_layer
from django.conf import settings
from django.core.cache import cache
from infra.redis import client_for

made = [
    get_channel_layer().create_pool(0).make_connection(),
    cache.client.get_client(write=True).connection_pool.make_connection(),
    client_for(settings.REDIS_URL).connection_pool.make_connection(),
]
print(sorted({c.driver_info.lib_version == redis.__version__ for c in made}))
"""
    env = clean_env(REDIS_URL="redis://127.0.0.1:1/0", DJANGO_SETTINGS_MODULE="config.settings")
    done = subprocess.run(
        [PYTHON, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )

    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().splitlines()[-1] == "[True]"
