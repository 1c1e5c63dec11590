"""The difficulty refit (games/difficulty.py, `manage.py refit_difficulty`): on generated days
whose true cut points are known, the refit finds them; it writes only with --apply, needs a
minimum of observed days, and the cuts it applies rate new solves and the unscheduled deals."""

from __future__ import annotations

import datetime as dt
import io
import random

import pytest
from django.core.management import call_command

from games import difficulty, services
from games.engine import game_class
from games.engine.solver import rules_class
from games.models import DailyChallenge, Deal, DifficultyCuts
from tests.games import factories

TRUE_CUTS = (0.47, 0.54, 0.61, 0.68)


def generated_days(n: int, seed: int = 7) -> list[tuple[float, float]]:
    """(solver score, observed index) of `n` days: scores uniform on [0.40, 0.75], so that each
    true level holds a fifth of them; the share of players who lose grows with the true level,
    with noise within it."""
    rng = random.Random(seed)
    days = []
    for _ in range(n):
        score = rng.uniform(0.40, 0.75)
        level = difficulty.level_of(score, TRUE_CUTS)
        days.append((score, 0.1 + 0.15 * (level - 1) + rng.uniform(-0.05, 0.05)))
    return days


def test_the_refit_finds_the_true_cut_points_of_generated_days():
    cuts = difficulty.refit_cuts(generated_days(1000))

    assert cuts == pytest.approx(TRUE_CUTS, abs=0.01)


def test_the_refit_follows_a_noisy_index_through_its_monotone_fit():
    # Levels overlap in what players found; the fit still puts each cut near the true one.
    rng = random.Random(3)
    days = []
    for _ in range(2000):
        score = rng.uniform(0.40, 0.75)
        level = difficulty.level_of(score, TRUE_CUTS)
        days.append((score, 0.1 + 0.15 * (level - 1) + rng.gauss(0, 0.06)))

    cuts = difficulty.refit_cuts(days)

    assert cuts == pytest.approx(TRUE_CUTS, abs=0.03)
    assert list(cuts) == sorted(cuts)


def test_the_monotone_fit_pools_what_goes_down():
    assert difficulty.monotone_fit([1, 3, 2, 4]) == [1, 2.5, 2.5, 4]
    assert difficulty.monotone_fit([3, 2, 1]) == [2, 2, 2]


def observed_days(game: str, days: list[tuple[float, float]]) -> None:
    """Closed dailies of `game` whose deals carry the scores and whose days the indices."""
    start = dt.date(2026, 1, 1)
    for i, (score, index) in enumerate(days):
        text = game_class(game).deal_for_seed(10_000 + i)
        deal = Deal.objects.create(
            game=game,
            seed=str(10_000 + i),
            deal_string=text,
            solver_status=Deal.SolverStatus.SOLVED,
            certificate=["S>W"],
            par=1,
            difficulty=3,
            solver_stats={"difficulty_score": round(score, 4)},
            curation=Deal.Curation.APPROVED,
        )
        DailyChallenge.objects.create(
            game=game,
            date=start + dt.timedelta(days=i),
            deal=deal,
            observed={"players": 20, "winners": 0, "win_rate": round(1 - index, 4)},
        )


def run(*args: str) -> str:
    out = io.StringIO()
    call_command("refit_difficulty", *args, stdout=out)
    return out.getvalue()


@pytest.mark.django_db
def test_the_command_proposes_beside_the_current_cuts_and_writes_only_with_apply():
    observed_days("munger", generated_days(200))
    current = rules_class("munger").DIFFICULTY_CUTS

    printed = run("--game", "munger")

    assert "munger: 200 days, method: monotone fit of 1 - win rate" in printed
    assert f"1|2    {current[0]:.4f}" in printed and "not written" in printed
    assert not DifficultyCuts.objects.exists()
    assert difficulty.cuts_in_force("munger") == tuple(current)

    run("--game", "munger", "--apply")

    row = DifficultyCuts.objects.get()
    assert tuple(row.cuts) == pytest.approx(TRUE_CUTS, abs=0.02) and row.days == 200
    assert difficulty.cuts_in_force("munger") == tuple(row.cuts)
    assert difficulty.cuts_in_force("masterpiece") == rules_class("masterpiece").DIFFICULTY_CUTS


@pytest.mark.django_db
def test_too_few_observed_days_refit_nothing():
    days = generated_days(40)
    observed_days("masterpiece", days[:10])

    printed = run("--game", "masterpiece", "--apply")

    assert "masterpiece: 10 observed days, fewer than 30: no refit" in printed
    assert not DifficultyCuts.objects.exists()


@pytest.mark.django_db
def test_days_with_few_players_or_not_closed_do_not_count():
    observed_days("masterpiece", generated_days(6))
    DailyChallenge.objects.filter(date=dt.date(2026, 1, 1)).update(
        observed={"players": 2, "winners": 1, "win_rate": 0.5}
    )
    DailyChallenge.objects.filter(date=dt.date(2026, 1, 2)).update(observed=None)

    assert difficulty.refit_game("masterpiece", min_days=1).days == 4


@pytest.mark.django_db
def test_applied_cuts_rate_new_solves_and_the_unscheduled_deals():
    spare = factories.certified_deal("masterpiece")
    scheduled = factories.daily("masterpiece", dt.date(2026, 1, 1)).deal
    shown = scheduled.difficulty

    services.difficulty_cuts_apply(game="masterpiece", cuts=[0.0, 0.0, 0.0, 0.0], days=30)

    spare.refresh_from_db()
    scheduled.refresh_from_db()
    assert spare.difficulty == 5  # every score reaches every cut
    assert scheduled.difficulty == shown  # a scheduled daily keeps what it was shown with
    assert factories.certified_deal("masterpiece").difficulty == 5
