"""The ASGI application with a one-line fix applied in memory, for benchmarks only (`--fixed`).

On PostgreSQL every move fails (500, and the play socket drops) with `NotSupportedError: FOR
UPDATE cannot be applied to the nullable side of an outer join`: `games.services.
_attempt_locked` locks `Attempt.objects.select_for_update().select_related("daily")`, and
`daily` is a nullable foreign key (a practice attempt has none), so the join is an outer join.
SQLite ignores FOR UPDATE, so the test suite does not see it. The fix is to lock the attempt's
own row only, `select_for_update(of=("self",))`; this module applies it to the running server
(the repository's code is unchanged) so that the rest of the move path can be measured:
`uvicorn benchmarks._fixes:application`.
"""

from __future__ import annotations

from config.asgi import application  # noqa: F401  (sets Django up first)
from games import services
from games.errors import Forbidden, NotFound
from games.models import Attempt, Player


def _attempt_locked(attempt_id: int, player: Player) -> Attempt:
    attempt = (
        Attempt.objects.select_for_update(of=("self",))
        .select_related("daily")
        .filter(pk=attempt_id)
        .first()
    )
    if attempt is None:
        raise NotFound("There is no such attempt.", code="attempt_not_found")
    if attempt.player_id != player.pk:
        raise Forbidden("This attempt is someone else's.", code="not_your_attempt")
    return attempt


services._attempt_locked = _attempt_locked
