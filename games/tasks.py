"""Background jobs of the games app (Celery). Tasks take ids and are idempotent."""

from __future__ import annotations

from celery import shared_task
from celery.exceptions import SoftTimeLimitExceeded

from games import services
from games.engine.solver import SolveResult, solve
from games.models import Deal

#: Seconds the solver may think about one deal, and the task's soft and hard limits.
SOLVE_SECONDS = 60
SOFT_LIMIT = SOLVE_SECONDS + 60
HARD_LIMIT = SOFT_LIMIT + 30


@shared_task(soft_time_limit=SOFT_LIMIT, time_limit=HARD_LIMIT, acks_late=True)
def solve_deal(deal_id: int, time_limit: float | None = None) -> str:
    """Solve a pending deal and store the result; a second delivery finds the deal claimed or
    decided and does nothing. Returns the solver status, or "skipped"."""
    if not services.deal_claim_for_solving(deal_id=deal_id):
        return "skipped"
    deal = Deal.objects.get(pk=deal_id)
    try:
        result = solve(
            deal.game, deal.deal, time_limit=min(time_limit or SOLVE_SECONDS, SOLVE_SECONDS * 10)
        )
    except SoftTimeLimitExceeded:
        result = SolveResult("unknown", stats={"stopped_by": "task time limit"})
    return services.deal_store_solution(deal_id=deal_id, result=result).solver_status
