"""Writes of the ratings (docs/leagues.md, "Ratings"): a closed day rated once, a result that
counts only after its day was rated (approved after a fair-play review) rated then, and one
disqualified after it counted taken back.

What counts, per player and daily: the player's ranked attempt as its board counts it
(`AttemptQuerySet.on_board`: not disqualified, not held for review, at least one move, still
being played or finished with a verified result); a verified win (`WIN`) beats the deal, any
other (resigned, or left unfinished at the day's end) loses to it. Both writes lock the daily's
row first (FOR NO KEY UPDATE: practice on the day may still start), so they never interleave.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Collection, Iterable
from dataclasses import dataclass
from typing import Any

from django.db import connection, transaction
from django.db.models import BooleanField, ExpressionWrapper, F

from games import clock
from games.models import WIN, Attempt, AttemptQuerySet, DailyChallenge, Deal
from ratings import glicko2
from ratings.models import DealRating, PlayerRating, RatedDaily, RatingChange

#: A deal's first rating from the solver's difficulty level (`Deal.difficulty`, 1 to 5): the
#: deal a newcomer (1500) beats 85%, 70%, 50%, 30% and 15% of the time (by Glicko's expected
#: score, 1500 - 400 log10(p / (1 - p))). A deal the solver did not rate starts at 1500.
DIFFICULTY_SEED = {1: 1200.0, 2: 1350.0, 3: 1500.0, 4: 1650.0, 5: 1800.0}


def deal_seed(difficulty: int | None) -> float:
    return DIFFICULTY_SEED.get(difficulty or 0, glicko2.INITIAL_RATING)


def _results(attempts: Iterable[tuple[int, bool]]) -> dict[int, bool]:
    """player id -> won, from (player id, won) rows: a player with two rows keeps the best."""
    won: dict[int, bool] = {}
    for player_id, win in attempts:
        won[player_id] = won.get(player_id, False) or bool(win)
    return won


def _counted(daily_id: int) -> AttemptQuerySet:
    """The ranked attempts of a daily that its ratings count, with `won`."""
    counted: AttemptQuerySet = (
        Attempt.objects.filter(daily_id=daily_id)
        .on_board()
        .annotate(won=ExpressionWrapper(WIN, output_field=BooleanField()))
    )
    return counted


def _lock_daily(daily_id: int) -> DailyChallenge | None:
    daily: DailyChallenge | None = (
        DailyChallenge.objects.select_for_update(no_key=True, of=("self",))
        .select_related("deal")
        .filter(pk=daily_id)
        .first()
    )
    return daily


def _deal_rating(deal: Deal) -> DealRating:
    """The deal's rating row, locked; made from the solver's difficulty the first time."""
    seed = deal_seed(deal.difficulty)
    DealRating.objects.get_or_create(
        deal=deal,
        defaults={"game": deal.game, "rating": seed, "rd": glicko2.INITIAL_RD, "seed_rating": seed},
    )
    rating: DealRating = DealRating.objects.select_for_update().get(deal=deal)
    return rating


@dataclass(slots=True)
class _Row:
    """A player's rating row as the day reads and writes it (plain values: a day of 100,000
    players makes no model instance per player)."""

    pk: int
    player_id: int
    rating: float
    rd: float
    volatility: float
    games: int
    last_date: dt.date | None


def _player_rows(game: str, player_ids: Collection[int], among: Any) -> dict[int, _Row]:
    """The rating rows in `game` of `player_ids` (`among`: the same ids, as a list or a
    subquery), locked in id order, so that two writers never wait on each other crosswise; a
    newcomer's row is made first."""
    rows = PlayerRating.objects.filter(game=game, player_id__in=among)
    known = set(rows.values_list("player_id", flat=True))
    _newcomers_create(game, [pk for pk in player_ids if pk not in known])
    locked = rows.select_for_update().order_by("pk").values_list("pk", "player_id", *_FIELDS)
    return {row[1]: _Row(*row) for row in locked}


def _newcomers_create(game: str, player_ids: list[int]) -> None:
    """A newcomer's rating row for each of `player_ids` (one made meanwhile is kept): on
    PostgreSQL one statement per `_CHUNK` from an array of the ids, elsewhere `bulk_create`."""
    if connection.vendor != "postgresql":
        PlayerRating.objects.bulk_create(
            [PlayerRating(player_id=pk, game=game) for pk in player_ids],
            ignore_conflicts=True,
            batch_size=500,
        )
        return
    new = glicko2.Rating()
    with connection.cursor() as cursor:
        for first in range(0, len(player_ids), _CHUNK):
            cursor.execute(
                _INSERT_NEWCOMERS,
                [
                    game,
                    new.rating,
                    new.rd,
                    new.volatility,
                    clock.now(),
                    player_ids[first : first + _CHUNK],
                ],
            )


#: The fields of a player's row that a rating changes.
_FIELDS = ("rating", "rd", "volatility", "games", "last_date")


def _before_day(row: _Row, date: dt.date) -> glicko2.Rating:
    """The player's rating at the start of `date`'s period: the deviation grown by each day
    since the last one counted (Glicko-2's step 6 for the periods without a game)."""
    rating = glicko2.Rating(row.rating, row.rd, row.volatility)
    if row.last_date is None or row.last_date >= date:
        return rating
    return glicko2.idle(rating, (date - row.last_date).days - 1)


def _moved(row: _Row, after: glicko2.Rating, date: dt.date) -> _Row:
    last = max(date, row.last_date or date)
    return _Row(
        row.pk, row.player_id, after.rating, after.rd, after.volatility, row.games + 1, last
    )


def ratings_close_daily(*, daily_id: int) -> int | None:
    """Rate a closed daily (`DailyChallenge.closed_at` set): one Glicko-2 period for its deal
    and for each player counted. The deal is rated first, against every player's rating at
    the day's start; then each player against the deal's rating after the day (its best
    estimate: see docs/leagues.md). Claimed by its `RatedDaily` row, so a second run does
    nothing. Returns how many players it rated; None when the daily is unknown, not closed yet,
    or rated already."""
    with transaction.atomic():
        daily = _lock_daily(daily_id)
        if daily is None or daily.closed_at is None:
            return None
        if RatedDaily.objects.filter(daily=daily).exists():
            return None
        won = _results(_counted(daily.pk).values_list("player_id", "won"))
        RatedDaily.objects.create(
            daily=daily, game=daily.game, rated_at=clock.now(), players=len(won)
        )
        deal = _deal_rating(daily.deal)
        if not won:
            return 0
        rows = _player_rows(daily.game, won, _counted(daily.pk).values("player_id"))
        # Only the results read above: one approved since is counted late, once this commits.
        rows = {pk: row for pk, row in rows.items() if pk in won}
        starts = {pk: _before_day(row, daily.date) for pk, row in rows.items()}
        deal_after = glicko2.rate(
            glicko2.Rating(deal.rating, deal.rd, deal.volatility),
            [glicko2.Game(s.rating, s.rd, 0.0 if won[pk] else 1.0) for pk, s in starts.items()],
        )
        moved = []
        for pk, row in rows.items():
            versus = glicko2.Game(deal_after.rating, deal_after.rd, 1.0 if won[pk] else 0.0)
            moved.append((row, _moved(row, glicko2.rate(starts[pk], [versus]), daily.date)))
        _store(daily, moved, won, late=False)
        _deal_store(deal, deal_after, len(rows))
        return len(rows)


def _deal_store(deal: DealRating, after: glicko2.Rating, players: int) -> None:
    deal.rating, deal.rd, deal.volatility = after.rating, after.rd, after.volatility
    deal.players += players
    deal.save(update_fields=["rating", "rd", "volatility", "players", "updated_at"])


def _store(
    daily: DailyChallenge, moved: list[tuple[_Row, _Row]], won: dict[int, bool], *, late: bool
) -> None:
    """Write each player's new rating and the change row of each (before, after) pair. On
    PostgreSQL, in a few statements that join the table to arrays of the values (`unnest`):
    Django's `bulk_update` builds a CASE of one branch per row, which PostgreSQL reads row by
    row (minutes for 100,000 players), and its `bulk_create` makes a model instance per row.
    Elsewhere (SQLite: one process, few players) with those."""
    now = clock.now()
    results = [
        str(RatingChange.Result.WIN if won[new.player_id] else RatingChange.Result.LOSS)
        for _, new in moved
    ]
    if connection.vendor != "postgresql":
        PlayerRating.objects.bulk_update(
            [PlayerRating(pk=new.pk, **{f: getattr(new, f) for f in _FIELDS}) for _, new in moved],
            _FIELDS,
            batch_size=500,
        )
        RatingChange.objects.bulk_create(
            [
                RatingChange(
                    player_id=new.player_id,
                    daily=daily,
                    game=daily.game,
                    date=daily.date,
                    result=result,
                    rating_before=old.rating,
                    rating_after=new.rating,
                    rd_before=old.rd,
                    rd_after=new.rd,
                    late=late,
                )
                for (old, new), result in zip(moved, results, strict=True)
            ],
            batch_size=500,
        )
        return
    with connection.cursor() as cursor:
        for first in range(0, len(moved), _CHUNK):
            part = moved[first : first + _CHUNK]
            news = [new for _, new in part]
            cursor.execute(
                _UPDATE_PLAYERS,
                [now, *([getattr(new, f) for new in news] for f in ("pk", *_FIELDS))],
            )
            cursor.execute(
                _INSERT_CHANGES,
                [
                    daily.pk,
                    daily.game,
                    daily.date,
                    late,
                    now,
                    [new.player_id for new in news],
                    results[first : first + _CHUNK],
                    [old.rating for old, _ in part],
                    [new.rating for new in news],
                    [old.rd for old, _ in part],
                    [new.rd for new in news],
                ],
            )


#: Rows a statement of `_store` writes at most.
_CHUNK = 20_000

_UPDATE_PLAYERS = f"""
    UPDATE {PlayerRating._meta.db_table} AS r
    SET rating = v.rating, rd = v.rd, volatility = v.volatility, games = v.games,
        last_date = v.last_date, updated_at = %s
    FROM unnest(%s::bigint[], %s::float8[], %s::float8[], %s::float8[], %s::integer[],
                %s::date[]) AS v(id, rating, rd, volatility, games, last_date)
    WHERE r.id = v.id
"""

_INSERT_NEWCOMERS = f"""
    INSERT INTO {PlayerRating._meta.db_table}
        (game, rating, rd, volatility, games, updated_at, player_id)
    SELECT %s, %s, %s, %s, 0, %s, v.id FROM unnest(%s::bigint[]) AS v(id)
    ON CONFLICT DO NOTHING
"""

_INSERT_CHANGES = f"""
    INSERT INTO {RatingChange._meta.db_table}
        (daily_id, game, date, late, created_at, player_id, result, rating_before,
         rating_after, rd_before, rd_after)
    SELECT %s, %s, %s, %s, %s, v.*
    FROM unnest(%s::bigint[], %s::varchar[], %s::float8[], %s::float8[], %s::float8[],
                %s::float8[]) AS v
"""


def rating_follow_result(*, attempt_id: int) -> str | None:
    """What a result changed after its day closed does to the ratings, once that day is rated:
    "counted" when it counts now and was left out (held for review at the close, approved
    since: `_count_late`), "taken_back" when it counted and was disqualified since
    (`_take_back`); None when there is nothing to do (its day is not rated yet, and its rating
    will read the result as it is then; or the result was counted, or does not count, already)."""
    found = (
        Attempt.objects.filter(pk=attempt_id, ranked=True).values("daily_id", "player_id").first()
    )
    if found is None:
        return None
    player_id = found["player_id"]
    with transaction.atomic():
        daily = _lock_daily(found["daily_id"])
        if daily is None or not RatedDaily.objects.filter(daily=daily).exists():
            return None
        change = (
            RatingChange.objects.select_for_update()
            .filter(daily=daily, player_id=player_id)
            .first()
        )
        counted = _counted(daily.pk).filter(player_id=player_id)
        if change is None:
            won = _results(counted.values_list("player_id", "won"))
            if player_id not in won:
                return None
            _count_late(daily, player_id, won)
            return "counted"
        disqualified = Attempt.objects.filter(pk=attempt_id, disqualified=True).exists()
        if change.taken_back_at is None and disqualified and not counted.exists():
            _take_back(change)
            return "taken_back"
        return None


def _count_late(daily: DailyChallenge, player_id: int, won: dict[int, bool]) -> None:
    """One result counted after its day: one Glicko-2 period of one game for the player (its
    rating now against the deal's) and for the deal (against the player's rating before it)."""
    row = _player_rows(daily.game, [player_id], [player_id])[player_id]
    deal = _deal_rating(daily.deal)
    start = _before_day(row, daily.date)
    versus = glicko2.Game(deal.rating, deal.rd, 1.0 if won[player_id] else 0.0)
    moved = _moved(row, glicko2.rate(start, [versus]), daily.date)
    deal_after = glicko2.rate(
        glicko2.Rating(deal.rating, deal.rd, deal.volatility),
        [glicko2.Game(start.rating, start.rd, 0.0 if won[player_id] else 1.0)],
    )
    _store(daily, [(row, moved)], won, late=True)
    _deal_store(deal, deal_after, 1)


def _take_back(change: RatingChange) -> None:
    """A counted result disqualified since: the player's rating moves back by what that day
    gave or took (Glicko-2 has no exact undo once later days built on it; the deviation stays
    as it is), the day no longer counts among their games, and the deal's players one fewer (its
    rating stays: one result among the day's moved it little)."""
    row = PlayerRating.objects.select_for_update().get(player_id=change.player_id, game=change.game)
    row.rating -= change.rating_after - change.rating_before
    row.games = max(0, row.games - 1)
    row.save(update_fields=["rating", "games", "updated_at"])
    change.taken_back_at = clock.now()
    change.save(update_fields=["taken_back_at"])
    DealRating.objects.filter(deal_id=change.daily.deal_id, players__gt=0).update(
        players=F("players") - 1
    )
