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

from ..base import Game
from .registry import rules_for
from .rules import EXACT

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


def difficulty_inputs(start: Game, line: list[str]) -> dict[str, Any]:
    """What the difficulty formula reads, besides the search effort.

    Walks the par line token by token on a copy of the game; wherever the line continues with
    one of the solver's candidate steps (in the order the par search generates them), counts a
    decision if there were several candidates, and an agreement if the line took the first one
    (what a greedy player would play).
    """
    game = start.copy()
    rules = rules_for(start, EXACT)
    lower = rules.simple_bound(rules.root()[0])
    choices = agreements = steps = 0
    position = 0
    while position < len(line):
        state = rules.state_of(game)
        candidates = [step for step, _, _ in rules.children(state)]
        matched = [line[position]]
        for index, step in enumerate(candidates):
            tokens = rules.step_tokens(state, step)
            if line[position : position + len(tokens)] == tokens:
                matched = tokens
                steps += 1
                choices += len(candidates) > 1
                agreements += index == 0
                break
        for token in matched:
            game.push(token)
        position += len(matched)
    return {
        "lower_bound": lower,
        "decisions": choices,
        "steps": steps,
        "greedy_agreement": round(agreements / steps, 4) if steps else 1.0,
        "greedy_reach": greedy_reach(start),
    }


#: Steps a greedy player plays at most, in `greedy_reach`.
GREEDY_STEPS = 400


def greedy_reach(start: Game) -> int:
    """Foundation cards a greedy player reaches: always the first candidate step not leading
    back to a position seen before, no backtracking, at most GREEDY_STEPS steps."""
    rules = rules_for(start, EXACT)
    state, _ = rules.root()
    seen = {rules.key(state)}
    for _ in range(GREEDY_STEPS):
        if rules.won(state):
            break
        for _, child, _ in rules.children(state):
            key = rules.key(child)
            if key not in seen:
                seen.add(key)
                state = child
                break
        else:
            break
    tail = state[1]
    return int(tail[0] + tail[1] + tail[2] + tail[3])
