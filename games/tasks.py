"""Background jobs of the games app (Celery). Tasks take ids and are idempotent.

- `solve_deal(deal_id)`: solve one deal an admin asked for (sent after commit by
  `services.deal_request_solve`).
- `ensure_dailies(days)`: keep the coming days supplied with dailies; the beat runs it every hour
  (config/celery.py, docs/scheduling.md).
"""

from __future__ import annotations

import logging
from typing import Any

from celery import shared_task
from celery.exceptions import SoftTimeLimitExceeded

from games import services
from games.engine.solver import SolveResult, solve
from games.models import Deal

logger = logging.getLogger(__name__)

#: Seconds the solver may think about one deal by default, and at most when asked for more;
#: the task's soft and hard limits leave room for the longest allowed solve (they are a safety
#: net: the solver stops at its own budget).
SOLVE_SECONDS = 60
SOLVE_SECONDS_MAX = 600
SOFT_LIMIT = SOLVE_SECONDS_MAX + 60
HARD_LIMIT = SOFT_LIMIT + 30

#: Limits of one scheduling run: the beat starts one every hour, and a run that is still going
#: when the next starts only duplicates work (see docs/scheduling.md).
ENSURE_SOFT_LIMIT = 50 * 60
ENSURE_HARD_LIMIT = 55 * 60


def deal_solve(
    *, deal_id: int, time_limit: float | None = None, par_time: float | None = None
) -> str:
    """Claim a pending deal, solve it and store the result: the body of `solve_deal`, which the
    `solve_deal` command and the scheduler run inline. Returns the stored solver status, or
    "skipped" when the deal was not there to claim (claimed or decided already).

    When the task's soft time limit interrupts the solver, the deal is stored as unknown and
    `SoftTimeLimitExceeded` goes on up, so that a longer job (the scheduler) stops too.
    """
    if not services.deal_claim_for_solving(deal_id=deal_id):
        return "skipped"
    deal = Deal.objects.get(pk=deal_id)
    try:
        result = solve(
            deal.game, deal.deal, time_limit=min(time_limit or SOLVE_SECONDS, SOLVE_SECONDS_MAX),
            par_time=par_time,
        )  # fmt: skip
    except SoftTimeLimitExceeded:
        stopped = SolveResult(Deal.SolverStatus.UNKNOWN, stats={"stopped_by": "task time limit"})
        services.deal_store_solution(deal_id=deal_id, result=stopped)
        raise
    return services.deal_store_solution(deal_id=deal_id, result=result).solver_status


@shared_task(soft_time_limit=SOFT_LIMIT, time_limit=HARD_LIMIT, acks_late=True)
def solve_deal(deal_id: int, time_limit: float | None = None) -> str:
    """Solve a pending deal and store the result; a second delivery finds the deal claimed or
    decided and does nothing. Returns the solver status, or "skipped"."""
    try:
        return deal_solve(deal_id=deal_id, time_limit=time_limit)
    except SoftTimeLimitExceeded:
        return Deal.SolverStatus.UNKNOWN  # stored as such before the exception came up


@shared_task(soft_time_limit=ENSURE_SOFT_LIMIT, time_limit=ENSURE_HARD_LIMIT)
def ensure_dailies(days: int = 7) -> list[dict[str, Any]]:
    """Make sure each game has a published, certified daily on each of the next `days` UTC
    dates (`scheduling.dailies_ensure`). Safe to run twice at once; returns what it did per day.
    """
    from games.scheduling import dailies_ensure  # scheduling imports this module

    try:
        outcomes = dailies_ensure(days=days)
    except SoftTimeLimitExceeded:
        logger.warning("ensure_dailies stopped by its time limit; the next run goes on")
        return []
    return [outcome.to_json() for outcome in outcomes]
