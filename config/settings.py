"""Django settings for Patience Daily.

Everything that differs between a laptop, CI and production comes from environment variables.
With none set, the project runs self-contained for development: DEBUG on, a SQLite file at the
repository root, an in-memory channel layer, a local-memory cache and Celery in eager mode.

    SECRET_KEY            required when DEBUG is false
    DEBUG                 "true"/"false" (default true)
    ALLOWED_HOSTS         comma-separated host names
    CSRF_TRUSTED_ORIGINS  comma-separated origins, e.g. https://patience.example
    DATABASE_URL          e.g. postgres://postgres@127.0.0.1:5432/patience (psycopg 3)
    REDIS_URL             e.g. redis://127.0.0.1:6379/0 (channel layer, cache, Celery)
"""

import os
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

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


def env_list(name: str, default: list[str]) -> list[str]:
    value = os.environ.get(name)
    if value is None or value.strip() == "":
        return default
    return [item.strip() for item in value.split(",") if item.strip()]


# --- Core -----------------------------------------------------------------------------------------

DEBUG = env_bool("DEBUG", True)

SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is false")
    # Development only: never used when DEBUG is off.
    SECRET_KEY = "django-insecure-patience-daily-development-key-do-not-use-in-production"

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]"] if DEBUG else [])
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
    "games",
    "leaderboards",
    "frontend",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
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

# --- Database -------------------------------------------------------------------------------------

DATABASE_URL = os.environ.get("DATABASE_URL", "")
if DATABASE_URL:
    # postgres://... uses Django's postgresql backend, which picks psycopg 3 when installed.
    # Persistent connections stay off by default: under ASGI each request may run in another
    # thread, and idle connections would pile up.
    DATABASES = {
        "default": dj_database_url.parse(
            DATABASE_URL,
            conn_max_age=int(os.environ.get("DATABASE_CONN_MAX_AGE", "0")),
            conn_health_checks=True,
        )
    }
else:
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": BASE_DIR / "db.sqlite3",
        }
    }

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Redis: channel layer, cache, Celery ----------------------------------------------------------

REDIS_URL = os.environ.get("REDIS_URL", "")

if REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {
                # redis-py caps a pool at 100 connections; many sockets joining groups at once
                # need more (see STACK-NOTES, trap 6).
                "hosts": [{"address": REDIS_URL, "max_connections": 1000}],
            },
        }
    }
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": "patience",
        }
    }
    CELERY_BROKER_URL = REDIS_URL
    CELERY_RESULT_BACKEND = REDIS_URL
    CELERY_TASK_ALWAYS_EAGER = False
else:
    # One process, no services: the in-memory layer only reaches consumers in this process.
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
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

# --- Auth -----------------------------------------------------------------------------------------

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# --- Internationalisation and time ----------------------------------------------------------------

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

# --- Static files (served by WhiteNoise under every server) -------------------------------------

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        # Production serves hashed, compressed files made by `manage.py collectstatic`.
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        ),
    },
}
# In development, serve straight from the apps' static/ folders, no collectstatic needed.
WHITENOISE_USE_FINDERS = DEBUG
WHITENOISE_AUTOREFRESH = DEBUG

# --- Django REST framework and the OpenAPI schema -------------------------------------------------

REST_FRAMEWORK = {
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_RENDERER_CLASSES": [
        "rest_framework.renderers.JSONRenderer",
        *(["rest_framework.renderers.BrowsableAPIRenderer"] if DEBUG else []),
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
    # Per scope, "<scope>_player" and "<scope>_ip" (games/api/throttles.py).
    "DEFAULT_THROTTLE_RATES": {
        "starts_player": os.environ.get("THROTTLE_STARTS_PLAYER", "30/min"),
        "starts_ip": os.environ.get("THROTTLE_STARTS_IP", "120/min"),
        "moves_player": os.environ.get("THROTTLE_MOVES_PLAYER", "600/min"),
        "moves_ip": os.environ.get("THROTTLE_MOVES_IP", "1200/min"),
        "accounts_ip": os.environ.get("THROTTLE_ACCOUNTS_IP", "20/min"),
    },
    # Behind N trusted proxies, the client address is taken from X-Forwarded-For; with 0, the
    # header is ignored (it could be forged) and REMOTE_ADDR counts.
    "NUM_PROXIES": int(os.environ.get("NUM_PROXIES", "0")),
    "TEST_REQUEST_DEFAULT_FORMAT": "json",
}

# The largest request body the API reads (bytes); larger is 413 too_large.
API_MAX_BODY_BYTES = 16 * 1024

SPECTACULAR_SETTINGS = {
    "TITLE": "Patience Daily API",
    "DESCRIPTION": (
        "Daily Munger and Masterpiece deals, server-checked moves and leaderboards.\n\n"
        "**Player.** A signed, httponly cookie (`patience_player`) names the player; the first "
        "request that needs one creates a guest and sets it. Keep the cookie (browsers do; "
        "scripts need a cookie jar). Logging in switches it to the account's player.\n\n"
        "**CSRF.** Guests need no CSRF token. A logged-in user (session cookie) must send the "
        "`csrftoken` cookie's value in the `X-CSRFToken` header with every POST, PATCH or "
        "DELETE, or gets 403 `csrf_failed`. Bodies are JSON only, at most 16 KiB.\n\n"
        '**Errors** are JSON `{"code": "...", "detail": "..."}` (see the `Error` '
        "schema): 400 malformed or invalid, 403 not yours, 404 unknown or future, 405 wrong "
        "method, 409 wrong seq or finished attempt, 413 too large, 422 illegal move, "
        "429 throttled."
    ),
    "VERSION": "0.1.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # The browsable docs load Swagger UI from our own static files (drf-spectacular-sidecar).
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
}

# --- Production hardening (only when DEBUG is off) ------------------------------------------------

if not DEBUG:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SESSION_COOKIE_SECURE = env_bool("SESSION_COOKIE_SECURE", True)
    CSRF_COOKIE_SECURE = env_bool("CSRF_COOKIE_SECURE", True)
