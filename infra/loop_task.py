"""One background task of this process's event loop, for the work a server process does beside
its requests and sockets (the live boards' flusher, the races' updater).

`start()` runs in the event loop (a server's lifespan, a test's loop) and starts the task there,
unless it runs there already; each start makes the task's state afresh (`state()`: what other
threads hand it work through, a queue or an event) and passes it to `run(state)`. `hand(f)`
calls `f(state)` in the task's loop from any thread, and says False when no task runs (the
caller then does the work itself, or nothing). `stop()` first waits, at most `drain_seconds`,
for `drain(state)` (the work handed over and not yet done), then cancels the task; from the
stop on, `hand` says False. Nothing here knows Django: the apps above give the work.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, Generic, TypeVar

S = TypeVar("S")


class LoopTask(Generic[S]):
    def __init__(
        self,
        name: str,
        state: Callable[[], S],
        run: Callable[[S], Coroutine[Any, Any, None]],
        *,
        drain: Callable[[S], Awaitable[object]] | None = None,
        drain_seconds: float = 0.0,
    ) -> None:
        self.name = name
        self._make_state, self._run = state, run
        self._drain, self.drain_seconds = drain, drain_seconds
        self._loop: asyncio.AbstractEventLoop | None = None
        self._state: S | None = None
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Start the task in the running event loop, unless it runs there already."""
        loop = asyncio.get_running_loop()
        task = self._task
        if task is None or task.done() or task.get_loop() is not loop:
            self._state = self._make_state()
            self._loop = loop
            self._task = loop.create_task(self._run(self._state), name=self.name)

    @property
    def task(self) -> asyncio.Task[None] | None:
        """The task started and not stopped (it may have ended by itself), or None."""
        return self._task

    def hand(self, call: Callable[[S], object]) -> bool:
        """Call `call(state)` in the task's loop, from any thread; False (nothing called) when
        no task runs or its loop has closed."""
        loop, state = self._loop, self._state
        if loop is None or state is None or loop.is_closed():
            return False
        try:
            loop.call_soon_threadsafe(call, state)
        except RuntimeError:  # the loop closed meanwhile
            return False
        return True

    async def stop(self) -> None:
        """Wait for `drain` (at most `drain_seconds`), then cancel the task; `hand` says False
        from the start of the stop."""
        task, state = self._task, self._state
        self._loop, self._state, self._task = None, None, None
        if task is None:
            return
        if self._drain is not None and state is not None and not task.done():
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(self.drain_seconds):
                    await self._drain(state)
        if not task.done():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
