"""`manage.py ratings_backfill`: rate every closed daily that was not rated yet, oldest first.

A day is rated when it closes (`ratings.services.ratings_close_daily`, queued by the
`daily_closed` signal); days closed before the ratings existed, or whose rating job was lost
(a worker gone, `RATINGS_JOBS=off`), are rated here in date order, so each player's rating
moves through their days as it would have. Run it when adopting the ratings on a site with a
history, before later days are rated: a day rated after its successors counts last. Running
it again changes nothing (each day is claimed by its `RatedDaily` row). Prints "N dailies, M
players".
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from games.models import DailyChallenge
from ratings import services
from ratings.models import RatedDaily


class Command(BaseCommand):
    help = "Rate every closed daily not rated yet, oldest first."

    def handle(self, *args: Any, **options: Any) -> None:
        rated = RatedDaily.objects.values("daily_id")
        dailies = (
            DailyChallenge.objects.filter(closed_at__isnull=False)
            .exclude(pk__in=rated)
            .order_by("date", "game")
            .values_list("pk", flat=True)
        )
        days = players = 0
        for daily_id in dailies:
            counted = services.ratings_close_daily(daily_id=daily_id)
            if counted is not None:
                days += 1
                players += counted
        self.stdout.write(f"{days} dailies, {players} players")
