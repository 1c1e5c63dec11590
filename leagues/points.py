"""The points rule of the seasons: the one home of it (docs/leagues.md, "Seasons").

A daily gives each player who played it ranked, and whose result counts on its board, points by
where that result ranks among all of the day's: the share of the others it beat, as a
percentile, on a scale that keeps every win above every loss. A day not played scores nothing;
results tied on the board (the boards' own ranking, `leaderboards.ranking`) score the same.

>>> points(won=True, rank=1, players=1)
100
>>> points(won=True, rank=1, players=5), points(won=True, rank=5, players=5)
(100, 50)
>>> points(won=False, rank=2, players=3), points(won=False, rank=3, players=3)
(20, 0)
"""

from __future__ import annotations

#: A win scores WIN_BASE plus up to WIN_RANGE by its percentile; anything else (resigned, or
#: left unfinished) up to LOSS_RANGE: the least win is worth more than the best loss.
WIN_BASE = 50
WIN_RANGE = 50
LOSS_RANGE = 40
assert WIN_BASE > LOSS_RANGE


def percentile(rank: int, players: int) -> float:
    """The share of the day's other results that `rank` (1 the best, ties sharing the best
    rank of their group) beat: 1 for the top, 0 for the last; 1 when alone."""
    if players <= 1:
        return 1.0
    return (players - rank) / (players - 1)


def points(*, won: bool, rank: int, players: int) -> int:
    """The points of a result ranked `rank` of `players` on its daily's board."""
    share = percentile(rank, players)
    if won:
        return WIN_BASE + round(WIN_RANGE * share)
    return round(LOSS_RANGE * share)
