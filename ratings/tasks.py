"""Background jobs of the ratings app (Celery). Tasks are thin: they take ids, call a service
and are idempotent.

- `rate_daily(daily_id)`: rate a closed day (`services.ratings_close_daily`); queued when
  `games.signals.daily_closed` says a day was closed (ratings/receivers.py).
- `rate_late_result(attempt_id)`: count a result approved after its day was rated, or take
  back one disqualified after it counted (`services.rating_follow_result`); queued on
  `games.signals.attempt_changed`.
- `refit_difficulty()`: once a week (the beat), apply the deals' ratings to the scheduler's
  difficulty levels when they move a cut point (`ratings.difficulty.refit_apply_due`).

`ratings_jobs_mode` says how the receivers run them: on the default queue, inline in the process
that sent the signal, or not at all (the tests choose; without a worker, inline).
"""

from __future__ import annotations

from typing import Any

from celery import shared_task
from django.conf import settings

from games.models import GameName
from ratings import difficulty, services


@shared_task
def rate_daily(daily_id: int) -> int | None:
    """Rate one closed daily; a second run does nothing. Returns the players it rated (None:
    not closed, or rated already)."""
    return services.ratings_close_daily(daily_id=daily_id)


@shared_task
def rate_late_result(attempt_id: int) -> str | None:
    """Follow one result changed after its day closed; returns "counted", "taken_back" or
    None (nothing to do)."""
    return services.rating_follow_result(attempt_id=attempt_id)


@shared_task
def refit_difficulty() -> list[str]:
    """Apply each game's refit from its deals' ratings where it is due; the games applied."""
    return [game for game in GameName.values if difficulty.refit_apply_due(game) is not None]


def ratings_jobs_mode() -> str:
    """How the rating jobs asked for by signals run: "queue" (a Celery worker), "inline" (in
    the process that sent the signal, after its commit: the default with eager Celery, which
    has no worker) or "off" (`RATINGS_JOBS`, unset by default; tests set it)."""
    configured = getattr(settings, "RATINGS_JOBS", None)
    if configured:
        return str(configured)
    return "inline" if settings.CELERY_TASK_ALWAYS_EAGER else "queue"


def job_ask(task: Any, *args: Any) -> None:
    """Run `task` with `args` as `ratings_jobs_mode` says."""
    mode = ratings_jobs_mode()
    if mode == "queue":
        task.delay(*args)
    elif mode == "inline":
        task(*args)
