"""Writes of the ratings (docs/leagues.md, "Ratings"): a closed day rated once, and a result
that counts only after its day was rated (approved after a fair-play review) rated then.

What counts, per player and daily: the player's ranked attempt as its board counts it
(`AttemptQuerySet.on_board`: not disqualified, not held for review, at least one move, still
being played or finished with a verified result); a verified win (`WIN`) beats the deal, any
other (resigned, or left unfinished at the day's end) loses to it. Both writes lock the daily's
row first (FOR NO KEY UPDATE: practice on the day may still start), so they never interleave.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from typing import Any

from django.db import connection, transaction
from django.db.models import BooleanField, ExpressionWrapper

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
    return (
        Attempt.objects.filter(daily_id=daily_id)
        .on_board()
        .annotate(won=ExpressionWrapper(WIN, output_field=BooleanField()))
    )


def _lock_daily(daily_id: int) -> DailyChallenge | None:
    return (
        DailyChallenge.objects.select_for_update(no_key=True, of=("self",))
        .select_related("deal")
        .filter(pk=daily_id)
        .first()
    )


def _deal_rating(deal: Deal) -> DealRating:
    """The deal's rating row, locked; made from the solver's difficulty the first time."""
    seed = deal_seed(deal.difficulty)
    DealRating.objects.get_or_create(
        deal=deal,
        defaults={"game": deal.game, "rating": seed, "rd": glicko2.INITIAL_RD, "seed_rating": seed},
    )
    return DealRating.objects.select_for_update().get(deal=deal)


def _player_ratings(game: str, player_ids: Iterable[int], among: Any) -> dict[int, PlayerRating]:
    """The rating rows in `game` of `player_ids` (`among`: the same ids, as a list or a
    subquery), locked in id order, so that two writers never wait on each other crosswise; a
    newcomer's row is made first."""
    PlayerRating.objects.bulk_create(
        [PlayerRating(player_id=pk, game=game) for pk in player_ids],
        ignore_conflicts=True,
        batch_size=5000,
    )
    rows = PlayerRating.objects.select_for_update().filter(game=game, player_id__in=among)
    return {row.player_id: row for row in rows.order_by("pk").iterator(chunk_size=5000)}


def _before_day(row: PlayerRating, date: dt.date) -> glicko2.Rating:
    """The player's rating at the start of `date`'s period: the deviation grown by each day
    since the last one counted (Glicko-2's step 6 for the periods without a game)."""
    rating = glicko2.Rating(row.rating, row.rd, row.volatility)
    if row.last_date is None or row.last_date >= date:
        return rating
    return glicko2.idle(rating, (date - row.last_date).days - 1)


def _move(row: PlayerRating, after: glicko2.Rating, date: dt.date) -> None:
    row.rating, row.rd, row.volatility = after.rating, after.rd, after.volatility
    row.games += 1
    row.last_date = max(date, row.last_date or date)


def _change(
    row: PlayerRating, daily: DailyChallenge, won: bool, before: PlayerRating, *, late: bool
) -> RatingChange:
    return RatingChange(
        player_id=row.player_id,
        daily=daily,
        game=daily.game,
        date=daily.date,
        result=RatingChange.Result.WIN if won else RatingChange.Result.LOSS,
        rating_before=before.rating,
        rating_after=row.rating,
        rd_before=before.rd,
        rd_after=row.rd,
        late=late,
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
        rows = _player_ratings(daily.game, won, _counted(daily.pk).values("player_id"))
        starts = {pk: _before_day(row, daily.date) for pk, row in rows.items()}
        deal_after = glicko2.rate(
            glicko2.Rating(deal.rating, deal.rd, deal.volatility),
            [glicko2.Game(s.rating, s.rd, 0.0 if won[pk] else 1.0) for pk, s in starts.items()],
        )
        changes = []
        for pk, row in rows.items():
            before = PlayerRating(rating=row.rating, rd=row.rd)
            versus = glicko2.Game(deal_after.rating, deal_after.rd, 1.0 if won[pk] else 0.0)
            _move(row, glicko2.rate(starts[pk], [versus]), daily.date)
            changes.append(_change(row, daily, won[pk], before, late=False))
        _store_players(list(rows.values()))
        RatingChange.objects.bulk_create(changes, batch_size=5000)
        deal.rating, deal.rd, deal.volatility = (
            deal_after.rating,
            deal_after.rd,
            deal_after.volatility,
        )
        deal.players += len(rows)
        deal.save(update_fields=["rating", "rd", "volatility", "players", "updated_at"])
        return len(rows)


#: The fields a day's rating changes on each player's row.
PLAYER_FIELDS = ("rating", "rd", "volatility", "games", "last_date")


def _store_players(rows: list[PlayerRating]) -> None:
    """Write the players' new ratings in a few statements. On PostgreSQL one UPDATE joins the
    rows to arrays of the new values (`unnest`): Django's `bulk_update` builds a CASE of one
    branch per row, which PostgreSQL reads row by row (minutes for 100,000 players); elsewhere
    (SQLite: one process, few players) `bulk_update`."""
    if connection.vendor != "postgresql":
        PlayerRating.objects.bulk_update(rows, PLAYER_FIELDS, batch_size=500)
        return
    table = PlayerRating._meta.db_table
    now = clock.now()
    with connection.cursor() as cursor:
        for start in range(0, len(rows), 20_000):
            part = rows[start : start + 20_000]
            cursor.execute(
                f"""
                UPDATE {table} AS r
                SET rating = v.rating, rd = v.rd, volatility = v.volatility,
                    games = v.games, last_date = v.last_date, updated_at = %s
                FROM unnest(%s::bigint[], %s::float8[], %s::float8[], %s::float8[],
                            %s::integer[], %s::date[])
                    AS v(id, rating, rd, volatility, games, last_date)
                WHERE r.id = v.id
                """,
                [
                    now,
                    [row.pk for row in part],
                    [row.rating for row in part],
                    [row.rd for row in part],
                    [row.volatility for row in part],
                    [row.games for row in part],
                    [row.last_date for row in part],
                ],
            )


def rating_count_late(*, attempt_id: int) -> bool:
    """Count one result that its day's rating left out and that counts now (held for review
    at the close, approved since): one Glicko-2 period of one game for the player (its rating
    now against the deal's) and for the deal (against the player's rating before it). Nothing
    before its day is rated (the close counts it then), nor for a result counted already, or
    one that does not count (held, disqualified). Returns whether it counted the result."""
    ids = Attempt.objects.filter(pk=attempt_id, ranked=True).values("daily_id", "player_id")
    found = ids.first()
    if found is None:
        return False
    with transaction.atomic():
        daily = _lock_daily(found["daily_id"])
        if daily is None or not RatedDaily.objects.filter(daily=daily).exists():
            return False
        player_id = found["player_id"]
        if RatingChange.objects.filter(daily=daily, player_id=player_id).exists():
            return False
        won = _results(
            _counted(daily.pk).filter(player_id=player_id).values_list("player_id", "won")
        )
        if player_id not in won:
            return False
        row = _player_ratings(daily.game, [player_id], [player_id])[player_id]
        deal = _deal_rating(daily.deal)
        start = _before_day(row, daily.date)
        deal_before = glicko2.Rating(deal.rating, deal.rd, deal.volatility)
        before = PlayerRating(rating=row.rating, rd=row.rd)
        _move(
            row,
            glicko2.rate(start, [glicko2.Game(deal.rating, deal.rd, float(won[player_id]))]),
            daily.date,
        )
        row.save(update_fields=[*PLAYER_FIELDS, "updated_at"])
        deal_after = glicko2.rate(
            deal_before, [glicko2.Game(start.rating, start.rd, 0.0 if won[player_id] else 1.0)]
        )
        deal.rating, deal.rd, deal.volatility = (
            deal_after.rating,
            deal_after.rd,
            deal_after.volatility,
        )
        deal.players += 1
        deal.save(update_fields=["rating", "rd", "volatility", "players", "updated_at"])
        _change(row, daily, won[player_id], before, late=True).save()
        return True
