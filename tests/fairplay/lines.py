"""Lines for the fair-play tests' games."""

from __future__ import annotations

from benchmarks.fairplay import reordered
from games.models import DailyChallenge


def own_line(daily: DailyChallenge, at: int = 0) -> list[str]:
    """A win of the daily's deal that leaves the solver's line at move `at` (its moves, two
    neighbouring ones from there swapped): an honest winner's line for the rules that judge
    pace and rhythm, which the rule `solver_line` does not hold as the solver's own."""
    return reordered(daily.game, daily.deal.deal_string, daily.deal.certificate, at=at)
