"""How a daily's board is ordered: the one home of the ranking rules (docs/leaderboards.md).

Pure functions over `Entry`, the few numbers of an attempt that ranking reads. A board ranks the
attempts of `Attempt.objects.filter(daily=...).on_board()`:

1. wins first;
2. among wins: fewer moves (an undo counts as a move), then less server-measured time in whole
   seconds, then earlier finish;
3. every attempt that is not a win (still playing, or resigned) ranks below every win: more
   cards on the foundations first, then fewer moves, then less time.

Ties share a rank (standard competition ranking, "1, 2, 2, 4"): two entries tie when they are
equal on every rule except the finish time, which only orders tied entries stably.

`score` packs every tie-breaking rule into one integer below 2^53 (lower is better), so that a
Redis sorted set orders entries exactly like `order_key`; `member` carries the finish time and
the attempt id, which Redis uses to order equal scores. Equal score means tied rank.

>>> win = Entry(attempt_id=1, won=True, moves=80, seconds=300, foundation_cards=52,
...             finished_ms=1_000)
>>> slower = Entry(attempt_id=2, won=True, moves=80, seconds=301, foundation_cards=52,
...                finished_ms=900)
>>> playing = Entry(attempt_id=3, won=False, moves=40, seconds=100, foundation_cards=30)
>>> [e.attempt_id for e in sorted([playing, slower, win], key=order_key)]
[1, 2, 3]
>>> score(win) < score(slower) < score(playing) < 2**53
True
>>> [rank for rank, _ in competition_ranks([win, win, slower])]
[1, 1, 3]
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

# -- the score layout ------------------------------------------------------------------------
#
# bit 52       1 when the attempt is not a win (playing or resigned), 0 for a win
# bits 46..51  63 - cards on the foundations for an unfinished attempt (more cards: lower);
#              0 for a win (every card is home)
# bits 26..45  moves (20 bits: up to 1,048,575; a history holds at most 5,000)
# bits 0..25   whole seconds from the first move to the finish (26 bits: about 776 days)
#
# The largest score is 2^53 - 1: every score is exact in a double, as Redis stores it.

SECONDS_BITS = 26
MOVES_BITS = 20
CARDS_BITS = 6
SECONDS_MAX = (1 << SECONDS_BITS) - 1
MOVES_MAX = (1 << MOVES_BITS) - 1
CARDS_MAX = (1 << CARDS_BITS) - 1
MOVES_SHIFT = SECONDS_BITS
CARDS_SHIFT = SECONDS_BITS + MOVES_BITS
UNFINISHED_SHIFT = SECONDS_BITS + MOVES_BITS + CARDS_BITS
SCORE_LIMIT = 1 << 53
assert UNFINISHED_SHIFT == 52 and (1 << UNFINISHED_SHIFT) * 2 == SCORE_LIMIT

#: The finish of an entry that has none (still playing): after every real finish.
NO_FINISH_MS = 10**13 - 1
FINISH_DIGITS = 13  # milliseconds since 1970 fit 13 digits until the year 2286
ID_DIGITS = 19  # a 64-bit id


@dataclass(frozen=True)
class Entry:
    """What ranking reads of one attempt. Numbers beyond the score's fields are clamped (by
    `entry`), so the score and `order_key` always agree."""

    attempt_id: int
    won: bool
    moves: int
    seconds: int
    foundation_cards: int
    finished_ms: int = NO_FINISH_MS

    def __post_init__(self) -> None:
        assert 0 <= self.moves <= MOVES_MAX, self.moves
        assert 0 <= self.seconds <= SECONDS_MAX, self.seconds
        assert 0 <= self.foundation_cards <= CARDS_MAX, self.foundation_cards
        assert 0 <= self.finished_ms <= NO_FINISH_MS, self.finished_ms
        assert 0 < self.attempt_id < 10**ID_DIGITS, self.attempt_id


def whole_seconds(play_seconds: float) -> int:
    """The time that ranks: `Attempt.play_seconds` floored, clamped to the score's field.

    >>> whole_seconds(61.999), whole_seconds(0.0), whole_seconds(1e12) == SECONDS_MAX
    (61, 0, True)
    """
    return min(SECONDS_MAX, max(0, math.floor(play_seconds)))


def entry(
    *,
    attempt_id: int,
    won: bool,
    moves: int,
    play_seconds: float,
    foundation_cards: int,
    finished_ms: int | None = None,
) -> Entry:
    """An `Entry` from an attempt's stored numbers, clamped to the score's fields.

    >>> e = entry(attempt_id=7, won=False, moves=3, play_seconds=9.5, foundation_cards=4)
    >>> e.seconds, e.finished_ms == NO_FINISH_MS
    (9, True)
    """
    return Entry(
        attempt_id=attempt_id,
        won=won,
        moves=min(MOVES_MAX, max(0, moves)),
        seconds=whole_seconds(play_seconds),
        foundation_cards=min(CARDS_MAX, max(0, foundation_cards)),
        finished_ms=NO_FINISH_MS if finished_ms is None else min(NO_FINISH_MS, max(0, finished_ms)),
    )


def tie_key(e: Entry) -> tuple[int, ...]:
    """Everything that ranks, except the finish time: equal keys share a rank.

    >>> tie_key(Entry(1, True, 80, 300, 52)) < tie_key(Entry(2, False, 10, 5, 51))
    True
    """
    if e.won:
        return (0, 0, e.moves, e.seconds)
    return (1, CARDS_MAX - e.foundation_cards, e.moves, e.seconds)


def order_key(e: Entry) -> tuple[Any, ...]:
    """The full order of a board: the tie key, then earlier finish, then the attempt id.

    >>> a, b = Entry(5, True, 80, 300, 52, 2_000), Entry(4, True, 80, 300, 52, 1_000)
    >>> [x.attempt_id for x in sorted([a, b], key=order_key)]
    [4, 5]
    """
    return (*tie_key(e), e.finished_ms, e.attempt_id)


def score(e: Entry) -> int:
    """One integer with every tie-breaking rule (lower is better), below 2^53: the layout is
    in this module's comments and in docs/leaderboards.md.

    >>> score(Entry(1, True, 1, 2, 52))
    67108866
    >>> score(Entry(1, False, 0, 0, 63))
    4503599627370496
    """
    unfinished, cards, moves, seconds = tie_key(e)
    value = (
        (unfinished << UNFINISHED_SHIFT) | (cards << CARDS_SHIFT) | (moves << MOVES_SHIFT) | seconds
    )
    assert 0 <= value < SCORE_LIMIT, value
    return value


def member(e: Entry) -> str:
    """The sorted-set member of an entry: the zero-padded finish time, then the attempt id, so
    that Redis orders equal scores by earlier finish (members of one score sort by bytes).

    >>> member(Entry(42, True, 80, 300, 52, 1_700_000_000_000))
    '1700000000000:0000000000000000042'
    """
    return f"{e.finished_ms:0{FINISH_DIGITS}d}:{e.attempt_id:0{ID_DIGITS}d}"


def member_attempt_id(text: str | bytes) -> int:
    """The attempt id a member names.

    >>> member_attempt_id(b'1700000000000:0000000000000000042')
    42
    """
    if isinstance(text, bytes):
        text = text.decode()
    return int(text.rsplit(":", 1)[1])


def competition_ranks(entries: Iterable[Entry]) -> list[tuple[int, Entry]]:
    """Entries in board order, each with its rank; ties share one ("1, 2, 2, 4").

    >>> w, v = Entry(1, True, 80, 300, 52), Entry(2, True, 80, 300, 52)
    >>> x = Entry(3, True, 81, 1, 52)
    >>> [r for r, _ in competition_ranks([x, v, w])]
    [1, 1, 3]
    """
    ordered = sorted(entries, key=order_key)
    return ranks_of_sorted(ordered, start=1)


def ranks_of_sorted(
    ordered: Sequence[Entry], *, start: int, first_rank: int | None = None
) -> list[tuple[int, Entry]]:
    """Ranks of a run of a sorted board starting at position `start` (1 for the top), whose
    first entry has rank `first_rank` (its own position when left out).

    >>> e = Entry(1, True, 80, 300, 52)
    >>> [r for r, _ in ranks_of_sorted([e, e, Entry(2, True, 90, 1, 52)], start=3, first_rank=2)]
    [2, 2, 5]
    """
    out: list[tuple[int, Entry]] = []
    for index, e in enumerate(ordered):
        if index == 0:
            rank = start if first_rank is None else first_rank
        elif tie_key(e) == tie_key(ordered[index - 1]):
            rank = out[-1][0]
        else:
            rank = start + index
        out.append((rank, e))
    return out
