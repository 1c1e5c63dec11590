"""Reads of the ratings: a player's ratings with their history, and a daily's deal rating with
the difficulty the ratings give it. Nothing of a daily whose ranked play is open is read here."""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from typing import Any

from django.db.models import OuterRef, Subquery

from games import difficulty
from games.models import Attempt, DailyChallenge, GameName, Player
from ratings import glicko2
from ratings.models import PROVISIONAL_RD, DealRating, PlayerRating, RatedDaily, RatingChange

#: Rated dailies a game needs before its deals get a calibrated difficulty: as many as the
#: refit of the solver's cut points needs (games/difficulty.py).
CALIBRATION_MIN_DAILIES = difficulty.MIN_DAYS


def player_ratings(*, player: Player) -> list[dict[str, Any]]:
    """The player's rating in each game (a newcomer's where none was counted yet), with the
    change each daily made, oldest first (but those taken back)."""
    rows = {row.game: row for row in PlayerRating.objects.filter(player=player)}
    history: dict[str, list[dict[str, Any]]] = {game: [] for game in GameName.values}
    changes = RatingChange.objects.filter(player=player, taken_back_at__isnull=True)
    changes = changes.order_by("date", "pk")
    for change in changes.values("game", "date", "rating_before", "rating_after", "result"):
        history[change["game"]].append(
            {
                "date": change["date"],
                "before": round(change["rating_before"]),
                "after": round(change["rating_after"]),
                "result": change["result"],
            }
        )
    out = []
    for game in GameName.values:
        row = rows.get(game)
        rating = row.rating if row else glicko2.INITIAL_RATING
        rd = row.rd if row else glicko2.INITIAL_RD
        out.append(
            {
                "game": game,
                "rating": round(rating),
                "rd": round(rd),
                "provisional": rd >= PROVISIONAL_RD,
                "games": row.games if row else 0,
                "history": history[game],
            }
        )
    return out


def _cuts(game: str) -> list[float] | None:
    """The quintiles of `game`'s rated deals' ratings (the calibrated levels' cut points), or
    None until `CALIBRATION_MIN_DAILIES` dailies of the game were rated with a player at least."""
    rated = RatedDaily.objects.filter(game=game, players__gt=0).count()
    if rated < CALIBRATION_MIN_DAILIES:
        return None
    ratings = list(
        DealRating.objects.filter(game=game, players__gt=0).values_list("rating", flat=True)
    )
    if len(ratings) < 2:  # quantiles need two
        return None
    return statistics.quantiles(ratings, n=difficulty.LEVELS, method="inclusive")


def calibrated_difficulty(*, game: str, rating: float) -> int | None:
    """The level 1..5 of a deal rated `rating` among `game`'s rated deals (a fifth of them per
    level: the quintiles of their ratings are the cut points); None until
    `CALIBRATION_MIN_DAILIES` dailies of the game were rated with a player at least."""
    cuts = _cuts(game)
    return None if cuts is None else difficulty.level_of(rating, cuts)


def daily_ratings(*, dailies: Sequence[DailyChallenge]) -> dict[int, dict[str, Any]]:
    """`daily_rating` of many dailies at once (a month of the archive), by daily id, in a few
    queries whatever their number: the dailies rated, their deals' ratings, and each game's
    cut points once. Dailies still played for rank, or not rated, are left out."""
    shown = [d for d in dailies if not d.ranked_play_open()]
    rated = set(RatedDaily.objects.filter(daily__in=shown).values_list("daily_id", flat=True))
    shown = [d for d in shown if d.pk in rated]
    deals = {
        r.deal_id: r for r in DealRating.objects.filter(deal_id__in=[d.deal_id for d in shown])
    }
    cuts = {game: _cuts(game) for game in {d.game for d in shown if d.deal_id in deals}}
    out = {}
    for daily in shown:
        deal = deals.get(daily.deal_id)
        if deal is None:
            continue
        game_cuts = cuts[daily.game]
        out[daily.pk] = {
            "game": daily.game,
            "date": daily.date,
            "rating": round(deal.rating),
            "rd": round(deal.rd),
            "players": deal.players,
            "calibrated_difficulty": (
                None if game_cuts is None else difficulty.level_of(deal.rating, game_cuts)
            ),
        }
    return out


def daily_rating(*, daily: DailyChallenge) -> dict[str, Any] | None:
    """The rating of the daily's deal once its day was rated: rating, deviation, players
    counted and the calibrated difficulty. None while its ranked play is open (nothing of a
    running daily is told) and until its day is rated."""
    return daily_ratings(dailies=[daily]).get(daily.pk)


def board_ratings(*, daily: DailyChallenge, names: Sequence[str]) -> list[dict[str, Any]]:
    """The current rating in the daily's game of the players named, those with a ranked
    attempt on `daily` (a board's rows, which name their players): a newcomer's where none
    was counted yet. One query."""
    rating = PlayerRating.objects.filter(player_id=OuterRef("player_id"), game=daily.game)
    rows = (
        Attempt.objects.filter(daily=daily, ranked=True, player__display_name__in=list(names))
        .annotate(
            player_rating=Subquery(rating.values("rating")[:1]),
            player_rd=Subquery(rating.values("rd")[:1]),
        )
        .values_list("player__display_name", "player_rating", "player_rd")
        .order_by("player__display_name")
        .distinct()
    )
    out = []
    for name, value, rd in rows:
        value = glicko2.INITIAL_RATING if value is None else value
        rd = glicko2.INITIAL_RD if rd is None else rd
        out.append({"player": name, "rating": round(value), "provisional": rd >= PROVISIONAL_RD})
    return out
