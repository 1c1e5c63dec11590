"""The ASGI application with two small fixes applied in memory, for benchmarks only (`--fixed`).

1. Moves on PostgreSQL.

On PostgreSQL every move fails (500, and the play socket drops) with `NotSupportedError: FOR
UPDATE cannot be applied to the nullable side of an outer join`: `games.services.
_attempt_locked` locks `Attempt.objects.select_for_update().select_related("daily")`, and
`daily` is a nullable foreign key (a practice attempt has none), so the join is an outer join.
SQLite ignores FOR UPDATE, so the test suite does not see it. The fix is to lock the attempt's
own row only, `select_for_update(of=("self",))`; this module applies it to the running server
(the repository's code is unchanged) so that the rest of the move path can be measured:
`uvicorn benchmarks._fixes:application`.

2. Sockets that lose their consumer. redis-py 8 gives every connection a 5 s socket timeout by
default, and channels-redis waits for messages with `BZPOPMIN ... 5` (`brpop_timeout`): a
consumer whose channel stays empty for 5 s races the two timeouts, and under load the socket
timeout fires first: `redis.exceptions.TimeoutError` in `await_many_dispatch` ends the consumer
("Exception in ASGI application"), and that watcher gets no more events. The fix is a socket
timeout above `brpop_timeout` for the channel layer's connections (`"socket_timeout": None` or
e.g. 15 in `CHANNEL_LAYERS["default"]["CONFIG"]["hosts"]`); applied here before the layer is
first made.
"""

from __future__ import annotations

import os

from django.conf import settings

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


#: Which fixes to apply (both by default): BENCH_FIXES="for_update,socket_timeout".
FIXES = set(os.environ.get("BENCH_FIXES", "for_update,socket_timeout").split(","))

if "for_update" in FIXES:
    services._attempt_locked = _attempt_locked

for _host in settings.CHANNEL_LAYERS["default"].get("CONFIG", {}).get("hosts", []):
    if isinstance(_host, dict) and "socket_timeout" in FIXES:
        _host["socket_timeout"] = None
