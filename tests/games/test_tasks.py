"""The Celery tasks: solve_deal and ensure_dailies, inline (eager) and on a real worker.

Inline tests force eager mode on the app, since with REDIS_URL set the app sends to Redis. The
worker tests (`redis` and `postgres` marks) start `celery worker` in a subprocess pointed at the
test database and a queue of their own, and watch the database.
"""

from __future__ import annotations

import datetime as dt
import os
import uuid
from collections.abc import Iterator

import pytest
from celery.exceptions import SoftTimeLimitExceeded
from django.db import connection

from config.celery import app
from games import clock, scheduling, services, signals, tasks
from games.engine.solver import SolveResult
from games.errors import Conflict
from games.models import DailyChallenge, Deal
from games.services import STALE_CLAIM
from games.tasks import ensure_dailies, solve_deal
from tests.games import factories
from tests.support import CeleryWorker, database_url, routed_to, wait_until

SOLVE_FAST = 0.5  # seconds: the deals below decide in milliseconds; par takes the rest


@pytest.fixture
def eager() -> Iterator[None]:
    """Tasks run inline in this process, whatever REDIS_URL says."""
    before = app.conf.task_always_eager, app.conf.task_eager_propagates
    app.conf.task_always_eager = app.conf.task_eager_propagates = True
    yield
    app.conf.task_always_eager, app.conf.task_eager_propagates = before


@pytest.fixture
def solver_calls(monkeypatch) -> list[str]:
    calls: list[str] = []
    real = services.deals.solve

    def counted(game, deal_string, **budget):
        calls.append(game)
        return real(game, deal_string, **budget)

    monkeypatch.setattr(services.deals, "solve", counted)
    return calls


def pending(game: str = "masterpiece", seed: int = 9) -> Deal:
    """A new deal to solve; the default one decides in a few milliseconds (Masterpiece seed 1
    needs about 0.3 s: too close to SOLVE_FAST on a busy machine)."""
    return services.deal_create(game=game, seed=seed)


# -- solve_deal, inline -----------------------------------------------------------------------


@pytest.mark.django_db
def test_solve_deal_stores_a_verified_certificate(eager):
    deal = pending("munger", 11)

    assert solve_deal.delay(deal.pk, SOLVE_FAST).get() == "solved"

    deal.refresh_from_db()
    assert deal.solver_status == "solved" and deal.certificate
    assert deal.par == len(deal.certificate) and 1 <= deal.difficulty <= 5
    assert deal.solve_started_at is not None and deal.solved_at is not None


@pytest.mark.django_db
def test_a_second_delivery_is_skipped_and_stores_nothing(eager, solver_calls):
    deal = pending()
    assert solve_deal.delay(deal.pk, SOLVE_FAST).get() == "solved"
    first = Deal.objects.values().get(pk=deal.pk)

    assert solve_deal.delay(deal.pk, SOLVE_FAST).get() == "skipped"

    assert Deal.objects.values().get(pk=deal.pk) == first
    assert solver_calls == ["masterpiece"]


@pytest.mark.django_db
def test_a_deal_being_solved_elsewhere_is_skipped(eager, solver_calls):
    deal = pending()
    assert services.deal_claim_for_solving(deal_id=deal.pk)  # another worker has it

    assert solve_deal.delay(deal.pk, SOLVE_FAST).get() == "skipped"

    assert Deal.objects.get(pk=deal.pk).solver_status == "solving"
    assert solver_calls == []


@pytest.mark.django_db
def test_a_stale_claim_is_reclaimed(eager, travel):
    deal = pending()
    claimed_at = dt.datetime(2026, 11, 30, 9, 0, tzinfo=dt.UTC)
    travel(claimed_at)
    assert services.deal_claim_for_solving(deal_id=deal.pk)  # ... by a worker that died
    travel(claimed_at + STALE_CLAIM + dt.timedelta(seconds=1))

    assert solve_deal.delay(deal.pk, SOLVE_FAST).get() == "solved"

    deal.refresh_from_db()
    assert deal.solver_status == "solved" and deal.solve_started_at == clock.now()


@pytest.mark.django_db
@pytest.mark.parametrize("approve", [False, True])
def test_a_decided_deal_is_skipped(eager, solver_calls, approve):
    deal = factories.certified_deal("masterpiece", 1, approve=approve)
    before = Deal.objects.values().get(pk=deal.pk)

    assert solve_deal.delay(deal.pk).get() == "skipped"

    assert Deal.objects.values().get(pk=deal.pk) == before
    assert solver_calls == []


@pytest.mark.django_db
def test_a_certificate_the_verifier_refuses_is_stored_as_unknown(eager, monkeypatch):
    deal = pending("munger", 11)
    bogus = SolveResult("solved", moves=["T1>F", "W>T9"], par=2, difficulty=1, stats={"nodes": 1})
    monkeypatch.setattr(services.deals, "solve", lambda *args, **kwargs: bogus)

    assert solve_deal.delay(deal.pk).get() == "unknown"

    deal.refresh_from_db()
    assert (deal.solver_status, deal.certificate, deal.par, deal.difficulty) == (
        "unknown",
        [],
        None,
        None,
    )
    with pytest.raises(Conflict):
        services.deal_approve(deal=deal, system=True)


@pytest.mark.django_db
def test_the_soft_time_limit_stores_unknown(eager, monkeypatch):
    deal = pending("munger", 11)

    def interrupted(*args, **kwargs):
        raise SoftTimeLimitExceeded()

    monkeypatch.setattr(services.deals, "solve", interrupted)

    assert solve_deal.delay(deal.pk).get() == "unknown"

    deal.refresh_from_db()
    assert deal.solver_status == "unknown" and deal.certificate == []
    assert deal.solver_stats == {"stopped_by": "task time limit"}


@pytest.mark.django_db
def test_the_soft_time_limit_stops_a_longer_job_after_storing_unknown(monkeypatch):
    deal = pending("munger", 11)

    def interrupted(*args, **kwargs):
        raise SoftTimeLimitExceeded()

    monkeypatch.setattr(services.deals, "solve", interrupted)

    with pytest.raises(SoftTimeLimitExceeded):
        services.deal_solve(deal_id=deal.pk)

    assert Deal.objects.get(pk=deal.pk).solver_status == "unknown"


def test_solve_deal_has_soft_and_hard_time_limits():
    assert (
        solve_deal.soft_time_limit == tasks.SOFT_LIMIT < solve_deal.time_limit == tasks.HARD_LIMIT
    )
    assert services.DEFAULT_SOLVE_SECONDS < services.MAX_SOLVE_SECONDS < tasks.SOFT_LIMIT
    assert solve_deal.acks_late
    assert ensure_dailies.soft_time_limit < ensure_dailies.time_limit <= 3600


@pytest.mark.parametrize(
    "task",
    [tasks.solve_deal, tasks.prove_deal_par, tasks.check_perfection],
    ids=lambda t: t.name,
)
def test_the_solver_tasks_are_sent_again_when_their_process_dies(task):
    # The live test kills a pool process during solve_deal (faults/test_worker_killed.py); the
    # other jobs of the same queue need the same options.
    assert task.acks_late and task.reject_on_worker_lost and task.retry_on_worker_lost
    assert 1 <= task.max_retries <= 3 and task.default_retry_delay <= 5
    assert task.time_limit == tasks.HARD_LIMIT


@pytest.mark.django_db
def test_a_retry_after_the_process_died_takes_over_its_fresh_claim(eager):
    deal = pending()
    assert services.deal_claim_for_solving(deal_id=deal.pk)  # the run whose process died

    assert solve_deal.apply(args=(deal.pk, SOLVE_FAST), retries=1).get() == "solved"

    assert Deal.objects.get(pk=deal.pk).solver_status == "solved"


@pytest.mark.django_db(transaction=True)
def test_asking_for_a_solve_sends_the_task_after_commit(eager):
    deal = pending()

    services.deal_request_solve(deal=deal, time_limit=SOLVE_FAST)

    deal.refresh_from_db()
    assert deal.solver_status == "solved" and deal.certificate


# -- ensure_dailies and the beat, inline -------------------------------------------------------


def fitting_pool(dates: list[dt.date]) -> dict[tuple[str, dt.date], Deal]:
    """One approved deal per game and date, rated to fit the date's weekday."""
    pool = {}
    seeds = {
        "munger": iter(factories.SOLVABLE_SEEDS["munger"]),
        "masterpiece": iter(factories.SOLVABLE_SEEDS["masterpiece"]),
    }
    for date in dates:
        for game in ("munger", "masterpiece"):
            deal = factories.certified_deal(game, next(seeds[game]))
            fit = scheduling.difficulty_targets(date)[0]
            Deal.objects.filter(pk=deal.pk).update(difficulty=fit)
            pool[game, date] = deal
    return pool


@pytest.mark.django_db
def test_ensure_dailies_schedules_the_coming_days(eager, travel):
    travel(dt.datetime(2026, 12, 2, 8, 0, tzinfo=dt.UTC))
    dates = [dt.date(2026, 12, 2), dt.date(2026, 12, 3)]
    pool = fitting_pool(dates)

    done = ensure_dailies.delay(days=2).get()

    assert [(row["game"], row["date"], row["action"], row["deal_id"]) for row in done] == [
        (game, date.isoformat(), "reused", pool[game, date].pk)
        for date in dates
        for game in ("munger", "masterpiece")
    ]
    assert DailyChallenge.objects.count() == 4
    assert ensure_dailies.delay(days=2).get()[0]["action"] == "kept"


@pytest.mark.django_db
def test_ensure_dailies_stopped_by_its_time_limit_ends_quietly(eager, monkeypatch):
    def interrupted(**kwargs):
        raise SoftTimeLimitExceeded()

    monkeypatch.setattr(scheduling, "dailies_ensure", interrupted)

    assert ensure_dailies.delay(days=7).get() == []


def test_the_beat_runs_ensure_dailies_every_hour_in_utc():
    entry = app.conf.beat_schedule["ensure-dailies"]

    assert entry["task"] == ensure_dailies.name == "games.tasks.ensure_dailies"
    assert entry["kwargs"] == {"days": 7}
    schedule = entry["schedule"]
    assert schedule.minute == {0} and schedule.hour == set(range(24))
    assert schedule.day_of_week == set(range(7))
    assert app.conf.timezone == "UTC" and app.conf.enable_utc
    assert entry["options"]["expires"] < 3600


# -- a real worker on Redis -----------------------------------------------------------------


@pytest.fixture(scope="module")
def worker(request, django_db_setup, tmp_path_factory) -> Iterator[str]:
    """A `celery worker` on the test database, consuming a queue no one else uses; the tests'
    tasks are sent there. Stopped before the test database is dropped."""
    if not (os.environ.get("REDIS_URL") and connection.vendor == "postgresql"):
        pytest.skip("needs REDIS_URL and PostgreSQL")  # the marks skip first, with reasons
    queue = f"patience-test-{uuid.uuid4().hex[:12]}"
    log = tmp_path_factory.mktemp("worker") / "worker.log"
    process = CeleryWorker(queue=queue, database=database_url(), log=log)
    try:
        with routed_to(queue):
            process.start(timeout=30)
            yield queue
    finally:
        process.stop()


@pytest.mark.slow
@pytest.mark.redis
@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_worker_solves_a_deal_sent_to_it(worker):
    deal = pending("munger", 11)

    sent = solve_deal.delay(deal.pk, 5)

    def solved() -> bool:
        deal.refresh_from_db()
        return deal.solver_status == "solved"

    wait_until(solved, timeout=60, what="solve_deal")
    assert deal.certificate and deal.par == len(deal.certificate)
    assert sent.get(timeout=30) == "solved"
    assert solve_deal.delay(deal.pk, 5).get(timeout=30) == "skipped"  # a second delivery


@pytest.mark.slow
@pytest.mark.redis
@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_worker_solves_what_an_admin_asks_for_after_commit(worker):
    deal = pending("masterpiece", 4)

    services.deal_request_solve(deal=deal, time_limit=5)  # sent on commit (autocommit here)

    wait_until(
        lambda: Deal.objects.get(pk=deal.pk).solver_status == "solved",
        timeout=60,
        what="solve_deal",
    )
    assert Deal.objects.get(pk=deal.pk).certificate


@pytest.mark.slow
@pytest.mark.redis
@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_worker_runs_ensure_dailies(worker):
    today = clock.today()
    dates = [today, today + dt.timedelta(days=1)]
    pool = fitting_pool(dates)

    sent = ensure_dailies.delay(days=2)

    wait_until(lambda: DailyChallenge.objects.count() == 4, timeout=60, what="ensure_dailies")
    assert sent.get(timeout=30)  # finished, with its outcomes
    for (game, date), deal in pool.items():
        daily = DailyChallenge.objects.get(game=game, date=date)
        assert daily.deal_id == deal.pk and daily.published


@pytest.mark.redis
def test_an_analysis_waits_behind_the_proofs_on_the_solve_queue(settings, monkeypatch):
    """On Redis a queue is a list per priority step, and a worker pops the lowest step first
    (kombu's Redis transport): the analysis goes to the last, a proof (no priority) to the
    first. Sent on a connection of its own to the Redis of the settings, whatever broker
    another test of this process left the app on."""
    if not os.environ.get("REDIS_URL"):
        pytest.skip("needs REDIS_URL")  # the mark skips first, with its reason
    import redis

    # The receiver asks for the analysis at its priority.
    sent: list[dict] = []
    settings.SOLVER_JOBS = "queue"
    monkeypatch.setattr(tasks.analyse_attempt, "apply_async", lambda *a, **k: sent.append(k))
    signals.send_now(signals.analysis_requested, attempt_id=3)
    assert sent == [{"priority": tasks.ANALYSIS_PRIORITY}]
    monkeypatch.undo()

    # And the broker puts that priority behind a proof's.
    queue = f"patience-test-{uuid.uuid4().hex[:12]}"
    client = redis.Redis.from_url(settings.REDIS_URL)
    try:
        with app.connection_for_write(settings.REDIS_URL) as connection:
            tasks.analyse_attempt.apply_async(
                (1,), priority=tasks.ANALYSIS_PRIORITY, queue=queue, connection=connection
            )
            tasks.prove_deal_par.apply_async((2,), queue=queue, connection=connection)
        steps = {key: client.llen(key) for key in (queue, f"{queue}\x06\x169")}
        assert steps == {queue: 1, f"{queue}\x06\x169": 1}
    finally:
        client.delete(queue, f"{queue}\x06\x169")
