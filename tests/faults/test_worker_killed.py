"""A Celery worker, or the pool process running its task, is killed (SIGKILL) in the middle of a
solve.

The pool process (the deployment's prefork pool): the worker sends the task again at once, and
the new run takes over the claim the dead one left and stores one result.

A real `celery worker` runs on the test database and the shared Redis, on a queue of this test's
own. It claims a deal whose solve takes long (Munger seed 1: about 37 s to decide) and is killed
a moment later. The claim stays ("solving"): asking again is refused while the claim is fresh.
Once the claim is stale (the clock moved past `STALE_CLAIM`), asking again sends the job to a new
worker, which takes the claim and stores exactly one result; a late second delivery of the job
(what the broker does with an unacknowledged message) is skipped and changes nothing.
"""

from __future__ import annotations

import datetime as dt
import os
import signal
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.db.models import F

from games import services, tasks
from games.engine import replay
from games.models import Deal
from tests.support import CeleryWorker, cpu_seconds, database_url, wait_until

pytestmark = [
    pytest.mark.slow,
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.django_db(transaction=True),
]

SLOW_SEED = 150  # docs/solver.md: among the slowest Munger deals to decide (seconds, not ms)
LONG_SOLVE = 120  # seconds allowed to the first run: it is killed long before
SHORT_SOLVE = 3  # seconds allowed to the second run


class Workers:
    """`start()` a worker on the test database consuming this test's queue; `kill()` one with
    SIGKILL. Each has a node name of its own."""

    def __init__(self, test_database: dict[str, Any], folder: Path) -> None:
        self.queue = f"patience-faults-{uuid.uuid4().hex[:12]}"
        self.database = database_url(test_database)
        self.folder = folder
        self.started: list[CeleryWorker] = []

    def start(self, pool: str = "solo") -> CeleryWorker:
        number = len(self.started)
        worker = CeleryWorker(
            queue=self.queue,
            database=self.database,
            log=self.folder / f"worker-{number}.log",
            name=f"{self.queue}-{number}",
            pool=pool,
        )
        self.started.append(worker)
        return worker.start()

    def logs(self) -> str:
        return "\n".join(worker.log() for worker in self.started)

    def stop_all(self) -> None:
        for worker in self.started:
            worker.stop()


@pytest.fixture
def workers(test_database, tmp_path, monkeypatch) -> Iterator[Workers]:
    pool = Workers(test_database, tmp_path)
    real = tasks.solve_deal

    class ToOurQueue:
        """What `deal_request_solve` sends (through its receiver) goes to this test's queue."""

        def delay(self, *args: Any) -> Any:
            return real.apply_async(args, queue=pool.queue)

    monkeypatch.setattr(tasks, "solve_deal", ToOurQueue())
    try:
        yield pool
    finally:
        pool.stop_all()
        forget_queue(pool.queue)
        print(pool.logs()[-4000:])


def forget_queue(queue: str) -> None:
    """Remove this test's own traces from the shared Redis: its queue, and the job the killed
    worker never acknowledged (kombu keeps it in `unacked` and would put it back on the queue
    an hour later). Nothing else is touched."""
    import redis

    conn = redis.Redis.from_url(os.environ["REDIS_URL"])
    try:
        for tag, payload in conn.hgetall("unacked").items():
            if queue.encode() in payload:
                conn.hdel("unacked", tag)
                conn.zrem("unacked_index", tag)
        conn.delete(queue)
    finally:
        conn.close()


def status_of(deal: Deal) -> str:
    return Deal.objects.values_list("solver_status", flat=True).get(pk=deal.pk)


DECIDED = {"solved", "unsolvable", "unknown"}


@pytest.mark.long
def test_a_pool_process_killed_mid_solve_gets_the_solve_sent_again_at_once(workers):
    deal = services.deal_create(game="munger", seed=SLOW_SEED)
    worker = workers.start(pool="prefork")
    services.deal_request_solve(deal=deal, time_limit=LONG_SOLVE)
    wait_until(lambda: status_of(deal) == "solving", timeout=30, what="the worker's claim")
    claimed_at = Deal.objects.values_list("solve_started_at", flat=True).get(pk=deal.pk)
    [process] = worker.pool_processes()
    os.kill(process, signal.SIGKILL)

    # Long before the claim is stale, the task runs again in a new pool process, takes over the
    # dead run's claim and stores one result; the worker itself goes on.
    wait_until(lambda: status_of(deal) in DECIDED, timeout=90, what="the solve sent again")
    deal.refresh_from_db()
    assert deal.solve_started_at is not None and deal.solve_started_at > claimed_at
    assert deal.solved_at is not None
    assert worker.process is not None and worker.process.poll() is None
    assert process not in worker.pool_processes()


def test_a_worker_killed_mid_solve_leaves_a_stale_claim_that_another_run_takes(workers):
    deal = services.deal_create(game="munger", seed=SLOW_SEED)
    first = workers.start()
    services.deal_request_solve(deal=deal, time_limit=LONG_SOLVE)
    wait_until(lambda: status_of(deal) == "solving", timeout=30, what="the worker's claim")
    assert first.process is not None
    pid = first.process.pid
    thinking_from = cpu_seconds(pid)
    wait_until(
        lambda: cpu_seconds(pid) > thinking_from + 1,
        timeout=30,
        what="a second of the solver's thinking",
    )
    first.kill()

    # The claim of the dead worker stays, and a fresh claim is not taken from it.
    claimed = Deal.objects.get(pk=deal.pk)
    assert claimed.solver_status == "solving" and claimed.solved_at is None
    assert services.deal_request_solve(deal=deal, time_limit=SHORT_SOLVE).solver_status == (
        "solving"
    )

    second = workers.start()
    # Time passes: the claim is now older than STALE_CLAIM, as if the worker died long ago.
    Deal.objects.filter(pk=deal.pk).update(
        solve_started_at=F("solve_started_at") - services.STALE_CLAIM - dt.timedelta(minutes=1)
    )
    assert services.deal_request_solve(deal=deal, time_limit=SHORT_SOLVE).solver_status == (
        "pending"
    )
    wait_until(lambda: status_of(deal) in DECIDED, timeout=60, what="the second run")
    stored = Deal.objects.values().get(pk=deal.pk)

    # The job the killed worker never acknowledged, delivered again: skipped, nothing changes.
    again = tasks.solve_deal.delay(deal.pk, SHORT_SOLVE)
    assert again.get(timeout=60) == "skipped"
    assert Deal.objects.values().get(pk=deal.pk) == stored
    assert second.process is not None and second.process.poll() is None

    assert Deal.objects.filter(game="munger", deal_string=deal.deal_string).count() == 1
    deal.refresh_from_db()
    assert deal.solved_at is not None and deal.solve_started_at is not None
    if deal.solver_status == "solved":
        assert deal.certificate and deal.par == len(deal.certificate)
        verdict = replay("munger", deal.deal_string, deal.certificate)
        assert verdict.valid and verdict.won
    else:
        assert deal.certificate == [] and deal.par is None
