"""The ASGI lifespan of a server process: what the live side runs for as long as the process
serves, started and stopped here and nowhere else.

- the live boards' flusher (realtime/boards.py): one per process, from the server's start to
  its stop;
- the races' updater (races/progress.py): one per process, likewise; at the stop it finishes
  the updates it holds;
- the sender of the boards' index updates (leaderboards/index.py): the moves' updates of the
  moment in one round trip; at the stop it sends what it holds.

uvicorn (directly, or as gunicorn's worker) sends "lifespan.startup" before it accepts the
first connection and "lifespan.shutdown" after the last one closed.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from leaderboards import index
from races import progress
from realtime import boards

Message = MutableMapping[str, Any]


async def lifespan(
    scope: MutableMapping[str, Any],
    receive: Callable[[], Awaitable[Message]],
    send: Callable[[Message], Awaitable[None]],
) -> None:
    while True:
        message = await receive()
        if message["type"] == "lifespan.startup":
            boards.flusher.start()
            progress.updater.start()
            index.sender.start()
            await send({"type": "lifespan.startup.complete"})
        elif message["type"] == "lifespan.shutdown":
            await index.sender.stop()
            await boards.flusher.stop()
            await progress.updater.stop()
            await send({"type": "lifespan.shutdown.complete"})
            return
