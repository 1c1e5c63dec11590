"""What the games app tells the rest of the project, after the change is committed.

Services send these through `send_on_commit`, carrying ids and plain data, never a model
instance: a listener reads what else it needs from the database, which by then holds the
change. `games` never imports its listeners (`leaderboards` keeps its index, `realtime` tells
sockets, `games.tasks` starts solver runs); they connect in their apps' `ready()`. A listener
that fails is logged and does not undo or fail the change that caused it.

- `attempt_started(attempt_id, daily_id, standing)`: a new attempt (daily_id None for a random
  practice; standing, given for one on a daily)
- `move_played(attempt_id, daily_id, seq, revealed, standing, foundations, origin)`: a move
  was stored (seq is its index; revealed, the codes of the cards it turned face up;
  foundations, the view's foundations after it: `[{suit, top, count}]`)
- `attempt_finished(attempt_id, daily_id, status, standing, origin)`: won or resigned
- `attempt_changed(attempt_id, daily_id)`: its standing changed outside play (disqualified,
  approved after review, verified again)
- `daily_scheduled(daily_id)`: a daily was created or its deal changed
- `daily_closed(daily_id)`: a daily's day was closed (`services.daily_close` claimed it): its
  results are final but for reviews
- `deal_solve_requested(deal_id, time_limit)`: someone asked the solver for a deal
- `deal_par_requested(deal_id)`: a deal's par should be proven (it was scheduled, or a
  player's win showed it was not a floor)
- `player_tokens_revoked(player_id)`: cookie tokens of the player were revoked (logging out,
  linking the guest to an account): whatever they opened must ask again who it serves
- `perfection_check_requested(attempt_id)`: a ranked win should be measured against shortest
  play (it would enter its day's top 100)
- `analysis_requested(attempt_id)`: a player asked for the move-by-move analysis of a game

`standing` is the attempt's `games.models.Standing` as committed (what its board reads), so
that the board index needs no second read per start or move. `origin` is whatever the caller of the
service gave to say who asked (the play socket passes its channel name; None from REST, the
admin and tasks): the sockets' listener uses it not to send a socket the state it already
answered.
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
daily_closed = Signal()
deal_solve_requested = Signal()
deal_par_requested = Signal()
player_tokens_revoked = Signal()
perfection_check_requested = Signal()
analysis_requested = Signal()


def send_now(signal: Signal, **ids: Any) -> None:
    """Send `signal` with `ids` to every listener; one that fails is logged, the others run."""
    for receiver, result in signal.send_robust(sender=None, **ids):
        if isinstance(result, Exception):
            logger.error("listener %r failed on %s", receiver, ids, exc_info=result)


def send_on_commit(signal: Signal, **ids: Any) -> None:
    """Send `signal` with `ids` once the current transaction commits (at once outside one)."""
    transaction.on_commit(lambda: send_now(signal, **ids), robust=True)
