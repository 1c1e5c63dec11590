"""Background jobs of the races app (Celery). Tasks are thin: they take plain data, call a
service and are idempotent.

- `ensure_race_deals(game=None)`: top up the races' own supply of certified deals
  (`services.race_deals_ensure`: a few new candidates at a time, solved by the games'
  `solve_deal` task on the `solve` queue), for one game or every game. The beat sends it every
  ten minutes (config/celery.py), and a race that takes a deal of the supply, or finds none,
  asks for it (`race_deals_wanted`, below).

Where no worker runs (eager Celery: `make run`) the top-up runs in a thread of the process that
asked, as the games' long solver jobs do (`games.tasks.solver_jobs_mode`): the request that made
the race never waits for a solve.
"""

from __future__ import annotations

import logging
import threading
from typing import Any

from celery import shared_task
from django.db import connection
from django.dispatch import receiver

from games.models import GameName
from games.tasks import solver_jobs_mode
from races import services
from races.signals import race_deals_wanted

logger = logging.getLogger(__name__)

#: Rounds of a top-up in a thread (each one `TOP_UP_BATCH` candidates, solved inline): enough
#: to fill the supply from nothing with a third of the candidates winnable, and a bound when
#: none is.
BACKGROUND_ROUNDS = 20

#: One top-up thread per game in a process at a time; a second ask meanwhile is dropped.
_topping_up = {game: threading.Lock() for game in GameName.values}


@shared_task
def ensure_race_deals(game: str | None = None) -> dict[str, int]:
    """Top up the races' supply of `game` (of every game by default); returns, per game, how
    many solves it asked for."""
    games = [game] if game is not None else list(GameName.values)
    return {name: services.race_deals_ensure(game=name) for name in games}


def race_deals_top_up(game: str) -> str:
    """Have the races' supply of `game` topped up, as `solver_jobs_mode` says: "queued" (the
    `ensure_race_deals` task), "background" (a thread of this process, round after round until
    the supply is full), "busy" (such a thread runs already) or "off"."""
    mode = solver_jobs_mode()
    if mode == "queue":
        ensure_race_deals.delay(game=game)
        return "queued"
    if mode != "background":
        return "off"
    lock = _topping_up[game]
    if not lock.acquire(blocking=False):
        return "busy"

    def run() -> None:
        try:
            for _ in range(BACKGROUND_ROUNDS):
                if not services.race_deals_ensure(game=game):
                    break
        except Exception:
            logger.exception("topping up the %s deals for races failed; asked again later", game)
        finally:
            connection.close()
            lock.release()

    threading.Thread(target=run, daemon=True, name=f"race deals {game}").start()
    return "background"


@receiver(race_deals_wanted, dispatch_uid="races.race_deals_wanted")
def _top_up(sender: Any, game: str, **kwargs: Any) -> None:
    race_deals_top_up(game)
