"""The leaderboards' listeners of the games signals (connected by `apps.ready`).

Each keeps the Redis index of the attempt's daily in step (`index.attempt_note`, sent by
`index.send_noted`: a move's by the process's sender, with the others of the moment, anything
else at once); practice (no daily) is ignored. The signals come after commit, so the database
holds the change; a lost update is harmless, as the next reader finds the index stale and
rebuilds it.

Once the index holds a change of play or standing, `leaderboards.signals.board_changed` says
so (whether or not Redis could be reached: the database holds the board either way), so that
whoever shows boards live reads them after the change, by the order of the calls here rather
than by the order in which apps connect their listeners.

A ranked win that would enter its day's top `PERFECTION_TOP` is sent to the fair-play
perfection check (`services.attempt_ask_perfection`): the board decides what "top" means.
"""

from __future__ import annotations

from typing import Any

from django.dispatch import receiver

from games import services, signals
from games.models import Standing
from leaderboards import board, index, selectors
from leaderboards.signals import board_changed

#: A ranked win that would rank this high on its day's board gets the solver's distance after
#: each of its moves measured (fair play's evidence for a reviewer, in the workers): where a
#: cheater aims.
PERFECTION_TOP = 100


def _update(
    attempt_id: int, daily_id: int | None, standing: Standing | None = None, *, soon: bool = False
) -> None:
    """`standing`, when the signal carries it, is the attempt's as committed (no re-read).
    `soon`: a move's, sent by the process's sender with the others noted meanwhile (the move
    does not wait for it); anything else is sent at once, with whatever was noted before it."""
    if daily_id is not None:
        index.attempt_note(attempt_id=attempt_id, daily_id=daily_id, standing=standing)
        if soon:
            index.send_soon()
        else:
            index.send_noted()


def _update_and_tell(
    attempt_id: int, daily_id: int | None, standing: Standing | None, *, soon: bool = False
) -> None:
    _update(attempt_id, daily_id, standing, soon=soon)
    if daily_id is not None:
        signals.send_now(board_changed, daily_id=daily_id, attempt_id=attempt_id)


@receiver(signals.attempt_started, dispatch_uid="leaderboards.attempt_started")
def on_attempt_started(
    sender: Any, attempt_id: int, daily_id: int | None, standing: Standing | None = None, **_: Any
) -> None:
    _update(attempt_id, daily_id, standing)


@receiver(signals.move_played, dispatch_uid="leaderboards.move_played")
def on_move_played(
    sender: Any, attempt_id: int, daily_id: int | None, standing: Standing | None = None, **_: Any
) -> None:
    _update_and_tell(attempt_id, daily_id, standing, soon=True)


@receiver(signals.attempt_finished, dispatch_uid="leaderboards.attempt_finished")
def on_attempt_finished(
    sender: Any, attempt_id: int, daily_id: int | None, standing: Standing | None = None, **_: Any
) -> None:
    _update_and_tell(attempt_id, daily_id, standing)
    if (
        daily_id is not None
        and standing is not None
        and standing.won
        and standing.on_board
        and selectors.rank_of(
            daily_id=daily_id, entry=board.entry_of_standing(standing), settled=False
        )
        <= PERFECTION_TOP
    ):
        services.attempt_ask_perfection(attempt_id=attempt_id)


@receiver(signals.attempt_changed, dispatch_uid="leaderboards.attempt_changed")
def on_attempt_changed(sender: Any, attempt_id: int, daily_id: int | None, **kwargs: Any) -> None:
    _update_and_tell(attempt_id, daily_id, None)


@receiver(signals.daily_scheduled, dispatch_uid="leaderboards.daily_scheduled")
def on_daily_scheduled(sender: Any, daily_id: int, **kwargs: Any) -> None:
    index.drop(daily_id)
