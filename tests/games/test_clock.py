"""The game clock's offset for benchmarks (games/clock.py): a process may run ahead of real
time by CLOCK_OFFSET_SECONDS, never a site served to other machines."""

from __future__ import annotations

import datetime as dt
import subprocess

import pytest

from tests.config.support import PYTHON, ROOT, clean_env, settings_error, strong_key

pytestmark = pytest.mark.slow


def clock_of(**env: str) -> dt.datetime:
    code = "import django; django.setup(); from games import clock; print(clock.now().isoformat())"
    done = subprocess.run(
        [PYTHON, "-c", code],
        cwd=ROOT,
        env=clean_env(DJANGO_SETTINGS_MODULE="config.settings", **env),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    return dt.datetime.fromisoformat(done.stdout.strip().splitlines()[-1])


def test_a_benchmark_process_runs_ahead_by_its_offset():
    before = dt.datetime.now(dt.UTC)
    ahead = clock_of(CLOCK_OFFSET_SECONDS="86400", SECRET_KEY=strong_key())
    after = dt.datetime.now(dt.UTC)

    assert before + dt.timedelta(days=1) <= ahead <= after + dt.timedelta(days=1)


def test_a_site_served_to_other_machines_refuses_an_offset():
    error = settings_error(
        CLOCK_OFFSET_SECONDS="60", ALLOWED_HOSTS="patience.example", SECRET_KEY=strong_key()
    )
    assert "CLOCK_OFFSET_SECONDS" in error and "refused" in error


@pytest.mark.parametrize("offset", ["nan", "inf", "-inf", "1e300", "864001", "-864001", "soon"])
def test_an_offset_that_is_no_number_of_at_most_ten_days_is_refused(offset):
    error = settings_error(CLOCK_OFFSET_SECONDS=offset, SECRET_KEY=strong_key())
    assert "CLOCK_OFFSET_SECONDS" in error and "ImproperlyConfigured" in error
