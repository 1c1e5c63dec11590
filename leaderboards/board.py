"""A daily's board as the database holds it: the truth that the Redis index mirrors.

The rows are `Attempt.objects.filter(daily=...).on_board()`; `entry_of` turns one into the
numbers `leaderboards.ranking` orders, `fingerprint` sums the rows in one aggregate query so
that the index can tell cheaply whether it still mirrors them.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.db.models import Count, Q, QuerySet, Sum

from games import clock
from games.models import WIN, Attempt, Standing
from leaderboards import ranking

EPOCH = dt.datetime(1970, 1, 1, tzinfo=dt.UTC)
ONE_MS = dt.timedelta(milliseconds=1)

#: An unfinished ranked game counts as played now while its last move is no older than this;
#: past it, its player has left it (until a next move): "playing now" leaves it out and its
#: row says so (`left`). Ten minutes: a long think, not a game given up for the day.
PLAYING_WINDOW = dt.timedelta(minutes=10)

#: What a board reads of an attempt.
ROW_FIELDS = (
    "id",
    "player_id",
    "player__display_name",
    "daily_id",
    "status",
    "move_count",
    "foundation_cards",
    "first_move_at",
    "last_move_at",
    "finished_at",
    "counted_ms",
    "undo_count",
)

#: The fields of a fingerprint, in the order Redis stores them.
FINGERPRINT_FIELDS = ("rows", "ids", "moves", "cards", "finished")


def board_queryset(daily_id: int) -> QuerySet[Attempt]:
    """The attempts a daily's board ranks (`AttemptQuerySet.on_board`), with their players."""
    return (
        Attempt.objects.filter(daily_id=daily_id)
        .on_board()
        .select_related("player")
        .only(*ROW_FIELDS)
        .order_by()
    )


def finished_ms(moment: dt.datetime | None) -> int | None:
    """Milliseconds since 1970, exactly (no float on the way).

    >>> finished_ms(dt.datetime(1970, 1, 1, 0, 0, 1, 500, tzinfo=dt.UTC))
    1000
    """
    if moment is None:
        return None
    return (moment - EPOCH) // ONE_MS


def entry_of(attempt: Attempt) -> ranking.Entry:
    """What ranking reads of a board's attempt (a win on a board is a verified win)."""
    return ranking.entry(
        attempt_id=attempt.pk,
        won=attempt.status == Attempt.Status.WON,
        moves=attempt.move_count,
        play_seconds=attempt.board_seconds(),
        foundation_cards=attempt.foundation_cards,
        finished_ms=finished_ms(attempt.finished_at),
    )


def entry_of_standing(standing: Standing) -> ranking.Entry:
    """`entry_of` for an attempt's standing as a play signal carries it."""
    return ranking.entry(
        attempt_id=standing.attempt_id,
        won=standing.won,
        moves=standing.move_count,
        play_seconds=standing.seconds,
        foundation_cards=standing.foundation_cards,
        finished_ms=finished_ms(standing.finished_at),
    )


def row(rank: int, attempt: Attempt, e: ranking.Entry | None = None) -> dict[str, Any]:
    """One row of a board, as selectors answer it (JSON-safe: `finished_at` is ISO text);
    `left`: unfinished, and no move for `PLAYING_WINDOW` (read now, by the server's clock)."""
    e = e or entry_of(attempt)
    return {
        "rank": rank,
        "player": attempt.player.display_name,
        "attempt_id": attempt.pk,
        "status": attempt.status,
        "left": left(attempt, now=clock.now()),
        "moves": attempt.move_count,
        "undos": attempt.undos,
        "seconds": e.seconds,
        "foundation_cards": attempt.foundation_cards,
        "finished_at": iso(attempt.finished_at),
    }


def left(attempt: Attempt, *, now: dt.datetime) -> bool:
    """Whether the attempt's player has left it: unfinished, with no move for
    `PLAYING_WINDOW` (a game opened and never moved is not on a board)."""
    last = attempt.last_move_at or attempt.first_move_at
    return (
        attempt.status == Attempt.Status.PLAYING
        and last is not None
        and now - last > PLAYING_WINDOW
    )


def iso(moment: dt.datetime | None) -> str | None:
    """An instant as selectors answer it: ISO 8601 UTC text (JSON-safe for the live side).

    >>> iso(dt.datetime(2026, 12, 1, 8, 30, 0, 123000, tzinfo=dt.UTC))
    '2026-12-01T08:30:00.123000Z'
    """
    if moment is None:
        return None
    return moment.astimezone(dt.UTC).isoformat().replace("+00:00", "Z")


def fingerprint(daily_id: int) -> dict[str, int]:
    """The board's rows summed in one query: count, and sums of ids, moves, foundation cards
    and finished rows. Any start, move, finish or removal changes it."""
    return _summed(daily_id, {})


def live_numbers(daily_id: int, *, playing_since: dt.datetime) -> dict[str, int]:
    """`fingerprint` and, in the same query, the board's `winners` (its verified wins) and
    `playing` (unfinished rows with a move since `playing_since`, `PLAYING_WINDOW` ago: those
    not `left`): what a live board shows beside its rows, whose count is its players."""
    return _summed(
        daily_id,
        {
            "winners": Count("id", filter=WIN),
            "playing": Count(
                "id",
                filter=Q(status=Attempt.Status.PLAYING, last_move_at__gte=playing_since),
            ),
        },
    )


def _summed(daily_id: int, more: dict[str, Any]) -> dict[str, int]:
    sums = (
        Attempt.objects.filter(daily_id=daily_id)
        .on_board()
        .order_by()
        .aggregate(
            rows=Count("id"),
            ids=Sum("id"),
            moves=Sum("move_count"),
            cards=Sum("foundation_cards"),
            finished=Count("finished_at"),
            **more,
        )
    )
    return {name: int(value or 0) for name, value in sums.items()}


def fingerprint_of(attempts: list[Attempt]) -> dict[str, int]:
    """`fingerprint` of rows already read (what a rebuilt index holds)."""
    return {
        "rows": len(attempts),
        "ids": sum(a.pk for a in attempts),
        "moves": sum(a.move_count for a in attempts),
        "cards": sum(a.foundation_cards for a in attempts),
        "finished": sum(1 for a in attempts if a.finished_at is not None),
    }


def ranked(attempts: list[Attempt]) -> list[tuple[int, ranking.Entry, Attempt]]:
    """Every row of a board in order with its rank, computed here (the database path)."""
    by_id = {a.pk: a for a in attempts}
    return [
        (rank, e, by_id[e.attempt_id])
        for rank, e in ranking.competition_ranks(entry_of(a) for a in attempts)
    ]
