"""What the apps tell the metrics: listeners of their signals, and the readings of their tables
at scrape time. The top of the stack (it imports the games app); the metrics themselves are
infra/metrics.py, which imports no app. Connected by `MonitoringConfig.ready()`."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from django.db.models import Count
from prometheus_client.core import GaugeMetricFamily, Metric

from games import clock
from games.models import Attempt, DailyChallenge, Deal, GameName
from infra import metrics


def move_played(sender: Any, **kwargs: Any) -> None:
    """`games.signals.move_played`: a move was stored (once per move, after its commit)."""
    metrics.move_accepted()


def dailies_ready() -> Iterator[Metric]:
    """Per game, the published dailies on a certified deal from today on (today included)."""
    counts = dict(
        DailyChallenge.objects.filter(
            published=True, date__gte=clock.today(), deal__in=Deal.objects.certified()
        )
        .values_list("game")
        .annotate(days=Count("pk"))
        .order_by()
    )
    family = GaugeMetricFamily(
        "patience_dailies_ready",
        "Published dailies on a certified deal from today on (today included), by game.",
        labels=["game"],
    )
    for game in GameName.values:
        family.add_metric([game], counts.get(game, 0))
    yield family


def fairplay_held() -> Iterator[Metric]:
    """The finished ranked results held for an admin's review."""
    yield GaugeMetricFamily(
        "patience_fairplay_held",
        "Ranked results held for an admin's review (games/fairplay.py).",
        value=Attempt.objects.held().count(),
    )
