# Patience Daily: one image for every process of a deployment (docker-compose.yml): the web
# server (the default command), the Celery workers, beat and one-off management commands.
# It holds what production runs (requirements.txt) and none of the development tools.
# Settings come from the environment at run time; see .env.example and docs/deployment.md.

# --- Build stage: a virtualenv with the pinned dependencies ---------------------------------------
FROM python:3.11-slim AS build

ENV PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PIP_NO_CACHE_DIR=1 \
    PYTHONDONTWRITEBYTECODE=1

RUN python -m venv /opt/venv
# Only the requirements first, so that a code change does not reinstall the dependencies.
COPY requirements.txt /tmp/requirements.txt
RUN /opt/venv/bin/pip install -r /tmp/requirements.txt

# --- Runtime stage ---------------------------------------------------------------------------------
FROM python:3.11-slim AS runtime

# STATIC_MANIFEST=true: the app serves the hashed, compressed copies collected below (long-cached
# by browsers); the build step and the running containers must agree on it.
ENV PATH=/opt/venv/bin:$PATH \
    PYTHONUNBUFFERED=1 \
    PYTHONDONTWRITEBYTECODE=1 \
    DJANGO_SETTINGS_MODULE=config.settings \
    STATIC_MANIFEST=true

# The processes run as "app", which cannot change the code. Its home is writable (gunicorn keeps
# its control socket there); /var/lib/celery-beat holds beat's schedule file (a volume in
# docker-compose.yml, created with this owner).
# A fixed numeric id, so that an orchestrator can check it is not root.
RUN groupadd --system --gid 10001 app \
    && useradd --system --uid 10001 --gid app --create-home --home-dir /home/app \
        --shell /usr/sbin/nologin app \
    && install -d -o app -g app /var/lib/celery-beat

COPY --from=build /opt/venv /opt/venv

WORKDIR /app
COPY . .

# Hashed, compressed static files, served by WhiteNoise from /app/staticfiles (STATIC_ROOT's
# default: leave STATIC_ROOT unset in the container). Loading the settings needs a SECRET_KEY
# (without one they would write a .secret_key file into the image), so this step alone gets a
# random throwaway key: it lives in this RUN's environment only, never in the image's ENV or in
# a layer. At run time SECRET_KEY must come from the environment: the app user cannot write a
# key file, so a container without one fails to start. Then precompile the code, since the app
# user cannot write __pycache__ either.
RUN SECRET_KEY="$(python -c 'import secrets; print(secrets.token_urlsafe(50))')" \
    DEBUG=false \
    ALLOWED_HOSTS=localhost \
    python manage.py collectstatic --noinput --verbosity 1 \
    && python -m compileall -q /app

USER 10001:10001

EXPOSE 8000

# GET /healthz/ answers 503 when this process cannot serve players (the database is down, or its
# own channel layer fails), 200 otherwise, "degraded" included (urlopen raises on 503, so the
# check fails). slim has no curl: Python's urllib does it. The check is answered before Django,
# so it needs no allowed Host.
HEALTHCHECK --interval=30s --timeout=10s --start-period=30s --retries=3 \
    CMD ["python", "-c", "import urllib.request as r; r.urlopen('http://127.0.0.1:8000/healthz/', timeout=8)"]

# HTTP and WebSocket: gunicorn manages uvicorn workers (restarts a dead one, graceful stops).
# The shell expands WEB_CONCURRENCY; exec makes gunicorn PID 1, so it gets the stop signal.
# config/gunicorn.py adds up the workers' metrics (prometheus_client's multiprocess mode, in
# /tmp/patience-metrics, emptied at start).
CMD ["sh", "-c", "exec gunicorn config.server:application -c python:config.gunicorn -k config.serving.Worker --bind 0.0.0.0:8000 --workers ${WEB_CONCURRENCY:-2} --graceful-timeout 20 --timeout 60"]
