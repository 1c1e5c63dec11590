"""The ratings' listeners of the games signals (connected by `apps.ready`): a closed day is
rated, and a result changed after its day closed (approved after review) is counted if it
counts now. Both run after the change committed and carry ids; the work is a task
(`ratings.tasks`) or, as `ratings_jobs_mode` says, inline."""

from __future__ import annotations

from typing import Any

from django.dispatch import receiver

from games import signals
from games.models import DailyChallenge
from ratings import tasks


@receiver(signals.daily_closed, dispatch_uid="ratings.daily_closed")
def on_daily_closed(sender: Any, daily_id: int, **_: Any) -> None:
    tasks.job_ask(tasks.rate_daily, daily_id)


@receiver(signals.attempt_changed, dispatch_uid="ratings.attempt_changed")
def on_attempt_changed(sender: Any, attempt_id: int, daily_id: int | None = None, **_: Any) -> None:
    # Before its day closed, a changed result is counted (or not) by the day's rating itself:
    # that starts after the close commits, so it reads this change. Only a result changed
    # after the close may have been left out.
    if daily_id is None:
        return
    if not DailyChallenge.objects.filter(pk=daily_id, closed_at__isnull=False).exists():
        return
    tasks.job_ask(tasks.rate_late_result, attempt_id)
