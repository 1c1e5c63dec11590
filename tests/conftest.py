"""Project-wide test configuration: service gating and strict skips.

Service gating: a test marked `@pytest.mark.postgres` runs only when the default database is
PostgreSQL (DATABASE_URL=postgres://...), and one marked `@pytest.mark.redis` only when REDIS_URL
is set. Otherwise they are skipped with a reason that says which variable to set.

Strict skips: with PATIENCE_STRICT_SKIPS=1 (CI sets it), a skipped test anywhere fails the run.
CI has every service, so a skip there means a test silently did not run. Under pytest-xdist the
workers' reports reach the controller, which lists the skips and fails the run.

Test databases of a run's own: with TEST_DB_SUFFIX=name, every PostgreSQL test database gets
`_name` added (`test_patience_name`, `test_patience_name_resilience`, `..._gw0`), so that runs in
other worktrees on the same PostgreSQL do not drop each other's databases.

Speed: tests of a second or more are marked `slow` (`make test-fast` leaves them out): in their
own files, or, for those listed in `SLOW_TESTS`, here. The factories' certified deals
(tests/games/factories.py) solve each deal once a session, and passwords hash fast.
"""

from __future__ import annotations

import copy
import os
import uuid
import warnings
from collections.abc import Iterator
from typing import Any

import pytest
from django.db import connections
from hypothesis import HealthCheck
from hypothesis import settings as hypothesis_settings

from tests.support import add_test_db_suffix

# Property tests check what code does, never how fast: no per-example deadline and no "too slow"
# health check, which a machine busy with other work (parallel workers, CI) would trip at random.
hypothesis_settings.register_profile(
    "project", deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
hypothesis_settings.load_profile("project")

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


def pytest_configure(config: pytest.Config) -> None:
    """SQLite tests run on the in-memory database Django makes for them, said explicitly:
    pytest-django names a database per xdist worker (`-n`) by adding a suffix to the test name
    of every backend but Django's own SQLite one, and would take ours (config.sqlite) for a file
    named after the path of db.sqlite3. An in-memory database is each worker's own anyway."""
    from django.conf import settings

    for database in settings.DATABASES.values():
        if "sqlite" in database["ENGINE"] and not database.get("TEST", {}).get("NAME"):
            database.setdefault("TEST", {})["NAME"] = ":memory:"


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings_parallel_suffix) -> None:
    """pytest-django's own (xdist's `_gw0`...), then TEST_DB_SUFFIX's (`add_test_db_suffix`)."""
    add_test_db_suffix()


#: Tests of a second or more (on a 2-core machine) that their own files do not mark `slow`:
#: the test file, then the test functions (every parameter), a `name[parameter]` for one, or
#: "*" for the whole file. Moving a mark into its file is better; then remove it here.
SLOW_TESTS: dict[str, tuple[str, ...]] = {
    # Hypothesis fuzzers, 150 examples each.
    "tests/abuse/test_fuzz_engine.py": ("*",),
    # A fresh interpreter loading the settings, or Django's deployment checks.
    "tests/config/test_errors.py": (
        "test_with_debug_off_an_unhandled_exceptions_traceback_goes_to_stderr",
    ),
    "tests/config/test_settings.py": (
        "test_djangos_deployment_checklist_passes_with_production_settings",
        "test_browser_security_headers_are_on_in_every_mode",
        "test_https_can_be_turned_off_for_a_public_host_and_on_for_loopback",
    ),
    # The solver at work, or whole games played and verified move by move.
    "tests/engine/test_doctests.py": ("test_doctests_pass[games.engine.solver]",),
    "tests/games/test_admin.py": ("test_solve_now_runs_the_solver_and_stores_a_certificate",),
    "tests/games/test_api.py": (
        "test_no_munger_payload_carries_a_hidden_card",
        "test_the_schema_generates_without_warnings_and_lists_every_endpoint",
        "test_a_guest_plays_todays_daily_to_a_verified_win_and_then_sees_par",
    ),
    "tests/games/test_commands.py": (
        "test_schedule_dailies_fails_when_a_day_is_left_empty",
        "test_schedule_dailies_says_what_it_deals_as_it_goes",
    ),
    "tests/games/test_scheduling.py": (
        "test_a_fresh_database_gets_a_full_week_for_both_games",
        "test_a_second_run_changes_nothing",
        "test_candidates_are_dealt_until_one_fits_and_the_others_are_kept",
        "test_without_a_fit_the_closest_solved_difficulty_is_taken",
        "test_an_unknown_or_unsolvable_deal_is_never_taken",
    ),
    "tests/games/test_services.py": (
        "test_playing_the_certificate_wins_and_is_verified",
        "test_verification_replays_the_stored_history",
    ),
    "tests/games/test_supply.py": ("test_on_the_third_day_the_first_request_prepares_today",),
    # Waits for the live feed's coalescing window.
    "tests/realtime/test_daily_socket.py": (
        "test_many_moves_are_coalesced_into_a_few_versioned_events",
    ),
}


def _mark_slow_tests(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark the tests of `SLOW_TESTS` slow; warn of a name that matches no test of a file
    collected whole (a test renamed or gone)."""
    matched: set[tuple[str, str]] = set()
    collected: set[str] = set()
    for item in items:
        path = item.nodeid.split("::", 1)[0]
        names = SLOW_TESTS.get(path)
        if names is None:
            continue
        collected.add(path)
        for name in names:
            if name in ("*", item.name, getattr(item, "originalname", None)):
                item.add_marker(pytest.mark.slow)
                matched.add((path, name))
    if any("::" in arg for arg in config.args):
        return  # single tests were asked for: the others of their files are not collected
    for path in collected:
        for name in SLOW_TESTS[path]:
            if (path, name) not in matched:
                warnings.warn(f"SLOW_TESTS: {path} has no test {name}", stacklevel=1)


@pytest.hookimpl(tryfirst=True)  # before -m "not slow" deselects
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    _mark_slow_tests(config, items)
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
    settings.SOLVER_JOBS = "off"  # par proofs and perfection checks take minutes; tests call them


@pytest.fixture(autouse=True)
def fresh_throttles(monkeypatch):
    """Each test counts its requests afresh: throttle keys get a namespace of the test's own
    rather than a cleared cache (under Redis the cache is shared with Celery's broker, with the
    other xdist workers and with other runs of the suite)."""
    from games.api import throttles

    monkeypatch.setattr(
        throttles.ScopeThrottle, "cache_format", f"throttle_{uuid.uuid4().hex}_%(scope)s_%(ident)s"
    )


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    """Passwords hash with a fast hasher in tests: the real one takes a good part of a second
    for each user made with a password (`admin_user`, accounts), on purpose."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _no_snapshot_of_another_test() -> None:
    """The live boards' snapshots are kept a moment per daily id and version, and ids and
    versions repeat from test to test: each test starts without any."""
    from realtime import boards as live

    with live._snapshots_lock:
        live._snapshots.clear()


@pytest.fixture(autouse=True, scope="session")
def _redis_names_of_this_process() -> None:
    """Redis keys and channel groups of this test process's own. Their names carry database ids
    (attempt 5's group, daily 3's board), and every xdist worker has a database of its own
    counting from 1 while all share one Redis: without a prefix per process, a move in one
    worker's attempt 5 would reach the sockets of another worker's attempt 5."""
    from django.conf import settings

    prefix = f"test-{uuid.uuid4().hex[:12]}"
    settings.REDIS_KEY_PREFIX = prefix
    for layer in settings.CHANNEL_LAYERS.values():
        if "prefix" in layer.get("CONFIG", {}):
            layer["CONFIG"]["prefix"] = f"{prefix}:ws"
    for cache in settings.CACHES.values():
        if "KEY_PREFIX" in cache:
            cache["KEY_PREFIX"] = prefix


@pytest.fixture(autouse=True, scope="session")
def _solve_each_deal_once() -> Iterator[None]:
    """The factories solve a deal for every certified deal they make, hundreds of times a run on
    the same few seeds: the first solve of a deal (with the same options) is kept for the
    session, and each call answers a copy of it."""
    from tests.games import factories

    solved: dict[tuple[Any, ...], Any] = {}
    real = factories.solve

    def solve_once(game: str, deal_string: str, **options: Any) -> Any:
        key = (game, deal_string, *sorted(options.items()))
        if key not in solved:
            solved[key] = real(game, deal_string, **options)
        return copy.deepcopy(solved[key])

    patch = pytest.MonkeyPatch()
    patch.setattr(factories, "solve", solve_once)
    yield
    patch.undo()
