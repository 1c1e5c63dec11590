"""Fixtures of the ratings tests: the games' named players, a third one, rating jobs run
inline, and ranked attempts made directly on a past daily."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable

import pytest

from games import clock
from games.models import Attempt, DailyChallenge, Player
from tests.games import factories
from tests.games.conftest import alice, bob, travel  # noqa: F401 (fixtures)


@pytest.fixture(autouse=True)
def _rating_jobs_inline(settings):
    """The receivers rate in the process that sent the signal (no worker in tests)."""
    settings.RATINGS_JOBS = "inline"


@pytest.fixture
def carol(db) -> Player:
    return factories.player("carol")


@pytest.fixture
def past_daily(db) -> DailyChallenge:
    """A masterpiece daily two days ago (its ranked play is over), of solver difficulty 3."""
    daily = factories.daily("masterpiece", clock.today() - dt.timedelta(days=2))
    daily.deal.difficulty = 3
    daily.deal.save(update_fields=["difficulty"])
    return daily


def ranked(
    daily: DailyChallenge,
    player: Player,
    status: str = Attempt.Status.WON,
    *,
    moves: int = 90,
    **fields: object,
) -> Attempt:
    """A ranked attempt of `player` at `daily`, as play leaves it: finished ones verified."""
    fields.setdefault("verified", status != Attempt.Status.PLAYING)
    return Attempt.objects.create(
        player=player,
        game=daily.game,
        daily=daily,
        deal_string=daily.deal.deal_string,
        ranked=True,
        status=status,
        move_count=moves,
        next_seq=moves,
        started_at=clock.now(),
        **fields,
    )


@pytest.fixture
def close() -> Callable[[DailyChallenge], None]:
    """Mark a daily's day closed, as `games.services.daily_close` does (without its checks)."""

    def go(daily: DailyChallenge) -> None:
        DailyChallenge.objects.filter(pk=daily.pk).update(closed_at=clock.now())

    return go
