"""A racer's progress, off the move's path.

After commit, a move of a racer's attempt says so (`games.signals.move_played`, carrying the
attempt's id, the move's seq and the foundations as they now stand), and so does its end. The
race's update that follows (the racer's row, the race's row locked, its next version, the view
built for its event: `services.racer_progress`) is database work a move must not wait for:
under a server, the play socket's moves run on the process's one database thread, and every
socket of the process would wait with it. So the receivers only hand the attempt to this
process's updater (`submit`): an asyncio task of the server's event loop, started and stopped
with the server (realtime/lifespan.py), that runs the updates in a thread of their own, one
after another, each sending `race_changed` with its version after its commit. The moves of one
attempt that waited together make one update (their latest figures; the race's view reads the
rest as committed). A process with no updater running (a management command, a test that
starts none) updates in the caller's thread.
"""

from __future__ import annotations

import asyncio
import logging

from channels.db import database_sync_to_async

from games.loop_task import LoopTask
from races import services

logger = logging.getLogger(__name__)

#: What the updater is handed: (attempt id, the move's seq, the foundations after it); seq and
#: foundations are None for an attempt's end (the update reads them as committed).
Update = tuple[int, int | None, list[dict[str, object]] | None]

#: How long the server's stop waits for the updates still queued (a race's end among them).
STOP_SECONDS = 10.0


def submit(attempt_id: int, seq: int | None, foundations: list[dict[str, object]] | None) -> None:
    """Hand an attempt's move (or end) to this process's updater; at once, in this thread, when
    none runs. Never waits for the update itself."""
    if not updater.hand(lambda queue: queue.put_nowait((attempt_id, seq, foundations))):
        services.racer_progress(attempt_id=attempt_id, seq=seq, foundations=foundations)


def merged(updates: list[Update]) -> list[Update]:
    """One update per attempt, in the order each attempt first came: its latest figures, or
    none (read as committed) when its end is among them."""
    latest: dict[int, Update] = {}
    for attempt_id, seq, foundations in updates:
        ended = attempt_id in latest and latest[attempt_id][1] is None
        latest[attempt_id] = (attempt_id, None, None) if ended else (attempt_id, seq, foundations)
    return list(latest.values())


def _update(updates: list[Update]) -> None:
    for attempt_id, seq, foundations in merged(updates):
        try:
            services.racer_progress(attempt_id=attempt_id, seq=seq, foundations=foundations)
        except Exception:  # one failed update must not stop the others
            logger.exception("race update of attempt %s failed", attempt_id)


async def _update_forever(queue: asyncio.Queue[Update]) -> None:
    update = database_sync_to_async(_update, thread_sensitive=False)
    while True:
        updates = [await queue.get()]
        while not queue.empty():
            updates.append(queue.get_nowait())
        try:
            await update(updates)
        except Exception:  # the database unreachable: the next update tries again
            logger.exception("race updates failed")
        finally:
            for _ in updates:
                queue.task_done()


#: This process's updater: one task of the server's event loop, from its start to its stop
#: (realtime/lifespan.py); at the stop it finishes the updates it holds (at most
#: `STOP_SECONDS`), and what comes after is updated in the caller's thread.
updater: LoopTask[asyncio.Queue[Update]] = LoopTask(
    "race updater",
    asyncio.Queue,
    _update_forever,
    drain=asyncio.Queue.join,
    drain_seconds=STOP_SECONDS,
)
