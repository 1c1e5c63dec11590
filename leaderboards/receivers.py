"""The leaderboards' listeners of the games signals (connected by `apps.ready`).

Each keeps the Redis index of the attempt's daily in step (`index.attempt_update`); practice
(no daily) is ignored. The signals come after commit, so the database holds the change; a
lost update is harmless, as the next reader finds the index stale and rebuilds it.
"""

from __future__ import annotations

from typing import Any

from django.dispatch import receiver

from games import signals
from leaderboards import index


def _update(attempt_id: int | None, daily_id: int | None, state: Any = None) -> None:
    """`state`, when the signal carries it, holds the attempt as committed (no re-read)."""
    if attempt_id is not None and daily_id is not None:
        attempt = state.attempt if state is not None else None
        index.attempt_update(attempt_id=attempt_id, daily_id=daily_id, attempt=attempt)


@receiver(signals.attempt_started, dispatch_uid="leaderboards.attempt_started")
def on_attempt_started(sender: Any, attempt_id: int, daily_id: int | None, **kwargs: Any) -> None:
    _update(attempt_id, daily_id)


@receiver(signals.move_played, dispatch_uid="leaderboards.move_played")
def on_move_played(
    sender: Any, attempt_id: int, daily_id: int | None, state: Any = None, **kwargs: Any
) -> None:
    _update(attempt_id, daily_id, state)


@receiver(signals.attempt_finished, dispatch_uid="leaderboards.attempt_finished")
def on_attempt_finished(
    sender: Any, attempt_id: int, daily_id: int | None, state: Any = None, **kwargs: Any
) -> None:
    _update(attempt_id, daily_id, state)


@receiver(signals.attempt_changed, dispatch_uid="leaderboards.attempt_changed")
def on_attempt_changed(sender: Any, attempt_id: int, daily_id: int | None, **kwargs: Any) -> None:
    _update(attempt_id, daily_id)


@receiver(signals.daily_scheduled, dispatch_uid="leaderboards.daily_scheduled")
def on_daily_scheduled(sender: Any, daily_id: int, **kwargs: Any) -> None:
    index.drop(daily_id)
