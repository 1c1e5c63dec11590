"""Background jobs of the games app (Celery). Tasks are thin: they take ids, call a service
and are idempotent.

- `solve_deal(deal_id)`: solve one deal someone asked for (`services.deal_request_solve`
  sends `deal_solve_requested` after commit; the receiver below queues this task).
- `prove_deal_par(deal_id)`: the exact search for a scheduled deal's par.
  Both run on the `solve` queue and are sent again when the process running them dies.
- `ensure_dailies(days)`: keep the coming days supplied with dailies; the beat runs it every
  hour (config/celery.py, docs/scheduling.md).
- `close_days()`: the end of each day whose ranked play is over (`services.daily_close`: the
  last fair-play check of the attempts left unfinished); the beat runs it every ten minutes.
- `prove_deal_par(deal_id)` and `check_perfection(attempt_id)`: the solver's long jobs asked
  for by signals (a scheduled deal's par proof; a top win's distance profile), on the `solve`
  queue, or in a thread where no worker runs (`solver_jobs_mode`).
- `analyse_attempt(attempt_id)`: the analysis a player asked for, on the `solve` queue at the
  lowest priority (`ANALYSIS_PRIORITY`): a worker takes the dailies' proofs and solves first.
"""

from __future__ import annotations

import logging
import threading
from typing import Any

from celery import shared_task
from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.db import connection
from django.dispatch import receiver

from games import scheduling, services, signals
from games.models import Deal

logger = logging.getLogger(__name__)

#: The task's soft and hard limits leave room for the longest solve the service allows (they
#: are a safety net: the solver stops at its own budget).
SOFT_LIMIT = services.MAX_SOLVE_SECONDS + 60
HARD_LIMIT = SOFT_LIMIT + 30

#: Limits of one scheduling run: the beat starts one every hour, and a run that is still going
#: when the next starts only duplicates work (see docs/scheduling.md).
ENSURE_SOFT_LIMIT = 50 * 60
ENSURE_HARD_LIMIT = 55 * 60


#: The solver's tasks outlive the process that runs them: a pool process that dies in the middle
#: (killed, out of memory) gets the task sent again at once (`retry_on_worker_lost`), at most
#: `max_retries` times, so that a deal that kills every process it meets does not loop. The
#: message is acknowledged only when a run ends (`acks_late`); if the retry cannot be sent, the
#: message goes back to the queue (`reject_on_worker_lost`).
SURVIVE_WORKER_LOSS: dict[str, Any] = {
    "soft_time_limit": SOFT_LIMIT,
    "time_limit": HARD_LIMIT,
    "acks_late": True,
    "reject_on_worker_lost": True,
    "retry_on_worker_lost": True,
    "max_retries": 2,
    "default_retry_delay": 1,
}


@shared_task(bind=True, **SURVIVE_WORKER_LOSS)
def solve_deal(self: Any, deal_id: int, time_limit: float | None = None) -> str:
    """Solve a pending deal and store the result; a second delivery finds the deal claimed or
    decided and does nothing. A retry after the run's process died takes over the claim that
    run left. Returns the solver status, or "skipped"."""
    try:
        return services.deal_solve(
            deal_id=deal_id, time_limit=time_limit, resume=bool(self.request.retries)
        )
    except SoftTimeLimitExceeded:
        return Deal.SolverStatus.UNKNOWN  # stored as such before the exception came up


@shared_task(soft_time_limit=ENSURE_SOFT_LIMIT, time_limit=ENSURE_HARD_LIMIT)
def ensure_dailies(days: int = 7) -> list[dict[str, Any]]:
    """Make sure each game has a published, certified daily on each of the next `days` UTC
    dates (`scheduling.dailies_ensure`). Safe to run twice at once; returns what it did per day.
    """
    try:
        outcomes = scheduling.dailies_ensure(days=days)
    except SoftTimeLimitExceeded:
        logger.warning("ensure_dailies stopped by its time limit; the next run goes on")
        return []
    return [outcome.to_json() for outcome in outcomes]


@shared_task
def close_days() -> dict[int, int]:
    """Close every day whose ranked play has ended; idempotent (each day is claimed once).
    Returns daily id -> attempts held, for the days this run closed."""
    return services.dailies_close_due()


@shared_task(**SURVIVE_WORKER_LOSS)
def prove_deal_par(deal_id: int) -> bool | None:
    """The exact search for a deal's par (`services.deal_prove_par`); returns whether the par
    is now proven shortest."""
    try:
        return services.deal_prove_par(deal_id=deal_id).par_optimal
    except SoftTimeLimitExceeded:
        return None


@shared_task(**SURVIVE_WORKER_LOSS)
def check_perfection(attempt_id: int) -> bool | None:
    """The perfection check of a ranked win (`services.attempt_check_perfection`); returns
    whether the win is now held."""
    try:
        attempt = services.attempt_check_perfection(attempt_id=attempt_id)
    except SoftTimeLimitExceeded:
        return None
    return any(reason["rule"] == "accuracy" for reason in attempt.held_reasons)


#: Redis serves a queue's lower priority numbers first (kombu's priority steps 0, 3, 6, 9; a
#: message sent without one is 0): an analysis waits behind every proof and solve queued.
ANALYSIS_PRIORITY = 9


@shared_task(**SURVIVE_WORKER_LOSS)
def analyse_attempt(attempt_id: int) -> str | None:
    """The analysis a player asked for (`services.analysis_run`); returns its status."""
    try:
        analysis = services.analysis_run(attempt_id=attempt_id)
    except SoftTimeLimitExceeded:
        return None
    return analysis.status if analysis is not None else None


def solver_jobs_mode() -> str:
    """How the solver's long jobs asked for by signals run (a par proof, a perfection check):
    "queue" (the `solve` queue's workers), "background" (a thread of the process that asked:
    the embedded default, which has no worker) or "off" (`SOLVER_JOBS`; the tests turn them
    off and call the services themselves)."""
    configured = getattr(settings, "SOLVER_JOBS", None)
    if configured:
        return str(configured)
    return "background" if settings.CELERY_TASK_ALWAYS_EAGER else "queue"


def _in_background(job: Any, what: str) -> None:
    def run() -> None:
        try:
            job()
        except Exception:
            logger.exception("%s failed in the background; it is asked for again later", what)
        finally:
            connection.close()

    threading.Thread(target=run, daemon=True, name=what).start()


@receiver(signals.deal_par_requested)
def _queue_par_proof(sender: Any, deal_id: int, **kwargs: Any) -> None:
    mode = solver_jobs_mode()
    if mode == "queue":
        prove_deal_par.delay(deal_id)
    elif mode == "background":
        _in_background(
            lambda: services.deal_prove_par(deal_id=deal_id), f"the par proof of deal {deal_id}"
        )


@receiver(signals.perfection_check_requested)
def _queue_perfection_check(sender: Any, attempt_id: int, **kwargs: Any) -> None:
    mode = solver_jobs_mode()
    if mode == "queue":
        check_perfection.delay(attempt_id)
    elif mode == "background":
        _in_background(
            lambda: services.attempt_check_perfection(attempt_id=attempt_id),
            f"the perfection check of attempt {attempt_id}",
        )


@receiver(signals.analysis_requested)
def _queue_analysis(sender: Any, attempt_id: int, **kwargs: Any) -> None:
    mode = solver_jobs_mode()
    if mode == "queue":
        analyse_attempt.apply_async((attempt_id,), priority=ANALYSIS_PRIORITY)
    elif mode == "background":
        _in_background(
            lambda: services.analysis_run(attempt_id=attempt_id),
            f"the analysis of attempt {attempt_id}",
        )


@receiver(signals.deal_solve_requested)
def _queue_solve(sender: Any, deal_id: int, time_limit: float | None = None, **kwargs: Any) -> None:
    solve_deal.delay(deal_id, time_limit)
