"""Lines for the fair-play tests' games."""

from __future__ import annotations

import math
from collections.abc import Sequence

from benchmarks.fairplay import reordered
from games.engine import GAMES
from games.models import DailyChallenge

#: The share of its moves an honest-looking line wastes: well over the rule `accuracy`'s
#: thresholds (games/fairplay.py), as the honest players of the benchmark do.
WASTE = 0.1


def wandering(
    game: str,
    deal_string: str,
    line: Sequence[str],
    *,
    pairs: int | None = None,
    after: int = 0,
) -> list[str]:
    """`line` with `pairs` (by default a tenth of its length) detours kept, not undone: at
    positions spread along it from move `after` on, a move and the move that takes it back,
    two moves that bring the win no closer. A person's way to a win, for the rule `accuracy`,
    which holds lines nearly as short as the par."""
    wanted = math.ceil(WASTE * len(line)) if pairs is None else pairs
    position = GAMES[game].from_deal(deal_string)
    moves: list[str] = []
    step = max(1, (len(line) - after) // (wanted + 1))
    due = 0  # detours whose place has come, put off to the next position that has one
    for index, token in enumerate(line):
        if index >= after and (index - after) % step == step - 1:
            due += 1
        if due and wanted:
            detour = _there_and_back(position)
            if detour is not None:
                for move in detour:
                    position.push(move)
                moves += detour
                wanted, due = wanted - 1, due - 1
        position.push(token)
        moves.append(token)
    if wanted:
        raise ValueError(f"{wanted} detours found no place along the line")
    return moves


def _there_and_back(position) -> list[str] | None:
    for move in position.legal_moves():
        there = position.copy()
        there.push(move)
        for back in there.legal_moves():
            returned = there.copy()
            returned.push(back)
            if returned == position:
                return [move.text, back.text]
    return None


def own_line(daily: DailyChallenge, at: int = 0) -> list[str]:
    """A win of the daily's deal as a person might play it: the solver's line with two
    neighbouring moves from move `at` swapped (not the solver's own line) and, from there on, a
    tenth of its length in detours kept (`wandering`): an honest winner's line for every rule,
    `accuracy` included."""
    deal = daily.deal
    line = reordered(daily.game, deal.deal_string, deal.certificate, at=at)
    return wandering(daily.game, deal.deal_string, line, after=at)
