"""The races' listeners of the games signals (connected by `apps.ready`): a racer's move or end
goes to the race's updater (races/progress.py), which the move never waits for. A race's attempt
is on no daily (`games.services.attempt_start_on_deal`): a daily's moves cost nothing here."""

from __future__ import annotations

from typing import Any

from django.dispatch import receiver

from games import signals
from games.models import Standing
from races import progress
from races.services import RacerMove


@receiver(signals.move_played, dispatch_uid="races.move_played")
def on_move(
    sender: Any,
    attempt_id: int,
    standing: Standing,
    foundations: list[dict[str, object]],
    daily_id: int | None = None,
    **_: Any,
) -> None:
    if daily_id is not None or standing.won:
        return  # no race's; after a win, `attempt_finished` follows
    progress.submit(
        RacerMove(
            attempt_id,
            moves=standing.move_count,
            foundation_cards=standing.foundation_cards,
            seconds=standing.seconds,
            foundations=tuple(foundations),
        )
    )


@receiver(signals.attempt_finished, dispatch_uid="races.attempt_finished")
def on_end(sender: Any, attempt_id: int, daily_id: int | None = None, **_: Any) -> None:
    if daily_id is None:
        progress.submit(progress.End(attempt_id))
