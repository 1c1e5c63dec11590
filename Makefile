# One command per task. Every target works on a fresh machine: it creates .venv when needed.

PYTHON ?= python3.11
VENV := .venv
PY := $(VENV)/bin/python
PIP_INSTALL := $(PY) -m pip install --quiet --disable-pip-version-check
# Two stamps: what production runs (requirements.txt) and the development tools on top of it
# (requirements-dev.txt includes requirements.txt, so its stamp depends on both files).
STAMP := $(VENV)/.requirements.stamp
DEV_STAMP := $(VENV)/.requirements-dev.stamp
HOST ?= 127.0.0.1
PORT ?= 8000
PYTEST_ARGS ?=
# The tests run in parallel, one worker a core (pytest-xdist); PYTEST_WORKERS= runs them in this
# one process (e.g. with a debugger).
PYTEST_WORKERS ?= -n auto

# The site's scripts are checked with Node alone (no package to install): a lint of the ES
# modules (frontend/tools/lint.mjs) and unit tests of the pure ones (node --test).
NODE ?= node
JS_TESTS := tests/frontend/js/

.PHONY: setup setup-dev run test test-fast lint lint-js test-js screenshots check-deploy bench \
	backup restore clean

# Re-installs only when a requirements file is newer than its stamp, so a second run is instant.
setup: $(STAMP)

setup-dev: $(DEV_STAMP)

$(STAMP): requirements.txt
	@[ -x $(PY) ] || $(PYTHON) -m venv $(VENV)
	$(PIP_INSTALL) -r requirements.txt
	@touch $@

$(DEV_STAMP): requirements.txt requirements-dev.txt
	@[ -x $(PY) ] || $(PYTHON) -m venv $(VENV)
	$(PIP_INSTALL) -r requirements-dev.txt
	@touch $@

# Serves HTTP and WebSocket on http://$(HOST):$(PORT) with the embedded defaults (SQLite,
# in-memory channel layer, eager Celery) unless DATABASE_URL / REDIS_URL are set. It collects
# the static files first, so that STATIC_MANIFEST=true (hashed copies, as in production) works
# too. Then it makes sure today's and tomorrow's dailies exist, so you can play at once: on a
# fresh database that deals and solves candidates (well under a minute: few candidates per day,
# the closest difficulty if none fits the weekday, docs/scheduling.md); afterwards it keeps
# what is there.
run: setup
	$(PY) manage.py migrate --noinput
	$(PY) manage.py collectstatic --noinput --verbosity 0
	$(PY) manage.py schedule_dailies --days 2 --candidates 4
	$(PY) -m config.serving --host $(HOST) --port $(PORT)

# Every test but those marked long (15 s or more each: whole games in the browser, the
# schema's fuzzer, servers restarted), so that it takes under 15 minutes on two cores;
# `make test ALL=1` runs them too, as CI does. Extra pytest arguments go in PYTEST_ARGS, e.g.
# make test PYTEST_ARGS="-k rules -x".
TEST_SCOPE := $(if $(ALL),,-m "not long")
test: setup-dev test-js
	$(PY) -m pytest $(PYTEST_WORKERS) $(TEST_SCOPE) $(PYTEST_ARGS)

# The unit tests of the site's pure ES modules, with Node's built-in runner.
test-js:
	$(NODE) --test $(JS_TESTS)

# The tests that take under a second or so: not those marked slow (servers and workers in
# subprocesses, long solves, the fuzzers) nor the browser tests. For the edit-test loop; CI runs
# `make test ALL=1`.
test-fast: setup-dev test-js
	$(PY) -m pytest $(PYTEST_WORKERS) -m "not slow and not e2e" $(PYTEST_ARGS)

lint: setup-dev lint-js
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy

lint-js:
	$(NODE) --experimental-vm-modules --no-warnings frontend/tools/lint.mjs

# The pictures of docs/screenshots (and the README's), taken by the browser tests as they play:
# they write them only when asked, here (a test run leaves the tree as it found it).
screenshots: setup-dev
	PATIENCE_SCREENSHOTS=1 $(PY) -m pytest tests/e2e $(PYTEST_ARGS)

# Before shipping: the deployment files' tests (compose spec, Dockerfile, .env.example; no
# Docker engine needed), then Django's deployment checklist with production-like settings. The
# secret is a throwaway made for this one command; nothing is served.
check-deploy: setup-dev
	$(PY) -m pytest tests/deploy
	DEBUG=false ALLOWED_HOSTS=patience.example CSRF_TRUSTED_ORIGINS=https://patience.example \
	SECRET_KEY="$$($(PY) -c 'import secrets; print(secrets.token_urlsafe(50))')" \
	$(PY) manage.py check --deploy --fail-level WARNING

# A dump of the PostgreSQL database of DATABASE_URL into BACKUP_DIR, a folder outside the
# checkout (the checkout is the image's build context), and the restore of a dump (DUMP=...)
# into the database of DATABASE_URL, which then replays every finished ranked result: a backup
# is only one once it restores. docs/deployment.md, "Backups" (there with docker compose).
BACKUP_DIR ?=
DUMP ?=
backup:
	@test -n "$(DATABASE_URL)" || { echo "make backup: set DATABASE_URL" >&2; exit 2; }
	@test -n "$(BACKUP_DIR)" || { echo "make backup: set BACKUP_DIR (outside the checkout)" >&2; exit 2; }
	@case "$$(realpath -m "$(BACKUP_DIR)")/" in "$$(realpath .)"/*) \
		echo "make backup: BACKUP_DIR must be outside the checkout" >&2; exit 2;; esac
	mkdir -p "$(BACKUP_DIR)"
	pg_dump --format=custom --no-owner --dbname="$(DATABASE_URL)" \
		--file="$(BACKUP_DIR)/patience-$$(date -u +%Y-%m-%dT%H%M%SZ).dump"

restore: setup
	@test -n "$(DATABASE_URL)" || { echo "make restore: set DATABASE_URL" >&2; exit 2; }
	@test -f "$(DUMP)" || { echo "make restore: set DUMP to a dump file" >&2; exit 2; }
	pg_restore --no-owner --clean --if-exists --exit-on-error --dbname="$(DATABASE_URL)" "$(DUMP)"
	DATABASE_URL="$(DATABASE_URL)" $(PY) manage.py migrate --noinput
	DATABASE_URL="$(DATABASE_URL)" $(PY) manage.py verify_attempts

# The figures of docs/: replay speed (seconds), then the solver tables (about half an hour).
bench: setup
	$(PY) benchmarks/replay.py
	$(PY) benchmarks/solve.py masterpiece --seeds 1..200 --time-limit 2
	$(PY) benchmarks/solve.py munger --seeds 1..200 --time-limit 10

# Removes the virtualenv and caches; keeps db.sqlite3 (your local data).
clean:
	rm -rf $(VENV) .pytest_cache .hypothesis .ruff_cache .mypy_cache staticfiles
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
