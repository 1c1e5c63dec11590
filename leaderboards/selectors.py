"""Reads of the leaderboards: boards, the day's statistics, players' statistics and streaks.

Keyword-only, no writes. A board is served from the Redis index when it mirrors the database
(`index.ready`), else from the database itself, ordered by the same rules
(`leaderboards.ranking`). Everything answered is JSON-safe (instants and dates as ISO text),
so the live side can send it as it is.

A board row: `{"rank", "player", "attempt_id", "status", "left", "moves", "undos", "seconds",
"foundation_cards", "finished_at"}` (`left`: unfinished and no move for `PLAYING_WINDOW`).
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from collections.abc import Iterable
from fractions import Fraction
from typing import Any, cast

from django.db.models import Avg, Case, Count, F, IntegerField, Sum, When

from games import clock
from games.models import Attempt, DailyChallenge, Player
from games.selectors import game_check, ranked_attempt
from infra.redis import REDIS_ERRORS
from leaderboards import board, index, ranking, streaks

#: A player counts as playing now with a move in the last this long; past it, the row says
#: the game was left (`board.PLAYING_WINDOW`, the one home of the rule).
PLAYING_WINDOW = board.PLAYING_WINDOW
#: Histogram buckets span this many moves (60-69, 70-79, ...).
BUCKET_MOVES = 10
#: Weeks in a player's chart of wins.
CHART_WEEKS = 12

Row = dict[str, Any]


# -- a daily's board -------------------------------------------------------------------------


def _index_rows(conn: Any, daily_id: int, start: int, stop: int) -> list[Row]:
    """Rows from position `start` to `stop` (0-based, included) of the index."""
    k = index.keys(daily_id)
    pairs = conn.zrange(k.board, start, stop, withscores=True)
    if not pairs:
        return []
    first = int(pairs[0][1])
    better = int(conn.zcount(k.board, "-inf", f"({first}"))
    ids = [ranking.member_attempt_id(m) for m, _ in pairs]
    attempts = board.board_queryset(daily_id).in_bulk(ids)
    rows: list[Row] = []
    rank, previous = better + 1, first
    for position, ((_, value), attempt_id) in enumerate(zip(pairs, ids, strict=True), start):
        value = int(value)
        if value != previous:
            rank, previous = position + 1, value
        attempt = attempts.get(attempt_id)
        if attempt is not None:  # it left the board a moment ago
            rows.append(board.row(rank, attempt))
    return rows


def _database_board(daily_id: int) -> list[tuple[int, ranking.Entry, Attempt]]:
    return board.ranked(list(board.board_queryset(daily_id)))


def _board_attempt(daily: DailyChallenge, player: Player | None) -> Attempt | None:
    if player is None or player.pk is None:
        return None
    return board.board_queryset(daily.pk).filter(player=player).first()


def board_page(*, daily: DailyChallenge, limit: int = 50, offset: int = 0) -> list[Row]:
    """`limit` rows of the daily's board from position `offset` (0 is the top), in order."""
    limit, offset = max(0, limit), max(0, offset)
    if limit == 0:
        return []
    conn = index.ready(daily.pk)
    if conn is not None:
        try:
            return _index_rows(conn, daily.pk, offset, offset + limit - 1)
        except REDIS_ERRORS as exc:
            index.degraded(exc)
    ranked = _database_board(daily.pk)[offset : offset + limit]
    return [board.row(rank, attempt, e) for rank, e, attempt in ranked]


def board_around(*, daily: DailyChallenge, player: Player | None, radius: int = 5) -> list[Row]:
    """The player's row with up to `radius` rows above and below; [] when the player has no
    row on this board."""
    attempt = _board_attempt(daily, player)
    if attempt is None:
        return []
    radius = max(0, radius)
    e = board.entry_of(attempt)
    conn = index.ready(daily.pk)
    if conn is not None:
        try:
            found = conn.zrank(index.keys(daily.pk).board, ranking.member(e))
            if found is not None:
                at = cast(int, found)  # a rank (no scores asked for)
                return _index_rows(conn, daily.pk, max(0, at - radius), at + radius)
        except REDIS_ERRORS as exc:
            index.degraded(exc)
    ranked = _database_board(daily.pk)
    position = next((i for i, (_, _, a) in enumerate(ranked) if a.pk == attempt.pk), None)
    if position is None:  # it left the board a moment ago
        return []
    window = ranked[max(0, position - radius) : position + radius + 1]
    return [board.row(rank, a, x) for rank, x, a in window]


def board_head(
    *, daily: DailyChallenge, limit: int, fingerprint: dict[str, int] | None = None
) -> tuple[list[Row], int]:
    """The board's first `limit` rows and how many rows it has, with the index checked against
    the database once for both (a live board's every event shows both). `fingerprint`: the
    database's, when the caller has just read it (`index.ready`)."""
    limit = max(0, limit)
    conn = index.ready(daily.pk, fingerprint)
    if conn is not None:
        try:
            rows = _index_rows(conn, daily.pk, 0, limit - 1) if limit else []
            return rows, int(conn.zcard(index.keys(daily.pk).board))
        except REDIS_ERRORS as exc:
            index.degraded(exc)
    ranked = _database_board(daily.pk)
    return [board.row(rank, attempt, e) for rank, e, attempt in ranked[:limit]], len(ranked)


def live_board(*, daily: DailyChallenge, limit: int) -> dict[str, Any]:
    """What a live board shows of the daily beside its feed: `board` (its first `limit` rows
    and how many it has), `playing_now` and `counts` (its players and winners), from one
    aggregate of the board's rows, which is also the fingerprint its index is checked against
    (`board.live_numbers`), then the index."""
    numbers = board.live_numbers(daily.pk, playing_since=clock.now() - PLAYING_WINDOW)
    fingerprint = {name: numbers[name] for name in board.FINGERPRINT_FIELDS}
    top, total = board_head(daily=daily, limit=limit, fingerprint=fingerprint)
    return {
        "board": {"top": top, "total": total},
        "playing_now": numbers["playing"],
        "counts": {"players": numbers["rows"], "winners": numbers["winners"]},
    }


def board_total(*, daily: DailyChallenge) -> int:
    """How many rows the daily's board has."""
    conn = index.ready(daily.pk)
    if conn is not None:
        try:
            return int(conn.zcard(index.keys(daily.pk).board))
        except REDIS_ERRORS as exc:
            index.degraded(exc)
    return board.board_queryset(daily.pk).count()


def player_row(*, daily: DailyChallenge, player: Player | None) -> Row | None:
    """The player's row on the daily's board, or None."""
    attempt = _board_attempt(daily, player)
    if attempt is None:
        return None
    e = board.entry_of(attempt)
    return board.row(rank_of(daily_id=daily.pk, entry=e), attempt, e)


def rank_of(*, daily_id: int, entry: ranking.Entry, settled: bool = True) -> int:
    """The rank `entry` has (or would have) on the daily's board: one more than the entries
    ranked strictly better.

    With `settled=False` an index that exists is read as it stands, a move or two behind
    under a burst of finishes, and never waited for or rebuilt: for a caller on the play
    path that needs the rank's order of size, not the exact figure."""
    conn = index.ready(daily_id) if settled else index.existing(daily_id)
    if conn is not None:
        try:
            better = conn.zcount(index.keys(daily_id).board, "-inf", f"({ranking.score(entry)}")
            return int(better) + 1
        except REDIS_ERRORS as exc:
            index.degraded(exc)
    mine = ranking.tie_key(entry)
    others = (board.entry_of(a) for a in board.board_queryset(daily_id))
    return sum(1 for other in others if ranking.tie_key(other) < mine) + 1


def playing_now(*, daily: DailyChallenge) -> int:
    """Ranked attempts of the daily still being played, with a move in the last 10 minutes."""
    return board.live_numbers(daily.pk, playing_since=clock.now() - PLAYING_WINDOW)["playing"]


def race_feed(*, daily: DailyChallenge, limit: int = 20) -> list[Row]:
    """The latest moving attempts of the daily, newest move first: player, moves (and the
    undos among them), cards on foundations and status (never a card)."""
    moving = Attempt.objects.filter(daily=daily).on_board().started()
    return _feed(moving.order_by("-last_move_at", "-pk"), limit)


def moved_feed(*, daily_id: int, attempt_ids: Iterable[int], limit: int = 20) -> list[Row]:
    """`race_feed`'s rows of the given attempts of the daily that are on its board (a held
    result is silent until it is approved), newest move first."""
    moved = Attempt.objects.filter(pk__in=list(attempt_ids), daily_id=daily_id).on_board()
    return _feed(moved.order_by("-last_move_at"), limit)


def _feed(attempts: Any, limit: int) -> list[Row]:
    rows = attempts.values(
        "player__display_name", "move_count", "undo_count", "foundation_cards", "status"
    )
    return [
        {
            "player": a["player__display_name"],
            "moves": a["move_count"],
            "undos": a["undo_count"] or 0,
            "foundation_cards": a["foundation_cards"],
            "status": a["status"],
        }
        for a in rows[: max(0, limit)]
    ]


# -- statistics ------------------------------------------------------------------------------


def buckets(moves: Iterable[int], *, width: int = BUCKET_MOVES) -> list[Row]:
    """A histogram of move counts: consecutive buckets of `width` moves, from the lowest count's
    bucket to the highest's (empty buckets between included).

    >>> buckets([61, 65, 79, 80])
    [{'from': 60, 'to': 69, 'count': 2}, {'from': 70, 'to': 79, 'count': 1}, \
{'from': 80, 'to': 89, 'count': 1}]
    >>> buckets([])
    []
    """
    counts = Counter(m // width for m in moves)
    if not counts:
        return []
    return [
        {"from": b * width, "to": b * width + width - 1, "count": counts.get(b, 0)}
        for b in range(min(counts), max(counts) + 1)
    ]


def day_distribution(*, daily: DailyChallenge, player: Player | None = None) -> dict[str, Any]:
    """The move counts of the daily's verified ranked wins, bucketed for a histogram, and the
    par when `player` may see it (`DailyChallenge.par_shown`: finished, or the day is over)."""
    moves = list(
        Attempt.objects.filter(daily=daily).on_board().wins().values_list("move_count", flat=True)
    )
    mine = ranked_attempt(daily=daily, player=player)
    shown = daily.par_shown(finished=mine is not None and mine.is_finished)
    return {
        "buckets": buckets(moves),
        "wins": len(moves),
        "par": daily.deal.par if shown else None,
    }


def _week_start(day: dt.date) -> dt.date:
    return day - dt.timedelta(days=day.weekday())


def weekly_wins(days: Iterable[dt.date], *, today: dt.date, weeks: int = CHART_WEEKS) -> list[Row]:
    """Wins per week (weeks start on Monday) for the last `weeks` weeks, oldest first, this
    week included.

    >>> today = dt.date(2026, 12, 1)  # a Tuesday
    >>> weekly_wins([today, dt.date(2026, 11, 30), dt.date(2026, 11, 29)], today=today, weeks=2)
    [{'week': '2026-11-23', 'wins': 1}, {'week': '2026-11-30', 'wins': 2}]
    """
    this_week = _week_start(today)
    counts = Counter(_week_start(day) for day in days)
    starts = [this_week - dt.timedelta(weeks=n) for n in range(weeks - 1, -1, -1)]
    return [{"week": start.isoformat(), "wins": counts.get(start, 0)} for start in starts]


def _mean(values: list[int]) -> float | None:
    return round(sum(values) / len(values), 2) if values else None


def player_stats(*, player: Player, game: str | None = None) -> dict[str, Any]:
    """A player's record on ranked dailies (of `game`, or of both): played (at least one
    move), won, win rate, streaks, average moves over par and a histogram of moves on wins,
    and wins per week over the last 12 weeks."""
    if game is not None:
        game_check(game)
    played = Attempt.objects.filter(player=player).on_board().started()
    if game is not None:
        played = played.filter(game=game)
    wins = list(played.wins().values_list("move_count", "daily__deal__par", "daily__date"))
    count = played.count()
    today = clock.today()
    streak = streaks.streak((day for _, _, day in wins), today=today)
    return {
        "game": game,
        "played": count,
        "won": len(wins),
        "win_rate": round(len(wins) / count, 4) if count else None,
        "current_streak": streak.current,
        "best_streak": streak.best,
        "last_win": streak.last_win.isoformat() if streak.last_win else None,
        "avg_moves_over_par": _mean([m - par for m, par, _ in wins if par is not None]),
        "moves_distribution": buckets(m for m, _, _ in wins),
        "weekly_wins": weekly_wins((day for _, _, day in wins), today=today),
    }


def all_time_board(*, game: str | None = None, limit: int = 50) -> list[Row]:
    """Players by verified ranked wins (of `game`, or of both), then by average moves over
    par (lower first; none last), with their streaks. Ties share a rank.

    The average counts only the wins of days that are over: a par is never shown, not even
    through an average, while its day's board is still being played.
    """
    if game is not None:
        game_check(game)
    wins = Attempt.objects.on_board().wins()
    if game is not None:
        wins = wins.filter(daily__game=game)
    over = Case(
        When(
            daily__date__lt=clock.today(),
            daily__deal__par__isnull=False,
            then=F("move_count") - F("daily__deal__par"),
        ),
        output_field=IntegerField(),
    )
    leaders = list(
        wins.order_by()
        .values("player_id", "player__display_name")
        .annotate(wins=Count("id"), over_sum=Sum(over), over_n=Count(over), over_avg=Avg(over))
        .order_by("-wins", F("over_avg").asc(nulls_last=True), "player_id")[: max(0, limit)]
    )
    days = streaks.win_days(player_ids=[row["player_id"] for row in leaders], game=game)
    today = clock.today()
    out: list[Row] = []
    previous: tuple[int, Fraction | None] | None = None
    for position, leader in enumerate(leaders, 1):
        average = Fraction(leader["over_sum"], leader["over_n"]) if leader["over_n"] else None
        key = (leader["wins"], average)
        rank = out[-1]["rank"] if key == previous else position
        previous = key
        streak = streaks.streak(days.get(leader["player_id"], ()), today=today)
        out.append(
            {
                "rank": rank,
                "player": leader["player__display_name"],
                "wins": leader["wins"],
                "current_streak": streak.current,
                "best_streak": streak.best,
                "avg_moves_over_par": round(float(average), 2) if average is not None else None,
            }
        )
    return out
