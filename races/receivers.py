"""The races' listeners of the games signals (connected by `apps.ready`): a racer's move or
end updates their race (`services.racer_progress`); an attempt in no race costs one indexed
read."""

from __future__ import annotations

from typing import Any

from django.dispatch import receiver

from games import signals
from games.models import Standing
from races import services


@receiver(signals.move_played, dispatch_uid="races.move_played")
def on_move(sender: Any, attempt_id: int, standing: Standing | None = None, **_: Any) -> None:
    if standing is not None and standing.won:
        return  # `attempt_finished` follows
    services.racer_progress(attempt_id=attempt_id)


@receiver(signals.attempt_finished, dispatch_uid="races.attempt_finished")
def on_end(sender: Any, attempt_id: int, **_: Any) -> None:
    services.racer_progress(attempt_id=attempt_id)
