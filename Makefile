# One command per task. Every target works on a fresh machine: it creates .venv when needed.

PYTHON ?= python3.11
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.requirements.stamp
HOST ?= 127.0.0.1
PORT ?= 8000
PYTEST_ARGS ?=

.PHONY: setup run test lint bench clean

# Re-installs only when requirements.txt is newer than the stamp, so a second run is instant.
setup: $(STAMP)

$(STAMP): requirements.txt
	@[ -x $(PY) ] || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements.txt
	@touch $@

# Serves HTTP and WebSocket on http://$(HOST):$(PORT) with the embedded defaults (SQLite,
# in-memory channel layer, eager Celery) unless DATABASE_URL / REDIS_URL are set. First it makes
# sure today's and tomorrow's dailies exist, so you can play at once: on a fresh database that
# deals and solves candidates (well under a minute: few candidates per day, the closest
# difficulty if none fits the weekday, docs/scheduling.md); afterwards it keeps what is there.
run: setup
	$(PY) manage.py migrate --noinput
	$(PY) manage.py schedule_dailies --days 2 --candidates 4
	$(PY) -m uvicorn config.asgi:application --host $(HOST) --port $(PORT)

# Pass extra pytest arguments with PYTEST_ARGS, e.g. make test PYTEST_ARGS="-k rules -x".
test: setup
	$(PY) -m pytest $(PYTEST_ARGS)

lint: setup
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy

# The figures of docs/: replay speed (seconds), then the solver tables (about half an hour).
bench: setup
	$(PY) benchmarks/replay.py
	$(PY) benchmarks/solve.py masterpiece --seeds 1..200 --time-limit 2
	$(PY) benchmarks/solve.py munger --seeds 1..200 --time-limit 10

# Removes the virtualenv and caches; keeps db.sqlite3 (your local data).
clean:
	rm -rf $(VENV) .pytest_cache .hypothesis .ruff_cache .mypy_cache staticfiles
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
