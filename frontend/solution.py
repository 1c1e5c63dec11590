"""The solver's line of a daily that is over, step by step, for the play page's replay.

Every position is the engine's player view after one more move of the certificate, so the
page draws each step the way a player would have seen it (Munger's face-down cards and stock
stay backs and counts) and knows no rule. The line is never served while its day runs: the
fair-play checks count on nobody having seen it (docs/fair-play.md).
"""

from __future__ import annotations

from typing import Any

from games.engine import game_class
from games.models import DailyChallenge


def solution_steps(daily: DailyChallenge) -> dict[str, Any]:
    """`{"game", "date", "par", "start", "steps"}`: the deal's first view, then one
    `{"move", "card", "count", "view"}` per move of the line, where `card` and `count` say what
    the move carried (as the state's `moves` do) and `view` is the position after it."""
    position = game_class(daily.game).from_deal(daily.deal.deal_string)
    start = position.view()
    steps = []
    for token in daily.deal.certificate:
        carried = next((m for m in position.legal_moves_carrying() if m.move == token), None)
        position.push(token)
        steps.append(
            {
                "move": token,
                "card": carried.card if carried else None,
                "count": carried.count if carried else 1,
                "view": position.view(),
            }
        )
    return {
        "game": daily.game,
        "date": daily.date.isoformat(),
        "par": daily.deal.par,
        "start": start,
        "steps": steps,
    }
