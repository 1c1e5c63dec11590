"""The scheduler's difficulty calibrated by the deals' ratings (ratings/difficulty.py): with
enough rated days the refit rests on the ratings, not the win rates, and the weekly task
applies it when it moves a cut; before that the win rates refit and the task waits."""

from __future__ import annotations

import datetime as dt
import io
import random

import pytest
from django.core.management import call_command

from games import difficulty as win_rates
from games.models import DailyChallenge, Deal, DifficultyCuts
from ratings import difficulty
from ratings.models import DealRating, RatedDaily
from ratings.tasks import refit_difficulty
from tests.games import factories
from tests.games.test_difficulty_refit import TRUE_CUTS, generated_days, observed_days

pytestmark = pytest.mark.django_db


def rated_days(game: str, n: int, *, players: int = 20, seed: int = 3) -> None:
    """`n` closed days whose deals were rated as their true levels say (1200 for level 1, 150
    more a level, with noise), while every day's win rate says one half: only the ratings
    know which deals were hard."""
    rng = random.Random(seed)
    observed_days(game, [(score, 0.5) for score, _ in generated_days(n, seed=seed)])
    for daily in DailyChallenge.objects.filter(game=game).select_related("deal"):
        score = daily.deal.solver_stats["difficulty_score"]
        level = win_rates.level_of(score, TRUE_CUTS)
        rating = 1200 + 150 * (level - 1) + rng.uniform(-40, 40)
        DealRating.objects.create(
            deal=daily.deal, game=game, rating=rating, rd=60, seed_rating=1500, players=players
        )
        RatedDaily.objects.create(
            daily=daily, game=game, rated_at=dt.datetime(2026, 6, 1, tzinfo=dt.UTC), players=players
        )


def test_rated_days_refit_the_levels_and_the_weekly_task_applies_them_once():
    rated_days("munger", 200)
    spare = factories.certified_deal("munger")
    Deal.objects.filter(pk=spare.pk).update(solver_stats={"difficulty_score": 0.50}, difficulty=4)

    found = difficulty.refit("munger")
    assert found.method == difficulty.METHOD and found.days == 200
    assert found.proposed == pytest.approx(TRUE_CUTS, abs=0.02)
    # The win rates alone, flat at one half, cannot place the cuts where the players did.
    assert win_rates.refit_game("munger").proposed != pytest.approx(TRUE_CUTS, abs=0.02)

    assert refit_difficulty() == ["munger"]
    row = DifficultyCuts.objects.get()
    assert row.method == difficulty.METHOD and tuple(row.cuts) == found.proposed
    spare.refresh_from_db()
    assert spare.difficulty == 2  # the scheduler's pool follows at once
    assert refit_difficulty() == []  # nothing moved: no second row
    assert DifficultyCuts.objects.count() == 1


def test_before_enough_rated_days_the_win_rates_refit_and_the_task_waits():
    rated_days("masterpiece", 29)
    observed_days("munger", generated_days(40))

    assert difficulty.refit("masterpiece", min_days=20).method == difficulty.METHOD
    assert difficulty.refit("masterpiece").proposed is None
    assert difficulty.refit("munger").method == win_rates.METHOD
    assert refit_difficulty() == []
    assert not DifficultyCuts.objects.exists()


def test_days_rated_with_few_players_do_not_count():
    rated_days("masterpiece", 8)
    RatedDaily.objects.filter(daily__date=dt.date(2026, 1, 1)).update(players=4)

    assert len(difficulty.rated_pairs("masterpiece")) == 7


def test_the_command_says_which_index_it_refitted_from():
    rated_days("munger", 40)
    out = io.StringIO()
    call_command("refit_difficulty", "--game", "munger", "--apply", stdout=out)

    assert f"munger: 40 days, method: {difficulty.METHOD}" in out.getvalue()
    assert DifficultyCuts.objects.get().method == difficulty.METHOD
