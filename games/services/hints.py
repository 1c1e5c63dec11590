"""Hints: the next move of a winning line from the player's position, or how many moves to undo
before a win exists again (docs/api.md, "Hints"). The REST view and the play socket both call
`attempt_hint`.

Only for practice: an unfinished attempt that is not ranked, on a random deal or on a daily
whose ranked play is over (`Attempt.hints_open`). The search is the solver's
(`games.engine.solver.hint`), run on the deal the server holds and the stored history,
within a time budget per game (the `HINT_SECONDS` setting), outside any transaction: no row
is locked while it runs. The answer names a move token (places, never cards), the face-up card
that leads what the move carries (as the state's `moves` list does: None for a stock draw) and
an undo count, and nothing else of the position, so it never names a card the player cannot
see.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import F

from games.engine.solver import hint
from games.errors import Conflict
from games.models import Attempt, Player
from games.selectors import attempt_get
from games.services.attempts import finished_error
from games.state import position

#: What a hint answers (`HintAnswer.status`).
MOVE = "move"  # play `move`: it keeps a win within reach
UNDO = "undo"  # no win from here: undo `undo` moves, then one exists again
WON = "won"  # nothing left to hint
NO_WIN = "no_win"  # not even the deal's start can be won
TIMEOUT = "timeout"  # no hint found in time
DETAILS = {
    MOVE: "Play this move: a win is still within reach after it.",
    UNDO: "No win from here: undo this many moves and a win exists again.",
    WON: "This game is won.",
    NO_WIN: "This deal cannot be won, not even from its start.",
    TIMEOUT: "No hint found in time. Try again after your next move.",
}
STATUSES = tuple(DETAILS)
#: The answers that count as a hint given (`Attempt.hints`).
COUNTED = (MOVE, UNDO)


@dataclass(frozen=True)
class HintAnswer:
    """A hint for the position at `seq` (the attempt's next seq when it was asked): `status`,
    the move to play (`move`, with the face-up `card` leading what it carries and its `count`
    of cards), or the number of moves to `undo`; `hints`, the attempt's count after this one."""

    attempt_id: int
    seq: int
    status: str
    hints: int
    move: str | None = None
    card: str | None = None
    count: int | None = None
    undo: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "attempt": self.attempt_id,
            "seq": self.seq,
            "status": self.status,
            "detail": DETAILS[self.status],
            "move": self.move,
            "card": self.card,
            "count": self.count,
            "undo": self.undo,
            "hints": self.hints,
        }


#: Refusals that apps above `games` add in their `ready()`: each is called with an attempt open
#: to hints before any search, and may refuse with a ServiceError (a race refuses its racers).
hint_refusals: list[Callable[[Attempt], None]] = []


def _check_hints_open(attempt: Attempt) -> None:
    if attempt.hints_open():
        for refuse in hint_refusals:
            refuse(attempt)
        return
    if attempt.is_finished:
        raise finished_error(attempt)
    if attempt.ranked:
        raise Conflict(
            "No hints in a ranked game: hints are for practice and for past days.",
            code="hints_ranked",
        )
    assert attempt.daily is not None
    until = attempt.daily.ranked_until.strftime("%Y-%m-%d %H:%M UTC")
    raise Conflict(
        f"This daily is still played for rank: hints on it open at {until}.",
        code="hints_not_yet",
    )


def attempt_hint(*, attempt_id: int, player: Player) -> HintAnswer:
    """A hint for the player's attempt as it stands: 404/403 as for reading it, 409
    `attempt_finished`, `hints_ranked` (a ranked attempt) or `hints_not_yet` (practice on a
    daily whose ranked play is still open). A move or an undo count adds one to
    `Attempt.hints`; `won`, `no_win` and `timeout` count nothing."""
    attempt = attempt_get(attempt_id=attempt_id, player=player)
    _check_hints_open(attempt)
    game = position(attempt)
    budget = float(settings.HINT_SECONDS[attempt.game])
    clock = time.perf_counter()
    found = hint(attempt.game, attempt.deal_string, attempt.moves, time_limit=budget)
    answer: dict[str, Any] = {}
    if found.status == "move":
        carried = {m.move: m for m in game.legal_moves_carrying()}.get(found.move or "")
        if carried is None:  # the solver's moves are the engine's: not expected
            status = TIMEOUT
        else:
            status = MOVE
            answer = {"move": carried.move, "card": carried.card, "count": carried.count}
    elif found.status == "undo":
        status, answer = UNDO, {"undo": found.undo}
    elif found.status == "won":
        status = WON
    elif time.perf_counter() - clock < budget:
        # Unknown before the budget ran out: every verdict of the search back along the
        # history was exhaustive, down to the start (games.engine.solver.distance.hint).
        status = NO_WIN
    else:
        status = TIMEOUT
    hints = attempt.hints
    if status in COUNTED:
        with transaction.atomic():
            Attempt.objects.filter(pk=attempt.pk).update(hints=F("hints") + 1)
            hints = Attempt.objects.filter(pk=attempt.pk).values_list("hints", flat=True).get()
    return HintAnswer(attempt.pk, attempt.next_seq, status, hints, **answer)
