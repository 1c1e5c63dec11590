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
import contextlib
import logging

from channels.db import database_sync_to_async

from races import services

logger = logging.getLogger(__name__)

#: What the updater is handed: (attempt id, the move's seq, the foundations after it); seq and
#: foundations are None for an attempt's end (the update reads them as committed).
Update = tuple[int, int | None, list[dict[str, object]] | None]

#: How long the server's stop waits for the updates still queued (a race's end among them).
STOP_SECONDS = 10.0

_loop: asyncio.AbstractEventLoop | None = None
_queue: asyncio.Queue[Update] | None = None
_task: asyncio.Task[None] | None = None


def submit(attempt_id: int, seq: int | None, foundations: list[dict[str, object]] | None) -> None:
    """Hand an attempt's move (or end) to this process's updater; at once, in this thread, when
    none runs. Never waits for the update itself."""
    loop, queue = _loop, _queue
    if loop is not None and queue is not None and not loop.is_closed():
        with contextlib.suppress(RuntimeError):  # the loop closed meanwhile: update here
            loop.call_soon_threadsafe(queue.put_nowait, (attempt_id, seq, foundations))
            return
    services.racer_progress(attempt_id=attempt_id, seq=seq, foundations=foundations)


def updater_start() -> None:
    """Start this process's updater in the running event loop, unless it runs there already."""
    global _loop, _queue, _task
    loop = asyncio.get_running_loop()
    if _task is None or _task.done() or _task.get_loop() is not loop:
        _queue = asyncio.Queue()
        _loop = loop
        _task = loop.create_task(_update_forever(_queue), name="race updater")


async def updater_stop() -> None:
    """Stop this process's updater once the updates it holds are done (at most `STOP_SECONDS`);
    what comes after is updated in the caller's thread."""
    global _loop, _queue, _task
    task, queue = _task, _queue
    _loop, _queue, _task = None, None, None
    if task is None or queue is None:
        return
    with contextlib.suppress(TimeoutError):
        async with asyncio.timeout(STOP_SECONDS):
            await queue.join()
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task


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
