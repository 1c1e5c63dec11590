"""Background jobs of the leagues (Celery): thin, by id, idempotent.

- `daily_points_again(attempt_id)`: a closed daily's points worked out again after one of its
  results changed (`services.daily_points_for_attempt`; nothing for a day not closed yet).
"""

from __future__ import annotations

from celery import shared_task

from leagues import services


@shared_task
def daily_points_again(attempt_id: int) -> int:
    return services.daily_points_for_attempt(attempt_id=attempt_id)
