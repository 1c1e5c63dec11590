"""Factories for the games tests: certified deals, dailies and named players (alice, bob)."""

from __future__ import annotations

import datetime as dt

from games import clock, services
from games.engine.solver import solve
from games.models import DailyChallenge, Deal, Player

#: Seeds whose deals the solver decides in milliseconds (enough for the browser tests' server,
#: whose one database gets a past daily per game for each test that asks for one).
SOLVABLE_SEEDS = {
    "masterpiece": [1, 4, 9, 12, 17, 3, 8, 10, 11, 14, 15, 16, 21, 22, 24, 25],
    "munger": [11, 13, 33, 74, 95, 9, 22, 23, 30, 31, 32, 43, 44, 51, 52, 55],
}
UNSOLVABLE_SEEDS = {"masterpiece": [5, 6, 7], "munger": [2, 3, 4]}


def certified_deal(
    game: str = "masterpiece", seed: int | None = None, *, approve: bool = True
) -> Deal:
    """A deal solved for real (short par search), approved unless told otherwise."""
    if seed is None:
        # A seed shuffles the same deck in every game: one used by either game's deal would
        # show a running daily's cards (and be refused for practice and races).
        used = set(Deal.objects.values_list("seed", flat=True))
        seed = next(s for s in SOLVABLE_SEEDS[game] if str(s) not in used)
    deal = services.deal_create(game=game, seed=seed)
    result = solve(game, deal.deal_string, time_limit=10, par_time=0.05)
    assert result.status == "solved"
    deal = services.deal_store_solution(deal_id=deal.pk, result=result)
    if approve:
        deal = services.deal_approve(deal=deal)
    return deal


def daily(
    game: str = "masterpiece", date: dt.date | None = None, *, deal: Deal | None = None
) -> DailyChallenge:
    """A daily on `date` (today by default), scheduled directly (past dates allowed)."""
    date = date or clock.today()
    deal = deal or certified_deal(game)
    return DailyChallenge.objects.create(game=game, date=date, deal=deal)


def player(name: str) -> Player:
    return Player.objects.create(display_name=name)
