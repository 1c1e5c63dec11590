"""Writes of the daily schedule: which deal runs on which day."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.db import transaction

from games import clock, signals
from games.errors import Conflict, Malformed
from games.models import (
    DailyChallenge,
    Deal,
)
from games.selectors import game_check

# -- the daily schedule ----------------------------------------------------------------------


def daily_schedule(
    *, game: str, date: dt.date, deal: Deal, by: Any = None, replace: bool = True
) -> DailyChallenge:
    """Put `deal` on `date` for `game`, replacing the deal planned there if nobody has played
    it yet. Only approved deals with a certificate can be scheduled. With `replace=False` a day
    that has a daily keeps it and that daily is returned (the scheduler never overrides)."""
    game_check(game)
    if deal.game != game:
        raise Malformed(f"{deal} is not a {game} deal.", code="wrong_game")
    if not deal.is_schedulable:
        raise Conflict(
            "Only an approved deal with a certificate can be scheduled.", code="not_schedulable"
        )
    if date < clock.today():
        raise Conflict("That day is over; its daily cannot change.", code="day_over")
    with transaction.atomic():
        daily = DailyChallenge.objects.select_for_update().filter(game=game, date=date).first()
        if daily is None:
            daily = DailyChallenge.objects.create(game=game, date=date, deal=deal, scheduled_by=by)
            signals.send_on_commit(signals.daily_scheduled, daily_id=daily.pk)
            return daily
        if daily.deal_id == deal.pk or not replace:
            return daily
        if daily.attempts.exists():
            raise Conflict(
                "People have played this daily already; it cannot change.", code="daily_played"
            )
        daily.deal = deal
        daily.scheduled_by = by
        daily.save(update_fields=["deal", "scheduled_by", "updated_at"])
        signals.send_on_commit(signals.daily_scheduled, daily_id=daily.pk)
        return daily


def daily_unschedule(*, daily: DailyChallenge) -> None:
    with transaction.atomic():
        daily = DailyChallenge.objects.select_for_update().get(pk=daily.pk)
        if daily.attempts.exists():
            raise Conflict(
                "People have played this daily already; it cannot be removed.",
                code="daily_played",
            )
        daily.delete()
