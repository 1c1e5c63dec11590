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

A hint never gives up with nothing (`hint_from`): winning lines known from the deal's start
(a daily's certificate, and every line a hint found for this attempt, kept in the cache for a
day) answer at once where the player's position lies on one; and where the search runs out
of time, the answer is what is known: the last position of the game known to be winnable, and
the moves to undo to get back to it (`unsure`).
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.db.models import F

from games.engine.solver import Hint, hint
from games.errors import Conflict
from games.fairplay import net_line
from games.models import Attempt, Player
from games.selectors import attempt_get
from games.services.attempts import finished_error
from games.state import position

#: What a hint answers (`HintAnswer.status`).
MOVE = "move"  # play `move`: it keeps a win within reach
UNDO = "undo"  # no win from here: undo `undo` moves, then one exists again
WON = "won"  # nothing left to hint
NO_WIN = "no_win"  # not even the deal's start can be won
UNSURE = "unsure"  # not decided in time: undo `undo` moves to a position known to be winnable
TIMEOUT = "timeout"  # no hint found in time, and no position of the game known to be winnable
DETAILS = {
    MOVE: "Play this move: a win is still within reach after it.",
    UNDO: "No win from here: undo this many moves and a win exists again.",
    WON: "This game is won.",
    NO_WIN: "This deal cannot be won, not even from its start.",
    UNSURE: "This position could not be decided in time. It was winnable this many moves ago: "
    "undo them to be sure of a win.",
    TIMEOUT: "No hint found in time. Try again after your next move.",
}
STATUSES = tuple(DETAILS)
#: The answers that count as a hint given (`Attempt.hints`).
COUNTED = (MOVE, UNDO, UNSURE)
#: Winning lines remembered per attempt (the newest), and for how long (seconds).
LINES_KEPT = 8
LINES_SECONDS = 24 * 3600


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


def hint_from(
    game: str,
    deal_string: str,
    moves: Sequence[str],
    lines: Sequence[Sequence[str]],
    *,
    time_limit: float,
) -> tuple[Hint, list[str] | None]:
    """A hint for the position `moves` reach, knowing winning `lines` from the deal's start
    (net lines, undo pairs removed): the next move of one the position lies on, at once;
    else the solver's search within `time_limit`, whose winning line is returned too (from
    the deal's start, to be remembered); and when the search runs out, the undo count back to
    the last position of the game on a known line (status `unsure`). Pure: no database."""
    net = net_line(moves)
    for line in lines:
        if len(line) > len(net) and list(line[: len(net)]) == net:
            return Hint(MOVE, move=line[len(net)]), None
    found = hint(game, deal_string, moves, time_limit=time_limit)
    if found.status == MOVE and found.line:
        return found, [*net, *found.line]
    if found.status == "unknown":
        known = max((_common(net, line) for line in lines), default=None)
        if known is not None:
            return Hint(UNSURE, undo=len(net) - known), None
    return found, None


def _common(a: Sequence[str], b: Sequence[str]) -> int:
    count = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        count += 1
    return count


def _lines_key(attempt: Attempt) -> str:
    """The cache's name for an attempt's lines: its id, when it started and its deal (an id a
    test database, or a restored one, gives again never reads another game's lines)."""
    made = f"{attempt.pk}:{attempt.started_at.isoformat()}:{attempt.deal_string}"
    return f"hint-lines:{hashlib.blake2b(made.encode(), digest_size=12).hexdigest()}"


def _known_lines(attempt: Attempt) -> list[list[str]]:
    """The winning lines known for the attempt's deal: those hints found for it (the cache's,
    none when the cache cannot be read), then a daily's certificate."""
    try:
        lines = list(cache.get(_lines_key(attempt)) or [])
    except Exception:  # the cache is down: search as if nothing were known
        lines = []
    if attempt.daily is not None and attempt.daily.deal.certificate:
        lines.append(list(attempt.daily.deal.certificate))
    return lines


def _remember(attempt: Attempt, line: list[str]) -> None:
    try:
        kept = [line, *(cache.get(_lines_key(attempt)) or [])][:LINES_KEPT]
        cache.set(_lines_key(attempt), kept, LINES_SECONDS)
    except Exception:  # the cache is down: the next hint searches again
        pass


def attempt_hint(*, attempt_id: int, player: Player) -> HintAnswer:
    """A hint for the player's attempt as it stands: 404/403 as for reading it, 409
    `attempt_finished`, `hints_ranked` (a ranked attempt) or `hints_not_yet` (practice on a
    daily whose ranked play is still open). A move or an undo count adds one to
    `Attempt.hints`, and so does `unsure` (an undo count back to a position known to be
    winnable); `won`, `no_win` and `timeout` count nothing."""
    attempt = attempt_get(attempt_id=attempt_id, player=player)
    _check_hints_open(attempt)
    game = position(attempt)
    budget = float(settings.HINT_SECONDS[attempt.game])
    clock = time.perf_counter()
    found, line = hint_from(
        attempt.game, attempt.deal_string, attempt.moves, _known_lines(attempt), time_limit=budget
    )
    if line is not None:
        _remember(attempt, line)
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
    elif found.status == UNSURE:
        status, answer = UNSURE, {"undo": found.undo}
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
