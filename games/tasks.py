"""Background jobs of the games app (Celery). Tasks are thin: they take ids, call a service
and are idempotent.

- `solve_deal(deal_id)`: solve one deal someone asked for (`services.deal_request_solve`
  sends `deal_solve_requested` after commit; the receiver below queues this task).
- `ensure_dailies(days)`: keep the coming days supplied with dailies; the beat runs it every
  hour (config/celery.py, docs/scheduling.md).
- `close_days()`: the end of each day whose ranked play is over (`services.daily_close`: the
  last fair-play check of the attempts left unfinished); the beat runs it every ten minutes.
"""

from __future__ import annotations

import logging
from typing import Any

from celery import shared_task
from celery.exceptions import SoftTimeLimitExceeded
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


@shared_task(soft_time_limit=SOFT_LIMIT, time_limit=HARD_LIMIT, acks_late=True)
def solve_deal(deal_id: int, time_limit: float | None = None) -> str:
    """Solve a pending deal and store the result; a second delivery finds the deal claimed or
    decided and does nothing. Returns the solver status, or "skipped"."""
    try:
        return services.deal_solve(deal_id=deal_id, time_limit=time_limit)
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


@receiver(signals.deal_solve_requested)
def _queue_solve(sender: Any, deal_id: int, time_limit: float | None = None, **kwargs: Any) -> None:
    solve_deal.delay(deal_id, time_limit)
