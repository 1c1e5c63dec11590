"""Difficulty from 1 (easy) to 5 (hard), from what the solver saw (docs/solver.md).

A score in [0, 1] mixes four signs of a hard deal, then the game's cut points turn it into 1..5.
Each game's solver rules class holds its cut points (`MungerRules.DIFFICULTY_CUTS`): the
quintiles of the scores of the winnable deals among seeds 1..200, measured with
`benchmarks/solve.py GAME --seeds 1..200 --calibrate`. The signs:

- search: log10 of the positions the decision expanded, over 6 (a million caps it);
- length: how far the par exceeds the lower bound of the start position, (par/bound - 1) / 0.6;
- greed: the share of the par line's moves a greedy player would not have chosen;
- reach: the share of the 52 cards a greedy player never gets to the foundations.

score = 0.3 search + 0.2 length + 0.25 greed + 0.25 reach
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

WEIGHTS = {"search": 0.3, "length": 0.2, "greed": 0.25, "reach": 0.25}


def _clamp(x: float) -> float:
    return 0.0 if x < 0 else 1.0 if x > 1 else x


def score_of(stats: dict[str, Any]) -> float:
    """The difficulty score in [0, 1] of a solved deal's statistics (the module docstring).

    >>> stats = {"nodes": 999, "par_length": 78, "lower_bound": 60, "greedy_agreement": 0.5,
    ...          "greedy_reach": 26}
    >>> round(score_of(stats), 3)
    0.5
    """
    search = _clamp(math.log10(float(stats["nodes"]) + 1) / 6)
    length = _clamp((float(stats["par_length"]) / max(1, int(stats["lower_bound"])) - 1) / 0.6)
    greed = 1 - float(stats["greedy_agreement"])
    reach = 1 - float(stats["greedy_reach"]) / 52
    return (
        WEIGHTS["search"] * search
        + WEIGHTS["length"] * length
        + WEIGHTS["greed"] * greed
        + WEIGHTS["reach"] * reach
    )


def difficulty_of(stats: dict[str, Any], cuts: Sequence[float]) -> int:
    """The level 1..5 of a solved deal's statistics: one more than the number of `cuts` its
    score reaches. Records the score in `stats["difficulty_score"]`."""
    score = score_of(stats)
    stats["difficulty_score"] = round(score, 4)
    return 1 + sum(score >= cut for cut in cuts)
