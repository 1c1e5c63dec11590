"""Reads of the daily schedule for the curation pages: the coming days of each game, with its
gaps (a day without a daily), laid out as calendar weeks."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.db.models import Count

from games.models import DailyChallenge, GameName

#: How far ahead the calendar looks, from today (UTC).
HORIZON_DAYS = 28


@dataclass
class Day:
    """One game's day: its daily, or a gap."""

    game: str
    date: dt.date
    daily: DailyChallenge | None
    attempts: int = 0
    today: bool = False
    past: bool = False  # over: its daily can no longer change
    outside: bool = False  # drawn to fill a calendar week, not part of the period

    @property
    def gap(self) -> bool:
        return self.daily is None and not self.outside


def days(
    *, game: str, start: dt.date, count: int = HORIZON_DAYS, today: dt.date | None = None
) -> list[Day]:
    """The `count` days of `game` from `start`, each with its daily (or None for a gap)."""
    end = start + dt.timedelta(days=count - 1)
    dailies = {
        d.date: d
        for d in DailyChallenge.objects.filter(game=game, date__range=(start, end))
        .select_related("deal", "scheduled_by")
        .annotate(attempt_count=Count("attempts"))
    }
    out = []
    for i in range(count):
        date = start + dt.timedelta(days=i)
        daily = dailies.get(date)
        out.append(
            Day(
                game,
                date,
                daily,
                attempts=getattr(daily, "attempt_count", 0),
                today=date == today,
                past=today is not None and date < today,
            )
        )
    return out


def weeks(period: list[Day]) -> list[list[Day]]:
    """`period` as calendar weeks, Monday first; days outside it fill the first and last week."""
    if not period:
        return []
    first, last = period[0].date, period[-1].date
    begin = first - dt.timedelta(days=first.weekday())
    finish = last + dt.timedelta(days=6 - last.weekday())
    by_date = {day.date: day for day in period}
    grid: list[list[Day]] = []
    date = begin
    while date <= finish:
        if date.weekday() == 0:
            grid.append([])
        day = by_date.get(date) or Day(period[0].game, date, None, outside=True)
        grid[-1].append(day)
        date += dt.timedelta(days=1)
    return grid


def calendar(
    *, start: dt.date, today: dt.date, count: int = HORIZON_DAYS
) -> list[dict[str, object]]:
    """Per game: its days from `start`, as weeks, with the gaps counted."""
    out = []
    for game, title in GameName.choices:
        period = days(game=game, start=start, count=count, today=today)
        gaps = [day.date for day in period if day.gap]
        out.append({"game": game, "title": title, "weeks": weeks(period), "gaps": gaps})
    return out


def first_gap(*, game: str, start: dt.date, count: int = HORIZON_DAYS) -> dt.date:
    """The first day from `start` without a daily of `game` (the day after the period if
    every day has one)."""
    end = start + dt.timedelta(days=count - 1)
    taken = set(
        DailyChallenge.objects.filter(game=game, date__range=(start, end)).values_list(
            "date", flat=True
        )
    )
    for i in range(count):
        date = start + dt.timedelta(days=i)
        if date not in taken:
            return date
    return end + dt.timedelta(days=1)
