"""The scheduler's difficulty, calibrated by players' ratings (docs/scheduling.md, "Refitting
the difficulty"). The cut points between levels 1..5 of the solver's score are refitted as
games/difficulty.py does, with a better index of what players found than a day's win rate: its
deal's rating once the day was rated (ratings/services.py), which weighs each result by the
player's own rating, so a day that strong players happened to play does not look easy.

A day counts when its deal was rated with at least `MIN_PLAYERS` players counted and the solver
scored it. With `MIN_DAYS` such days a game's refit rests on the ratings; before that, on the
win rates (`games.difficulty.refit_game`). Once a week the beat applies the ratings' refit when
it moves a cut (`refit_apply_due`), so the pool the scheduler draws from follows the players
without an admin's step; `manage.py refit_difficulty` shows and applies either refit by hand.
"""

from __future__ import annotations

from games import difficulty, services
from games.models import DifficultyCuts
from ratings.models import DealRating, RatedDaily

METHOD = (
    "monotone fit of the deal's rating (players' results, Glicko-2) on the solver's score; "
    "a fifth of the days per level"
)
#: A refitted cut moved by less than this is not applied again (the cuts are scores in [0, 1]).
CUT_MOVE = 0.005


def rated_pairs(game: str) -> list[tuple[float, float]]:
    """(solver score, deal rating) of `game`'s dailies rated with `difficulty.MIN_PLAYERS`
    players or more, one a deal."""
    rated_deals = RatedDaily.objects.filter(
        game=game, players__gte=difficulty.MIN_PLAYERS
    ).values_list("daily__deal_id", flat=True)
    rows = DealRating.objects.filter(game=game, deal_id__in=rated_deals).values_list(
        "deal__solver_stats", "rating"
    )
    return [
        (float(stats["difficulty_score"]), float(rating))
        for stats, rating in rows
        if stats and stats.get("difficulty_score") is not None
    ]


def refit(game: str, *, min_days: int = difficulty.MIN_DAYS) -> difficulty.Refit:
    """The refit of `game`: from its deals' ratings with `min_days` rated days, else from the
    win rates of its observed days (a read)."""
    by_ratings = difficulty.refit_from(game, rated_pairs(game), method=METHOD, min_days=min_days)
    if by_ratings.proposed is not None:
        return by_ratings
    return difficulty.refit_game(game, min_days=min_days)


def refit_apply_due(game: str) -> DifficultyCuts | None:
    """Apply the ratings' refit of `game` when it has enough rated days and moves a cut point
    in force by `CUT_MOVE` or more; the new `DifficultyCuts`, or None."""
    found = difficulty.refit_from(game, rated_pairs(game), method=METHOD)
    if found.proposed is None:
        return None
    moved = any(
        abs(new - old) >= CUT_MOVE for new, old in zip(found.proposed, found.current, strict=True)
    )
    if not moved:
        return None
    return services.difficulty_cuts_apply(
        game=game, cuts=found.proposed, days=found.days, method=METHOD
    )
