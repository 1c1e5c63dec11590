"""Project-wide test configuration: service gating and strict skips.

Service gating: a test marked `@pytest.mark.postgres` runs only when the default database is
PostgreSQL (DATABASE_URL=postgres://...), and one marked `@pytest.mark.redis` only when REDIS_URL
is set. Otherwise they are skipped with a reason that says which variable to set.

Strict skips: with PATIENCE_STRICT_SKIPS=1 (CI sets it), a skipped test anywhere fails the run.
CI has every service, so a skip there means a test silently did not run.
"""

from __future__ import annotations

import os

import pytest
from django.db import connections

POSTGRES_SKIP_REASON = "PostgreSQL not configured: set DATABASE_URL=postgres://..."
REDIS_SKIP_REASON = "Redis not configured: set REDIS_URL=redis://..."

_skipped: list[tuple[str, str]] = []


def postgres_configured() -> bool:
    # The backend's vendor is known without connecting ("postgresql" for PostGIS too).
    return connections["default"].vendor == "postgresql"


def redis_configured() -> bool:
    return bool(os.environ.get("REDIS_URL"))


def strict_skips() -> bool:
    return os.environ.get("PATIENCE_STRICT_SKIPS", "") not in {"", "0"}


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    has_postgres = postgres_configured()
    has_redis = redis_configured()
    for item in items:
        if not has_postgres and item.get_closest_marker("postgres"):
            item.add_marker(pytest.mark.skip(reason=POSTGRES_SKIP_REASON))
        if not has_redis and item.get_closest_marker("redis"):
            item.add_marker(pytest.mark.skip(reason=REDIS_SKIP_REASON))


def _skip_reason(report: pytest.TestReport | pytest.CollectReport) -> str:
    longrepr = report.longrepr
    if isinstance(longrepr, tuple) and len(longrepr) == 3:
        return str(longrepr[2]).removeprefix("Skipped: ")
    return str(longrepr)


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    # An xfail is reported as "skipped" too, but it ran: it is not a skip.
    if report.skipped and not hasattr(report, "wasxfail"):
        _skipped.append((report.nodeid, _skip_reason(report)))


def pytest_collectreport(report: pytest.CollectReport) -> None:
    # A whole module skipped at import time (pytest.importorskip, allow_module_level=True).
    if report.skipped:
        _skipped.append((report.nodeid, _skip_reason(report)))


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    if strict_skips() and _skipped and session.exitstatus == pytest.ExitCode.OK:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_terminal_summary(
    terminalreporter: pytest.TerminalReporter, exitstatus: int, config: pytest.Config
) -> None:
    if not (strict_skips() and _skipped):
        return
    terminalreporter.section("strict skips: PATIENCE_STRICT_SKIPS=1", sep="=", red=True, bold=True)
    terminalreporter.line(
        f"{len(_skipped)} test(s) skipped; every test must run here, so this run fails:", red=True
    )
    for nodeid, reason in _skipped:
        terminalreporter.line(f"SKIPPED {nodeid}: {reason}")


@pytest.fixture(autouse=True)
def _no_daily_supply_on_requests(settings):
    """Requests do not prepare the coming dailies in tests (games/supply.py), except in the
    tests of that very behaviour, which set `settings.DAILY_SUPPLY` themselves."""
    settings.DAILY_SUPPLY = "off"
