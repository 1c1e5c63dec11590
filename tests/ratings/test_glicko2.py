"""The Glicko-2 update against Glickman's "Example of the Glicko-2 system"."""

from __future__ import annotations

import math

import pytest

from ratings.glicko2 import SCALE, Game, Rating, idle, rate

EXAMPLE = [Game(1400, 30, 1), Game(1550, 100, 0), Game(1700, 300, 0)]


def test_glickmans_worked_example() -> None:
    """A 1500 player (RD 200, volatility 0.06, tau 0.5) beats a 1400 (RD 30), loses to a 1550
    (RD 100) and to a 1700 (RD 300): 1464.06, 151.52, 0.05999 (the paper rounds its steps, so
    the rating agrees to a hundredth)."""
    after = rate(Rating(1500, 200, 0.06), EXAMPLE, tau=0.5)

    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert after.rd == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=0.00001)


def test_the_same_games_everyone_moved_up_give_the_same_change() -> None:
    """Only differences of rating count: the `glicko2` package fails this (its volatility
    step reads the rating for the deviation: 2238.5 here)."""
    shifted = [Game(g.rating + 800, g.rd, g.score) for g in EXAMPLE]
    after = rate(Rating(2300, 200, 0.06), shifted, tau=0.5)

    assert after.rating == pytest.approx(2264.06, abs=0.01)
    assert after.rd == pytest.approx(151.52, abs=0.01)


def test_a_period_without_a_game_only_widens_the_deviation() -> None:
    after = rate(Rating(1600, 200, 0.06), [])

    assert (after.rating, after.volatility) == (1600, 0.06)
    assert after.rd == pytest.approx(SCALE * math.hypot(200 / SCALE, 0.06))


def test_idle_days_widen_the_deviation_up_to_a_newcomers() -> None:
    once = rate(Rating(1600, 100, 0.06), [])

    assert idle(Rating(1600, 100, 0.06), 0) == Rating(1600, 100, 0.06)
    assert idle(Rating(1600, 100, 0.06), 1).rd == pytest.approx(once.rd)
    assert idle(Rating(1600, 100, 0.06), 10_000).rd == 350


def test_a_win_raises_a_loss_lowers_and_both_narrow_the_deviation() -> None:
    start = Rating()
    won = rate(start, [Game(1500, 100, 1)])
    lost = rate(start, [Game(1500, 100, 0)])

    assert won.rating > 1500 > lost.rating
    assert won.rating - 1500 == pytest.approx(1500 - lost.rating)
    assert won.rd < 350 and lost.rd < 350
