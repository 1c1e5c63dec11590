"""The leagues' listeners of the games signals (connected by `apps.ready`), after commit: a
closed day's points are worked out at once, in the process that closed it (the beat's
`close_days` task, a worker); a result of a closed day that changed (approved after review,
disqualified) has them worked out again by a task, off the request that changed it."""

from __future__ import annotations

from typing import Any

from django.dispatch import receiver

from games import signals
from leagues import services, tasks


@receiver(signals.daily_closed, dispatch_uid="leagues.daily_closed")
def on_daily_closed(sender: Any, daily_id: int, **_: Any) -> None:
    services.daily_points_compute(daily_id=daily_id)


@receiver(signals.attempt_changed, dispatch_uid="leagues.attempt_changed")
def on_attempt_changed(sender: Any, attempt_id: int, daily_id: int | None = None, **_: Any) -> None:
    if daily_id is not None:
        tasks.daily_points_again.delay(attempt_id)
