"""`manage.py season_backfill`: the points of every closed daily that has none yet.

A day's points are worked out when it closes (`leagues.services.daily_points_compute`); days
closed before the leagues existed, or whose worker died on the way, are worked out here, oldest
first. Running it again changes nothing. Prints "N dailies, M rows".
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from games.models import DailyChallenge
from leagues import services
from leagues.models import DailyPoints


class Command(BaseCommand):
    help = "Work out the seasons' points of every closed daily that has none yet."

    def handle(self, *args: Any, **options: Any) -> None:
        scored = DailyPoints.objects.values("daily_id")
        dailies = (
            DailyChallenge.objects.filter(closed_at__isnull=False)
            .exclude(pk__in=scored)
            .order_by("date", "game")
            .values_list("pk", flat=True)
        )
        days = rows = 0
        for daily_id in dailies:
            rows += services.daily_points_compute(daily_id=daily_id)
            days += 1
        self.stdout.write(f"{days} dailies, {rows} rows")
