"""Difficulty that players confirm (docs/scheduling.md, "Refitting the difficulty"): the cut
points between levels 1..5 of the solver's difficulty score, refitted from observed days, and
the one home of the cut points in force.

The solver rates a solved deal with a score in [0, 1] (`stats["difficulty_score"]`,
games/engine/solver/difficulty.py) and its game's cut points (`DIFFICULTY_CUTS` on the solver
rules class). Once days have closed, what players found is recorded (`DailyChallenge.observed`):
the refit turns that into new cut points, by this method:

1. Each observed day with at least `MIN_PLAYERS` ranked players gives a pair: the solver's score
   of its deal, and its observed difficulty index, the share of its ranked players who did not
   win (1 - win rate).
2. Ordered by score, the index is fitted by a monotone (non-decreasing) regression (pool
   adjacent violators): a harder score never predicts an easier day.
3. The levels keep a fifth of the days each, as the solver's own calibration intends: the band
   edges are the quintiles of the observed index, and the cut between levels k and k + 1 is the
   score midway between the last day whose fitted index is at or below the k-th quintile and the
   next day.

A refit needs `MIN_DAYS` such days of the game. `refit_difficulty --apply` stores the cuts
(`DifficultyCuts`); `cuts_in_force` is then what rates new solves and the unscheduled deals.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from games.engine.solver import rules_class
from games.models import DailyChallenge, DifficultyCuts

#: Observed days a game needs before its cut points are refitted.
MIN_DAYS = 30
#: Ranked players a day needs to count (a day two people played says little).
MIN_PLAYERS = 5
#: Difficulty levels 1..LEVELS.
LEVELS = 5
METHOD = "monotone fit of 1 - win rate on the solver's score; a fifth of the days per level"


def level_of(score: float, cuts: Sequence[float]) -> int:
    """The level 1..5 of a score: one more than the number of cuts it reaches (as the
    solver's `difficulty_of`)."""
    return 1 + sum(score >= cut for cut in cuts)


def _refitted(game: str) -> tuple[float, ...] | None:
    row = DifficultyCuts.objects.filter(game=game).order_by("-created_at", "-id").first()
    return None if row is None else tuple(float(cut) for cut in row.cuts)


def cuts_in_force(game: str) -> tuple[float, ...]:
    """The cut points that rate `game`'s deals now: the newest refit applied, else the
    solver's own."""
    return _refitted(game) or tuple(rules_class(game).DIFFICULTY_CUTS)


def level_of_stats(game: str, stats: dict[str, Any], fallback: int | None) -> int | None:
    """The level of a solved deal's statistics with the refitted cuts in force; `fallback`
    (the solver's own level, from its own cuts) while none were applied, or when the
    statistics carry no score."""
    score = stats.get("difficulty_score")
    cuts = _refitted(game)
    if score is None or cuts is None:
        return fallback
    return level_of(float(score), cuts)


def observed_index(observed: dict[str, Any] | None) -> float | None:
    """A day's observed difficulty index: the share of its ranked players who did not win;
    None for a day with fewer than `MIN_PLAYERS`, or not closed."""
    if not observed or (observed.get("players") or 0) < MIN_PLAYERS:
        return None
    rate = observed.get("win_rate")
    return None if rate is None else 1.0 - float(rate)


def monotone_fit(values: Sequence[float]) -> list[float]:
    """The non-decreasing sequence closest to `values` in least squares (pool adjacent
    violators)."""
    blocks: list[list[float]] = []  # [mean, count]
    for value in values:
        blocks.append([float(value), 1.0])
        while len(blocks) > 1 and blocks[-2][0] > blocks[-1][0]:
            mean, count = blocks.pop()
            total = blocks[-1][0] * blocks[-1][1] + mean * count
            blocks[-1][1] += count
            blocks[-1][0] = total / blocks[-1][1]
    fitted: list[float] = []
    for mean, count in blocks:
        fitted += [mean] * int(count)
    return fitted


def refit_cuts(days: Sequence[tuple[float, float]], levels: int = LEVELS) -> tuple[float, ...]:
    """Cut points from (solver score, observed index) pairs, by the module's method."""
    if len(days) < levels:
        raise ValueError(f"a refit needs at least {levels} days, not {len(days)}")
    ordered = sorted(days)
    scores = [score for score, _ in ordered]
    fitted = monotone_fit([index for _, index in ordered])
    edges = statistics.quantiles([index for _, index in ordered], n=levels, method="inclusive")
    cuts = []
    for edge in edges:
        above = next((i for i, value in enumerate(fitted) if value > edge), None)
        if above is None:
            cuts.append(1.0)  # no day is that hard: nothing reaches the level
        elif above == 0:
            cuts.append(scores[0])
        else:
            cuts.append(round((scores[above - 1] + scores[above]) / 2, 4))
    return tuple(cuts)


@dataclass
class Refit:
    """A game's refit: the days it rests on, the cuts in force and the proposed ones (None
    with fewer than the minimum days), and the method that proposed them."""

    game: str
    days: int
    current: tuple[float, ...]
    proposed: tuple[float, ...] | None
    method: str = METHOD


def refit_from(
    game: str, pairs: Sequence[tuple[float, float]], *, method: str, min_days: int = MIN_DAYS
) -> Refit:
    """The refit of `game` from (solver score, difficulty index) pairs, one a day, by any index
    that grows with the difficulty players found (a read)."""
    proposed = refit_cuts(pairs) if len(pairs) >= max(min_days, LEVELS) else None
    return Refit(game, len(pairs), cuts_in_force(game), proposed, method)


def refit_game(game: str, *, min_days: int = MIN_DAYS) -> Refit:
    """The refit of `game` from its observed days' win rates (a read; `refit_apply` stores
    it). The deals' ratings give a better index once enough days were rated
    (ratings/difficulty.py)."""
    pairs = []
    for daily in DailyChallenge.objects.filter(game=game, observed__isnull=False).select_related(
        "deal"
    ):
        index = observed_index(daily.observed)
        score = (daily.deal.solver_stats or {}).get("difficulty_score")
        if index is not None and score is not None:
            pairs.append((float(score), index))
    return refit_from(game, pairs, method=METHOD, min_days=min_days)
