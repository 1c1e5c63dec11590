"""Streaks: consecutive UTC days with a verified ranked win.

A day is a daily's date (the server's date, never the player's clock). Per game, a day counts
when that game's daily was won; across both games (`game=None`), a day counts when either was.
The current streak is alive while its last win is today or yesterday: today is not over yet,
so a player who won every day up to yesterday still has their streak this morning.

>>> import datetime as dt
>>> d = dt.date(2026, 12, 1)
>>> streak([d, d - dt.timedelta(1), d - dt.timedelta(3)], today=d)
Streak(current=2, best=2, last_win=datetime.date(2026, 12, 1))
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from typing import NamedTuple

from games import clock
from games.models import Attempt, Player

ONE_DAY = dt.timedelta(days=1)


class Streak(NamedTuple):
    current: int
    best: int
    last_win: dt.date | None


def runs(days: Iterable[dt.date], *, today: dt.date) -> list[int]:
    """The length of every run of consecutive days among `days`, oldest first (duplicates and
    order do not matter; days after `today` are ignored).

    >>> import datetime as dt
    >>> d = dt.date(2026, 12, 1)
    >>> runs([d, d - dt.timedelta(1), d - dt.timedelta(3)], today=d)
    [1, 2]
    """
    lengths: list[int] = []
    previous: dt.date | None = None
    for day in sorted({day for day in days if day <= today}):
        if previous is not None and day - previous == ONE_DAY:
            lengths[-1] += 1
        else:
            lengths.append(1)
        previous = day
    return lengths


def streak(days: Iterable[dt.date], *, today: dt.date) -> Streak:
    """The current and best runs of consecutive days among `days` (duplicates and order do not
    matter; days after `today` are ignored).

    >>> import datetime as dt
    >>> today = dt.date(2026, 12, 1)
    >>> streak([today - dt.timedelta(1), today - dt.timedelta(2)], today=today).current
    2
    >>> streak([today - dt.timedelta(2)], today=today)
    Streak(current=0, best=1, last_win=datetime.date(2026, 11, 29))
    >>> streak([], today=today)
    Streak(current=0, best=0, last_win=None)
    """
    kept = [day for day in days if day <= today]
    lengths = runs(kept, today=today)
    if not lengths:
        return Streak(0, 0, None)
    last = max(kept)
    current = lengths[-1] if today - last <= ONE_DAY else 0
    return Streak(current, max(lengths), last)


def win_days(*, player_ids: Iterable[int], game: str | None = None) -> dict[int, set[dt.date]]:
    """The dates of each player's verified ranked wins (of `game`, or of either game)."""
    wins = Attempt.objects.filter(player_id__in=list(player_ids)).on_board().wins()
    if game is not None:
        wins = wins.filter(daily__game=game)
    out: dict[int, set[dt.date]] = {}
    for player_id, day in wins.values_list("player_id", "daily__date"):
        out.setdefault(player_id, set()).add(day)
    return out


def player_streak(*, player: Player, game: str | None = None) -> Streak:
    """A player's streak today (by the server's clock), for one game or across both."""
    days = win_days(player_ids=[player.pk], game=game).get(player.pk, set())
    return streak(days, today=clock.today())
