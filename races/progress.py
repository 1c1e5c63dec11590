"""A racer's progress, off the move's path.

After commit, a move of a racer's attempt says so (`games.signals.move_played`, carrying the
attempt's id, its standing as committed and the foundations as they now stand), and so does its
end. What follows is database work a move must not wait for: under a server, the play socket's
moves run on the process's one database thread, and every socket of the process would wait
with it. So the receivers only hand the attempt to this process's updater (`submit`): a task
of the server's event loop, started and stopped with the server (realtime/lifespan.py), that
runs the updates in a thread of its own, taking at once whatever was handed to it meanwhile
(a quiet race's update goes out at once; under load one hand-off serves many), each sending its
event after its commit:

- the moves: `services.racers_moved`, one statement each on the racer's own row (the picture of
  their foundations, their next version), in one transaction, then `racers_progressed` with
  each racer's figures alone;
- an end: `services.racer_finished`, a change of the race (fair play, maybe the race's end),
  then `race_changed` with the whole view.

The moves of one attempt that waited together make one update (the latest); an end among them
makes the end's alone. A process with no updater running (a management command, a test that
starts none) updates in the caller's thread.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass

from channels.db import database_sync_to_async

from infra.loop_task import LoopTask
from races import services

logger = logging.getLogger(__name__)

#: How long the server's stop waits for the updates still queued (a race's end among them).
STOP_SECONDS = 10.0


@dataclass(frozen=True)
class End:
    """The end of an attempt (the update reads it as committed)."""

    attempt_id: int


#: What the updater is handed: an attempt's move (its figures after it), or its end.
Update = services.RacerMove | End


def submit(update: Update) -> None:
    """Hand an attempt's move (or end) to this process's updater; at once, in this thread, when
    none runs. Never waits for the update itself."""
    if not updater.hand(lambda queue: queue.put_nowait(update)):
        _update([update])


def merged(updates: list[Update]) -> list[Update]:
    """One update per attempt, in the order each attempt first came: its end when the end is
    among them, else its latest move."""
    latest: dict[int, Update] = {}
    for update in updates:
        held = latest.get(update.attempt_id)
        if (
            held is None
            or isinstance(update, End)
            or (isinstance(held, services.RacerMove) and update.moves > held.moves)
        ):
            latest[update.attempt_id] = update
    return list(latest.values())


def _update(updates: list[Update]) -> None:
    """The moves together (`services.racers_moved`: one transaction, one signal), then each
    end (a change of its race)."""
    todo = merged(updates)
    moves = [u for u in todo if isinstance(u, services.RacerMove)]
    if moves:
        try:
            services.racers_moved(moves)
        except Exception:  # the ends must still go
            logger.exception("race updates of %s moves failed", len(moves))
    for end in todo:
        if isinstance(end, End):
            try:
                services.racer_finished(attempt_id=end.attempt_id)
            except Exception:  # one failed update must not stop the others
                logger.exception("race update of attempt %s failed", end.attempt_id)


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
