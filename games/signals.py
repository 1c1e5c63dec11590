"""What the games app tells the rest of the project, after the change is committed.

Services send these through `send_on_commit`, carrying ids: a listener reads what it needs
from the database, which by then holds the change. The play signals also carry `state`, the
committed `games.state.AttemptState` (its `attempt` as saved), so that listeners in the same
process need not read and rebuild it: they treat it as read-only, and a listener must work
without it too (a signal sent by other code may not carry it). `games` never imports its listeners
(`leaderboards` reacts to play; `games.tasks` starts solver runs); they connect in their apps'
`ready()`. A listener that fails is logged and does not undo or fail the change that caused it.

- `attempt_started(attempt_id, daily_id)`: a new attempt (daily_id None for a random practice)
- `move_played(attempt_id, daily_id, seq, state)`: a move was stored (seq is its index)
- `attempt_finished(attempt_id, daily_id, status, state)`: won or resigned
- `attempt_changed(attempt_id, daily_id)`: its standing changed outside play (disqualified)
- `daily_scheduled(daily_id)`: a daily was created or its deal changed
- `deal_solve_requested(deal_id, time_limit)`: someone asked the solver for a deal
"""

from __future__ import annotations

import logging
from typing import Any

from django.db import transaction
from django.dispatch import Signal

logger = logging.getLogger(__name__)

attempt_started = Signal()
move_played = Signal()
attempt_finished = Signal()
attempt_changed = Signal()
daily_scheduled = Signal()
deal_solve_requested = Signal()


def send_on_commit(signal: Signal, **ids: Any) -> None:
    """Send `signal` with `ids` once the current transaction commits (at once outside one)."""

    def send() -> None:
        for receiver, result in signal.send_robust(sender=None, **ids):
            if isinstance(result, Exception):
                logger.error("listener %r failed on %s", receiver, ids, exc_info=result)

    transaction.on_commit(send, robust=True)
