"""Reads of the games app: what the API, admin and pages show. Keyword-only, no writes."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.db.models import Count, Q, QuerySet

from games import clock
from games.errors import Forbidden, NotFound
from games.models import Attempt, DailyChallenge, Player
from games.services import game_check


def daily_get(*, game: str, date: dt.date) -> DailyChallenge:
    """The published daily of `game` on `date`; a future one does not exist for players."""
    game_check(game)
    if date > clock.today():
        raise NotFound("There is no such daily yet.", code="daily_not_found")
    daily = (
        DailyChallenge.objects.select_related("deal")
        .filter(game=game, date=date, published=True)
        .first()
    )
    if daily is None:
        raise NotFound(f"There is no {game} daily on {date.isoformat()}.", code="daily_not_found")
    return daily


def dailies_today() -> list[DailyChallenge]:
    """Today's published dailies, one per game that has one, in game order."""
    return list(
        DailyChallenge.objects.select_related("deal")
        .filter(date=clock.today(), published=True)
        .order_by("game")
    )


def ranked_attempts(daily: DailyChallenge) -> QuerySet[Attempt]:
    """The attempts that count on a daily's board: ranked and not disqualified."""
    return Attempt.objects.filter(challenge=daily, ranked=True, disqualified=False)


def daily_summary(*, daily: DailyChallenge, player: Player | None) -> dict[str, Any]:
    """What a daily shows: its difficulty, how many played and won, and its par once the
    player has finished their ranked attempt or the day is over."""
    counts = ranked_attempts(daily).aggregate(
        players=Count("id"),
        winners=Count("id", filter=Q(status=Attempt.Status.WON, verified=True)),
    )
    finished = (
        player is not None
        and Attempt.objects.filter(challenge=daily, player=player, ranked=True)
        .exclude(status=Attempt.Status.PLAYING)
        .exists()
    )
    show_par = finished or daily.date < clock.today()
    return {
        "game": daily.game,
        "date": daily.date,
        "difficulty": daily.deal.difficulty,
        "players": counts["players"],
        "winners": counts["winners"],
        "par": daily.deal.par if show_par else None,
    }


def attempt_get(*, attempt_id: int, player: Player) -> Attempt:
    attempt = Attempt.objects.select_related("challenge").filter(pk=attempt_id).first()
    if attempt is None:
        raise NotFound("There is no such attempt.", code="attempt_not_found")
    if attempt.player_id != player.pk:
        raise Forbidden("This attempt is someone else's.", code="not_your_attempt")
    return attempt


def player_attempts(*, player: Player) -> QuerySet[Attempt]:
    return Attempt.objects.filter(player=player).select_related("challenge").order_by("-started_at")


def player_stats(*, player: Player) -> dict[str, Any]:
    ranked = Attempt.objects.filter(player=player, ranked=True, disqualified=False)
    totals = ranked.aggregate(
        played=Count("id"),
        won=Count("id", filter=Q(status=Attempt.Status.WON, verified=True)),
    )
    return {"dailies_played": totals["played"], "dailies_won": totals["won"]}
