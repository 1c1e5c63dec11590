"""Django settings for Patience Daily.

Everything that differs between a laptop, CI and production comes from environment variables.
With none set, the project runs self-contained and safe: DEBUG off, served to this machine only
(loopback hosts, plain HTTP), a SQLite file at the repository root, an in-memory channel layer, a
local-memory cache and Celery in eager mode.

    DEBUG                 "true"/"false" (default false). Local development only: with DEBUG on,
                          the server must listen on loopback addresses only (config.serving and
                          gunicorn say where they listen; 0.0.0.0 fails at start-up), a
                          connection that reached another address is refused (whatever its
                          Host header), and every ALLOWED_HOSTS entry must be a loopback host.
    SECRET_KEY            required when ALLOWED_HOSTS names another host than this machine;
                          else default: a random key made once per checkout in .secret_key (mode
                          0600, git-ignored). A key shorter than 50 characters, with fewer than
                          5 distinct characters or starting with "django-insecure" is refused.
    ALLOWED_HOSTS         comma-separated host names (default localhost,127.0.0.1,[::1])
    CSRF_TRUSTED_ORIGINS  comma-separated origins, e.g. https://patience.example (default none);
                          also the origins trusted by the Origin check of state-changing requests
    DATABASE_URL          e.g. postgres://postgres@127.0.0.1:5432/patience (psycopg 3, pooled);
                          default: SQLite
    DATABASE_POOL_SIZE    most PostgreSQL connections per process (default 20)
    HTTP_CONCURRENCY      HTTP requests inside Django at once per process; the others wait
                          their turn (default: DATABASE_POOL_SIZE)
    REQUEST_BODY_SECONDS  seconds a request's whole body may take to arrive; later is 408
                          (default 10)
    SQLITE_PATH           the SQLite file without DATABASE_URL (default db.sqlite3 at the root)
    REDIS_URL             e.g. redis://127.0.0.1:6379/0: channel layer, cache (throttles),
                          Celery (default none: in-memory layer, local-memory cache, eager Celery)
    REDIS_KEY_PREFIX      the start of every key this service keeps in Redis (channel layer,
                          cache, leaderboard index, live boards), so that two deployments (or
                          two test runs) can share one Redis (default "patience")
    HTTPS                 "true"/"false": redirect to HTTPS, HSTS, secure cookies (default true
                          unless every ALLOWED_HOSTS entry is a loopback host)
    HSTS_SECONDS          Strict-Transport-Security max-age when HTTPS is on (default 31536000)
    NUM_PROXIES           trusted reverse proxies in front of the app (default 0). Above 0, the
                          client address is read from X-Forwarded-For and the scheme from
                          X-Forwarded-Proto, which the proxy must set.
    STATIC_MANIFEST       "true"/"false" (default false): true serves the hashed static files
                          that `manage.py collectstatic` makes (`make run` runs it; a missing
                          file is an error); false serves the apps' static folders as they are,
                          no collectstatic needed
    STATIC_ROOT           where collectstatic puts the files (default staticfiles/ at the root)
    LOG_LEVEL             level of the app loggers (games, leaderboards, config) and Celery's, to
                          stderr (default INFO)
    LOG_FORMAT            "plain" (default): one line per record, "time [request id] LEVEL
                          logger: message"; "json": one JSON object per line (time, level,
                          logger, request_id, message, exc_info). Every process, Celery's too;
                          the request id comes from the edge's X-Request-ID (config/requestid.py)
    METRICS_TOKEN         the bearer token of GET /metrics (Prometheus' scrape: "Authorization:
                          Bearer <token>"); at least 32 characters. Without it the metrics are
                          served to this machine only, and only with NUM_PROXIES=0
                          (infra/metrics.py). Default: none
    SENTRY_DSN            report errors to Sentry (or a service speaking its protocol), personal
                          data scrubbed (config/reporting.py). Default: none, nothing is sent
    SENTRY_ENVIRONMENT    the environment name Sentry files the errors under, e.g. production
                          (default: none)
    SERVER_BIND           set by the server process, never by hand: where it listens
                          (config/serving.py), which the DEBUG guard above rests on
    PROMETHEUS_MULTIPROC_DIR  set by gunicorn's settings (config/gunicorn.py), never by hand:
                          where each worker keeps its metrics for the one answering a scrape
                          to add up (infra/metrics.py)
    RACE_DEALS            certified deals kept ready for races, per game: dealt and solved in
                          the background, apart from the dailies' (races/services.py; default
                          8; 0: no supply, a race with no deal chosen takes a past daily's)
    RANKED_STARTS_PER_ADDRESS  ranked attempts at one daily from one household: an address, an
                          IPv6 /64 (default 4); past it a new guest is refused the daily
                          until its day is over, a player with an account is not
    RANKED_STARTS_PER_NETWORK  the same from one /24 or IPv6 /64 network (default 12)
    RANKED_STARTS_PER_NETWORK56  the same from one IPv6 /56 (default RANKED_STARTS_PER_NETWORK)
    THROTTLE_<SCOPE>_<KIND>  a throttle rate, e.g. THROTTLE_MOVES_PLAYER=600/min; the scopes and
                          kinds with their defaults are in THROTTLE_RATES below

Celery workers: the solver's jobs have a queue of their own ("solve"), so a long solve never
holds up other jobs, and the fair-play measures of top results another ("checks"), so that they
never wait behind par proofs. Run one worker per queue:

    celery -A config worker -Q celery          # everything else (scheduling, ...)
    celery -A config worker -Q solve -c 1      # solving deals, one at a time
    celery -A config worker -Q checks -c 1     # measuring top results, one at a time
    celery -A config beat                      # exactly one per deployment
"""

import math
import os
from datetime import timedelta
from pathlib import Path

import dj_database_url
import redis
from django.core.exceptions import ImproperlyConfigured

from config.security import (
    SERVER_BIND_VARIABLE,
    all_loopback,
    debug_exposed_binds,
    is_loopback,
    secret_key,
)

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None or value.strip() == "":
        return default
    value = value.strip().lower()
    if value in {"1", "true", "yes", "on"}:
        return True
    if value in {"0", "false", "no", "off"}:
        return False
    raise ImproperlyConfigured(f"{name} must be true or false, not {value!r}")


def env_int(name: str, default: int) -> int:
    value = os.environ.get(name)
    if value is None or value.strip() == "":
        return default
    try:
        return int(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be a whole number, not {value!r}") from None


def env_list(name: str, default: list[str]) -> list[str]:
    value = os.environ.get(name)
    if value is None or value.strip() == "":
        return default
    return [item.strip() for item in value.split(",") if item.strip()]


# --- Core -----------------------------------------------------------------------------------------

DEBUG = env_bool("DEBUG", False)

LOOPBACK_HOSTS = ["localhost", "127.0.0.1", "[::1]"]
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", LOOPBACK_HOSTS)

# Where the server process listens (config/serving.py says so before the application loads).
SERVER_BIND = env_list(SERVER_BIND_VARIABLE, [])

if DEBUG and debug_exposed_binds(SERVER_BIND):
    # DEBUG pages show settings and source code: never to anyone but this machine, which rests
    # on where the server listens (a client chooses its Host header).
    raise ImproperlyConfigured(
        f"DEBUG is on, so the server may only listen on this machine (127.0.0.1, [::1]), not "
        f"{', '.join(debug_exposed_binds(SERVER_BIND))}. Set DEBUG=false to serve other machines."
    )

if DEBUG and not all_loopback(ALLOWED_HOSTS):
    # DEBUG pages show settings and source code: never to anyone but this machine.
    exposed = [host for host in ALLOWED_HOSTS if not is_loopback(host)]
    raise ImproperlyConfigured(
        f"DEBUG is on, so ALLOWED_HOSTS may only name this machine (localhost, 127.0.0.1, "
        f"[::1]), not {', '.join(exposed)}. Set DEBUG=false to serve other hosts."
    )

# Benchmarks only: the game clock of this process runs this many seconds ahead (games/clock.py),
# at most CLOCK_OFFSET_MAX either way. A site served to other machines refuses it: its days must
# be the real ones.
CLOCK_OFFSET_MAX = 10 * 86400
try:
    CLOCK_OFFSET_SECONDS = float(os.environ.get("CLOCK_OFFSET_SECONDS", "") or 0)
except ValueError:
    CLOCK_OFFSET_SECONDS = math.nan
if not abs(CLOCK_OFFSET_SECONDS) <= CLOCK_OFFSET_MAX:  # NaN too
    raise ImproperlyConfigured(
        f"CLOCK_OFFSET_SECONDS is a number of seconds of at most {CLOCK_OFFSET_MAX} either way, "
        f"not {os.environ.get('CLOCK_OFFSET_SECONDS')!r}."
    )
if CLOCK_OFFSET_SECONDS and not all_loopback(ALLOWED_HOSTS):
    raise ImproperlyConfigured(
        "CLOCK_OFFSET_SECONDS moves the game's clock for benchmarks on this machine only; "
        "it is refused when ALLOWED_HOSTS names other hosts."
    )

# Served to other machines, the key must come from the environment (config/security.py).
SECRET_KEY = secret_key(os.environ, BASE_DIR, required=not all_loopback(ALLOWED_HOSTS))
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "channels",
    "csp",
    "axes",
    "games",
    "leaderboards",
    "races",
    "ratings",
    "leagues",
    "realtime",
    "frontend",
    # The metrics' listeners of the apps' signals: above every app (config/monitoring/).
    "config.monitoring",
]

MIDDLEWARE = [
    # Every request's route, method, status and time, for the metrics (config/monitoring/).
    "infra.metrics.RequestMetricsMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # State-changing requests from another origin are refused (config/middleware.py).
    "config.middleware.OriginCheckMiddleware",
    # Text holding NUL (which PostgreSQL cannot store or compare) is refused with 400.
    "config.middleware.NulRefusalMiddleware",
    "csp.middleware.CSPMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # The language of a page: the switch's cookie (/i18n/setlang/), then Accept-Language.
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # After the others, as django-axes asks: it turns a locked-out login into its answer.
    "axes.middleware.AxesMiddleware",
    # A view that cannot reach the database answers 503, not 500. Innermost because it is
    # synchronous only: under ASGI, Django runs each middleware in the mode of the one inside
    # it, so with this one innermost the whole chain runs synchronously in one thread. With
    # an async-capable one innermost, every async-capable middleware above it ran its hooks
    # through a hop to the sync thread and back, two per middleware per request.
    "config.middleware.DatabaseUnavailableMiddleware",
]

ROOT_URLCONF = "config.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

# Django's CSRF refusal answers JSON under /api/ (config/errors.py).
CSRF_FAILURE_VIEW = "config.errors.csrf_failure"
# Error reports never show *_URL settings nor URLs with passwords (config/errors.py).
DEFAULT_EXCEPTION_REPORTER_FILTER = "config.errors.SafeExceptionReporterFilter"

# --- Logging: everything to stderr, in every mode -------------------------------------------------

LOG_LEVEL = os.environ.get("LOG_LEVEL", "INFO").strip().upper() or "INFO"
LOG_FORMAT = os.environ.get("LOG_FORMAT", "").strip().lower() or "plain"
if LOG_FORMAT not in {"plain", "json"}:
    raise ImproperlyConfigured(f"LOG_FORMAT is plain or json, not {LOG_FORMAT!r}")

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "plain": {"format": "%(asctime)s [%(request_id)s] %(levelname)s %(name)s: %(message)s"},
        # One JSON object per line (python-json-logger): what a log collector reads.
        "json": {
            "()": "pythonjsonlogger.json.JsonFormatter",
            "fmt": "%(asctime)s %(levelname)s %(name)s %(request_id)s %(message)s",
            "rename_fields": {"asctime": "time", "levelname": "level", "name": "logger"},
        },
    },
    # Every record carries the id of the request (or socket, or task) it was logged for
    # (config/requestid.py). A database outage (and with REDIS_URL, a Redis one, below) is
    # logged when it begins and when it ends, with a count of the errors held back each minute
    # in between, not once per failed request; what anyone can cause at will is one line
    # (config/outagelog.py).
    "filters": {
        "request_id": {"()": "config.requestid.RequestIdFilter"},
        "database_outage": {"()": "config.outagelog.DatabaseOutageFilter"},
        "one_line": {"()": "config.outagelog.OneLineFilter"},
    },
    "handlers": {
        "stderr": {
            "class": "logging.StreamHandler",
            "stream": "ext://sys.stderr",
            "formatter": LOG_FORMAT,
            "filters": ["request_id", "database_outage"],
        },
    },
    # Libraries' warnings and errors (django-redis' ignored exceptions among them).
    "root": {"handlers": ["stderr"], "level": "WARNING"},
    "loggers": {
        # Unhandled exceptions are logged by django.request at ERROR, with the traceback.
        "django": {"handlers": [], "level": "WARNING", "propagate": True},
        # A request with a Host this site does not serve: a 400 and one line, no traceback.
        "django.security.DisallowedHost": {"filters": ["one_line"], "level": "WARNING"},
        "games": {"level": LOG_LEVEL},
        "leaderboards": {"level": LOG_LEVEL},
        "config": {"level": LOG_LEVEL},
        # The Celery processes log through this configuration too (config/celery.py).
        "celery": {"level": LOG_LEVEL},
    },
}

# --- Metrics and error reports (config/monitoring/, config/reporting.py) -------------------------

METRICS_TOKEN = os.environ.get("METRICS_TOKEN", "").strip()
if METRICS_TOKEN and len(METRICS_TOKEN) < 32:
    raise ImproperlyConfigured(
        "METRICS_TOKEN must be at least 32 characters: "
        'python -c "import secrets; print(secrets.token_urlsafe(32))"'
    )
SENTRY_DSN = os.environ.get("SENTRY_DSN", "").strip()
SENTRY_ENVIRONMENT = os.environ.get("SENTRY_ENVIRONMENT", "").strip()

# --- Database -------------------------------------------------------------------------------------

DATABASE_URL = os.environ.get("DATABASE_URL", "")
DATABASE_POOL_SIZE = env_int("DATABASE_POOL_SIZE", 20)
# HTTP requests inside Django at once per process (config/concurrency.py): each holds a database
# connection for its duration, so no more than the pool has; the others wait their turn.
HTTP_CONCURRENCY = env_int("HTTP_CONCURRENCY", DATABASE_POOL_SIZE)
if DATABASE_URL:
    # postgres://... uses Django's postgresql backend with psycopg 3. Connections come from
    # psycopg's pool (one per process, at most DATABASE_POOL_SIZE); Django requires
    # CONN_MAX_AGE=0 with a pool: a request gives its connection back when it ends.
    # While PostgreSQL cannot be reached, requests fail fast with 503 rather than each waiting
    # the pool's timeout (config/postgresql/base.py), and connecting has a deadline.
    DATABASES = {"default": dj_database_url.parse(DATABASE_URL, conn_max_age=0)}
    if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
        DATABASES["default"]["ENGINE"] = "config.postgresql"
        options = DATABASES["default"].setdefault("OPTIONS", {})
        options.setdefault("connect_timeout", 3)  # seconds (libpq)
        # Prepared statements on (psycopg's default; Django turns them off for the sake of an
        # outside pooler in transaction mode, which this deployment does not have): only the
        # reads and writes of every move and cookie (infra/prepared.py) bind on the server and
        # are prepared, once per pooled connection; the ORM's other queries bind on the client.
        options.setdefault("prepare_threshold", 5)
        options["pool"] = {
            "min_size": 1,
            "max_size": DATABASE_POOL_SIZE,
            "timeout": 5,  # seconds to wait for a free connection (while the database answers)
            "reconnect_timeout": 10,  # then the pool gives up, and the next request tries again
        }
else:
    DATABASES = {
        "default": {
            # Django's SQLite backend, with a process's writers queued (config/sqlite/base.py).
            "ENGINE": "config.sqlite",
            "NAME": str(Path(os.environ.get("SQLITE_PATH", "") or BASE_DIR / "db.sqlite3")),
            "OPTIONS": {
                # Writers queue for the lock at BEGIN (waiting up to `timeout` seconds) instead
                # of failing with "database is locked" when a read turns into a write; WAL
                # lets readers go on while one writes.
                "transaction_mode": "IMMEDIATE",
                "timeout": 20,
                "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
            },
        }
    }

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Redis: channel layer, cache, Celery ----------------------------------------------------------

REDIS_URL = os.environ.get("REDIS_URL", "")
# Every Redis key of this service starts with it. Database ids (an attempt's, a daily's) name
# channel groups and keys: two deployments, or two test databases, sharing one Redis must not
# share names.
REDIS_KEY_PREFIX = os.environ.get("REDIS_KEY_PREFIX", "patience")

# Messages a socket's channel may hold before the layer drops new ones (the layers' default is
# 100): a burst of moves sent over REST while a tab of the same attempt is open must not lose
# the last states on their way to that tab.
CHANNEL_CAPACITY = 1000

# What every Redis client here tells Redis about itself on each new connection (CLIENT SETINFO),
# with redis-py's version read once: left to itself, redis-py 8 reads its package's metadata
# from disk for every connection it makes (half a millisecond, about Django's whole answer to
# an empty request), which is paid hundreds of times over while the pools fill at midnight.
REDIS_DRIVER_INFO = redis.DriverInfo(lib_version=redis.__version__)

if REDIS_URL:
    # A Redis outage is logged when it begins and when it ends, with a count of the errors held
    # back each minute in between, not once per failed call (config/outagelog.py).
    LOGGING["filters"]["redis_outage"] = {  # type: ignore[index]
        "()": "config.outagelog.RedisOutageFilter",
        "url": REDIS_URL,
    }
    LOGGING["handlers"]["stderr"]["filters"].append("redis_outage")  # type: ignore[index]
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "realtime.layer.ReaderChannelLayer",
            "CONFIG": {
                # redis-py caps a connection pool at 100 connections by default; many sockets
                # joining groups at once need more. The layer waits for messages with a 5 s
                # blocking pop: a socket timeout shorter than that (redis-py's default under
                # load) would kill idle consumers, so it is 15 s here.
                "hosts": [
                    {
                        "address": REDIS_URL,
                        "max_connections": 1000,
                        "socket_timeout": 15,
                        "driver_info": REDIS_DRIVER_INFO,
                    }
                ],
                "capacity": CHANNEL_CAPACITY,
                "prefix": f"{REDIS_KEY_PREFIX}:ws",
            },
        }
    }
    # The cache only holds throttle counters: when Redis is down, cache calls fail fast (short
    # timeouts), are logged and answer "nothing cached", so play goes on (PostgreSQL holds every
    # game) and recovers by itself when Redis is back.
    CACHES = {
        "default": {
            "BACKEND": "django_redis.cache.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": REDIS_KEY_PREFIX,
            "OPTIONS": {
                "IGNORE_EXCEPTIONS": True,
                "SOCKET_CONNECT_TIMEOUT": 0.25,
                "SOCKET_TIMEOUT": 0.5,
                "CONNECTION_POOL_KWARGS": {"driver_info": REDIS_DRIVER_INFO},
            },
        }
    }
    DJANGO_REDIS_LOG_IGNORED_EXCEPTIONS = True
    CELERY_BROKER_URL = REDIS_URL
    CELERY_RESULT_BACKEND = REDIS_URL
    CELERY_TASK_ALWAYS_EAGER = False
else:
    # One process, no services: the in-memory layer only reaches consumers in this process.
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels.layers.InMemoryChannelLayer",
            "CONFIG": {"capacity": CHANNEL_CAPACITY},
        }
    }
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    # Tasks run inline; the in-memory broker makes sure nothing tries to reach a real one.
    CELERY_BROKER_URL = "memory://"
    CELERY_TASK_ALWAYS_EAGER = True
    CELERY_TASK_EAGER_PROPAGATES = True

CELERY_TIMEZONE = "UTC"
CELERY_ENABLE_UTC = True
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# Solving a deal may take minutes: it has its own queue and worker, and so do the measures of
# top results (see the docstring above).
CELERY_TASK_ROUTES = {
    "games.tasks.solve_deal": {"queue": "solve"},
    "games.tasks.prove_deal_par": {"queue": "solve"},
    "games.tasks.check_perfection": {"queue": "checks"},
    "games.tasks.analyse_attempt": {"queue": "solve"},
}
# The solver's long jobs asked for by signals (par proofs, perfection checks): "queue", or
# "background" (a thread; the default with eager Celery, which has no worker), or "off".
SOLVER_JOBS = os.environ.get("SOLVER_JOBS", "")
# How long a hint may search, per game (games/services/hints.py), in milliseconds: past it the
# answer is what is known (the undos back to a position known to be winnable), so a player
# waits well under a second (benchmarks/hints.py: p95 0.16 s, max 0.82 s on Munger).
HINT_SECONDS = {
    "munger": env_int("HINT_MS_MUNGER", 800) / 1000,
    "masterpiece": env_int("HINT_MS_MASTERPIECE", 500) / 1000,
}
# The move-by-move analysis of a game (games/services/analysis.py): the solver's CPU seconds for
# one game, and at most for one position of it; past them a position shows proven bounds
# (docs/solver.md, "The analysis of a game", has the figures of a 150-move game).
ANALYSIS_SECONDS = env_int("ANALYSIS_MS", 60_000) / 1000
ANALYSIS_POSITION_SECONDS = env_int("ANALYSIS_POSITION_MS", 2_000) / 1000
# Certified deals kept ready for races, per game (races/services.py, `race_deals_ensure`): dealt
# and solved a few at a time on the solve queue, never taken from the dailies' spares.
RACE_DEALS = env_int("RACE_DEALS", 8)
if RACE_DEALS < 0:
    raise ImproperlyConfigured(f"RACE_DEALS must be 0 or more, not {RACE_DEALS}")

# --- Auth -----------------------------------------------------------------------------------------

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# django-axes counts failed logins (admin and API) and locks out, for a while after too many,
# the pair (account, client address): an attacker's wrong passwords lock the attacker's own
# address out of that account, never the owner logging in from elsewhere (locking the account
# itself let five anonymous guesses lock anybody out, the admin included). Locking an address
# alone would lock out every player behind it (a school, an office, a mobile carrier's NAT);
# guessing from many addresses is slowed by the "accounts" throttles per address and network.
# The address is the one the app itself trusts (infra/addresses.py: NUM_PROXIES hops of
# X-Forwarded-For, else the connection's), never a header it ignores. The backend is axes'
# lockout check (AxesStandaloneBackend) in front of Django's ModelBackend, in one class
# (config/auth.py): a locked-out pair cannot log in, and with a single backend
# `django.contrib.auth.login(request, user)` needs no `backend`.
AUTHENTICATION_BACKENDS = ["config.auth.LockoutModelBackend"]
AXES_FAILURE_LIMIT = 5
AXES_COOLOFF_TIME = timedelta(minutes=15)
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_CLIENT_IP_CALLABLE = "infra.addresses.request_address"
AXES_HANDLER = "axes.handlers.database.AxesDatabaseHandler"
AXES_RESET_ON_SUCCESS = True
# The answer to a locked-out login: JSON 429 `locked_out` under /api/ (games/api/errors.py).
AXES_LOCKOUT_CALLABLE = "games.api.errors.lockout_response"
SILENCED_SYSTEM_CHECKS: list[str] = []

# --- Internationalisation and time ----------------------------------------------------------------

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True
# The site's languages (frontend/locale holds the French and Russian catalogues, compiled .mo
# files included); a browser asking for another language gets English.
LANGUAGES = [("en", "English"), ("fr", "Français"), ("ru", "Русский")]
LOCALE_PATHS = [BASE_DIR / "frontend" / "locale"]

# --- Static files (served by WhiteNoise under every server) -------------------------------------

STATIC_URL = "static/"
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT", "") or BASE_DIR / "staticfiles")
STATIC_MANIFEST = env_bool("STATIC_MANIFEST", False)
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        # Hashed, compressed copies made by `manage.py collectstatic` (long-cached); without the
        # manifest, the files are served as they are from the apps' static/ folders.
        "BACKEND": (
            "whitenoise.storage.CompressedManifestStaticFilesStorage"
            if STATIC_MANIFEST
            else "django.contrib.staticfiles.storage.StaticFilesStorage"
        ),
    },
}
WHITENOISE_USE_FINDERS = not STATIC_MANIFEST
WHITENOISE_AUTOREFRESH = DEBUG and not STATIC_MANIFEST

# --- Request bodies (read whole before Django, or refused: config/bodylimit.py) -------------------

# Seconds a request's whole body may take to arrive; later is 408 request_timeout.
REQUEST_BODY_SECONDS = float(os.environ.get("REQUEST_BODY_SECONDS", "") or 10)

# The largest request body the API reads (bytes); larger is 413 too_large.
API_MAX_BODY_BYTES = 16 * 1024
# The admin's forms (curation notes and the like).
ADMIN_MAX_BODY_BYTES = 1024 * 1024
# Any other path (the site's pages take no uploads).
MAX_BODY_BYTES = 64 * 1024

# The messages a WebSocket may send in any 20 s (realtime/sockets.py), past which each one is
# refused as `rate_limited`: five a second, more than a person plays for long.
SOCKET_BUDGET_MESSAGES = 100

# --- Django REST framework and the OpenAPI schema -------------------------------------------------

# Per scope, "<scope>_player", "<scope>_ip" and "<scope>_net" (the client's /24 or /64 network;
# games/api/throttles.py). A scope without a rate of some kind is not throttled by that kind.
# Each can be changed with THROTTLE_<SCOPE>_<KIND>, e.g. THROTTLE_STARTS_NET=600/min.
THROTTLE_RATES = {
    "starts_player": "30/min",
    "starts_ip": "120/min",
    "starts_net": "600/min",
    "moves_player": "600/min",
    # Per address: a classroom or an office behind one NAT (fifty players at a move and a half a
    # second) plays on; one player's own rate still holds each script.
    "moves_ip": "6000/min",
    "accounts_ip": "20/min",
    "accounts_net": "60/min",
    "guests_ip": "60/min",  # a classroom arriving at once
    "guests_net": "120/min",
    # Races looked up by their code (a race's page, its replays): a code is its key, so no one
    # tries them by the hundred; a classroom in one race reloads its pages freely.
    "races_ip": "300/min",
    "races_net": "1200/min",
    "renames_player": "10/hour",
    "renames_ip": "60/hour",
    # Hints (REST and the play socket alike): each may search for a second or two of CPU.
    "hints_player": "20/min",
    "hints_ip": "60/min",
    "hints_net": "120/min",
    # The analysis of a game: asked for once per game (then kept), read while it is worked out
    # (a page polls every two seconds).
    "analyses_player": "60/min",
    "analyses_ip": "300/min",
    "analyses_net": "1200/min",
    # Leagues: pages, joins, makes and an owner's changes (the seasons' standings too).
    "leagues_player": "120/min",
    "leagues_ip": "600/min",
    "leagues_net": "2400/min",
}

# Leagues (leagues/services.py, docs/leagues.md): members of one league, leagues one player may
# be in, and leagues made from one address in a day (a household's, a classroom's few).
LEAGUE_MEMBERS_MAX = env_int("LEAGUE_MEMBERS_MAX", 200)
LEAGUES_PER_PLAYER = env_int("LEAGUES_PER_PLAYER", 20)
LEAGUE_CREATIONS_PER_ADDRESS = env_int("LEAGUE_CREATIONS_PER_ADDRESS", 5)

# Ranked attempts at one daily from one household (an address; an IPv6 /64, since a home's
# devices each take addresses of their own in it and change them), from its network (/24, /64)
# and from an IPv6 /56 (what a provider gives one customer: many /64s): a household plays ranked,
# a person clearing cookies for guest after guest does not keep the best of many rows. Past
# them a new guest is refused the daily (409 `daily_address_full`) until its day is over; a
# player with an account is not (a classroom behind one address signs in), and still counts.
# Counted in the database (games/services/attempts.py), so they hold while Redis is down,
# unlike the rates above.
RANKED_STARTS_PER_ADDRESS = env_int("RANKED_STARTS_PER_ADDRESS", 4)
RANKED_STARTS_PER_NETWORK = env_int("RANKED_STARTS_PER_NETWORK", 12)
RANKED_STARTS_PER_NETWORK56 = env_int("RANKED_STARTS_PER_NETWORK56", RANKED_STARTS_PER_NETWORK)

# The proxies in front of the app that may say who the client is (X-Forwarded-For).
NUM_PROXIES = env_int("NUM_PROXIES", 0)

REST_FRAMEWORK = {
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_RENDERER_CLASSES": [
        "rest_framework.renderers.JSONRenderer",
        *(["config.renderers.SafeBrowsableAPIRenderer"] if DEBUG else []),
    ],
    # JSON only, at most API_MAX_BODY_BYTES: a cross-site HTML form cannot send JSON.
    "DEFAULT_PARSER_CLASSES": ["games.api.parsers.BoundedJSONParser"],
    # Session auth enforces CSRF for logged-in users only; guests are known by the player
    # cookie (games/api/identity.py).
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.AllowAny"],
    "EXCEPTION_HANDLER": "games.api.errors.api_exception_handler",
    "DEFAULT_THROTTLE_RATES": {
        scope: os.environ.get(f"THROTTLE_{scope.upper()}", "").strip() or rate
        for scope, rate in THROTTLE_RATES.items()
    },
    # Behind N trusted proxies, the client address is taken from X-Forwarded-For; with 0, the
    # header is ignored (it could be forged) and REMOTE_ADDR counts.
    "NUM_PROXIES": NUM_PROXIES,
    "TEST_REQUEST_DEFAULT_FORMAT": "json",
}

SPECTACULAR_SETTINGS = {
    "TITLE": "Patience Daily API",
    "DESCRIPTION": (
        "Daily Munger and Masterpiece deals, server-checked moves and leaderboards.\n\n"
        "**Player.** A signed, httponly cookie (`patience_player`) names the player; the first "
        "request that needs one creates a guest and sets it. Keep the cookie (browsers do; "
        "scripts need a cookie jar). Logging in switches it to the account's player.\n\n"
        "**CSRF.** Guests need no CSRF token. A logged-in user (session cookie) must send the "
        "`csrftoken` cookie's value in the `X-CSRFToken` header with every POST, PATCH or "
        "DELETE, or gets 403 `csrf_failed`. A browser's POST, PATCH or DELETE whose `Origin` "
        "is another site (another port of the same host too) is 403 `bad_origin`. Bodies are "
        "JSON only, at most 16 KiB.\n\n"
        '**Errors** are JSON `{"code": "...", "detail": "..."}` (see the `Error` '
        "schema): 400 malformed or invalid, 403 not yours, 404 unknown or future, 405 wrong "
        "method, 409 wrong seq or finished attempt, 413 too large, 422 illegal move, "
        "429 throttled or `locked_out`, 500 `server_error`, 503 `database_unavailable`."
    ),
    "VERSION": "0.1.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # The browsable docs load Swagger UI from our own static files (drf-spectacular-sidecar).
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # Choice sets behind fields of the same name ("status") get names of their own.
    "ENUM_NAME_OVERRIDES": {
        "StatusEnum": "games.models.Attempt.Status",
        "HintStatusEnum": "games.services.hints.STATUSES",
        "RaceStatusEnum": "races.models.Race.Status",
        "RacerStatusEnum": "races.models.RACER_STATUSES",
    },
    # PATCH /api/players/me/ takes the whole body (its one field is required), as POST does.
    "COMPONENT_SPLIT_PATCH": False,
    # Request bodies refuse unknown fields, and the schema says so.
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "games.api.openapi.strict_request_bodies",
        "races.api.one_deal_source",
    ],
}

# --- HTTPS and browser security headers -----------------------------------------------------------

# Served to other machines, the site is HTTPS only, unless told otherwise.
HTTPS = env_bool("HTTPS", not all_loopback(ALLOWED_HOSTS))
if HTTPS:
    SECURE_SSL_REDIRECT = True
    SECURE_HSTS_SECONDS = env_int("HSTS_SECONDS", 31536000)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    # No "preload": joining the browsers' preload list is hard to undo and is the domain
    # owner's decision, so Django's reminder about it (security.W021) is silenced.
    SILENCED_SYSTEM_CHECKS.append("security.W021")
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
if NUM_PROXIES > 0:
    # Only a trusted proxy may say the client used HTTPS; without one, anybody could.
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
SESSION_COOKIE_HTTPONLY = True

# django-csp: scripts and styles from our own origin only (no inline code, no eval). 'self' in
# connect-src also allows WebSockets to this same host and port (ws: under http, wss: under
# https; CSP Level 3).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "connect-src": ["'self'"],
        "frame-ancestors": ["'none'"],
        "form-action": ["'self'"],
        "base-uri": ["'none'"],
        "object-src": ["'none'"],
    },
}

# --- Error reports --------------------------------------------------------------------------------

if SENTRY_DSN:
    # Every process that loads the settings reports its errors, personal data scrubbed.
    from config.reporting import sentry_init

    sentry_init(SENTRY_DSN, environment=SENTRY_ENVIRONMENT)
