"""Reads of the leagues: a league's page (its members, today's results, the week's, the month's
and all time's standings) and the seasons' standings of everyone. A page costs the same few
queries whatever its members (docs/leagues.md)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from typing import Any

from django.db.models import Count, Q, QuerySet, Sum

from games import clock
from games.models import Attempt, DailyChallenge, Player
from leaderboards import selectors as board_selectors
from leagues import points as rules
from leagues.models import DailyPoints, League, Membership
from leagues.services import league_not_found

#: The seasons: a week (Monday to Sunday) and a month, by the server's UTC days.
PERIODS = ("week", "month")


def season_bounds(period: str, day: dt.date) -> tuple[dt.date, dt.date]:
    """The first and last day of the `period` ("week", "month") that holds `day`.

    >>> season_bounds("week", dt.date(2026, 12, 9))
    (datetime.date(2026, 12, 7), datetime.date(2026, 12, 13))
    >>> season_bounds("month", dt.date(2026, 2, 10))
    (datetime.date(2026, 2, 1), datetime.date(2026, 2, 28))
    """
    if period == "week":
        first = day - dt.timedelta(days=day.weekday())
        return first, first + dt.timedelta(days=6)
    first = day.replace(day=1)
    following = (first + dt.timedelta(days=32)).replace(day=1)
    return first, following - dt.timedelta(days=1)


def season_name(period: str, day: dt.date) -> str:
    """`2026-W50` for a week (ISO), `2026-12` for a month.

    >>> season_name("week", dt.date(2026, 12, 7)), season_name("month", dt.date(2026, 12, 7))
    ('2026-W50', '2026-12')
    """
    if period == "week":
        year, week, _ = day.isocalendar()
        return f"{year}-W{week:02d}"
    return f"{day.year}-{day.month:02d}"


def _standings(
    points: QuerySet[DailyPoints], names: dict[int, str] | None = None, limit: int | None = None
) -> list[dict[str, Any]]:
    """Players by points, most first; equal points share a rank ("1, 2, 2, 4"), then more wins,
    then the name, for a stable order."""
    summed = points.values("player_id").annotate(
        points_sum=Sum("points"), days=Count("id"), wins=Count("id", filter=Q(won=True))
    )
    rows = sorted(summed, key=lambda r: (-r["points_sum"], -r["wins"], r["player_id"]))
    if limit is not None:
        rows = rows[:limit]
    if names is None:
        names = dict(
            Player.objects.filter(pk__in=[r["player_id"] for r in rows]).values_list(
                "pk", "display_name"
            )
        )
    out: list[dict[str, Any]] = []
    for index, r in enumerate(rows):
        rank = out[-1]["rank"] if out and out[-1]["points"] == r["points_sum"] else index + 1
        out.append(
            {
                "rank": rank,
                "player": names.get(r["player_id"], ""),
                "player_id": r["player_id"],
                "points": r["points_sum"],
                "days": r["days"],
                "wins": r["wins"],
            }
        )
    return out


def season_standings(
    *, period: str, day: dt.date, game: str | None = None, limit: int = 50
) -> dict[str, Any]:
    """Everyone's standings in the season (`period`) that holds `day`: the days closed so far
    (a running day counts once it closes)."""
    first, last = season_bounds(period, day)
    points = DailyPoints.objects.filter(date__range=(first, last))
    if game is not None:
        points = points.filter(game=game)
    return {
        "period": period,
        "season": season_name(period, day),
        "first": first.isoformat(),
        "last": last.isoformat(),
        "closed": last < clock.today(),
        "game": game,
        "rows": _standings(points, limit=limit),
    }


def leagues_of(*, player: Player) -> list[League]:
    return list(
        League.objects.filter(memberships__player=player)
        .annotate(members=Count("memberships"))
        .select_related("owner")
        .order_by("name", "pk")
    )


def league_for(*, league_id: int, player: Player) -> League:
    """A league the player is in (404 otherwise, the same answer as for no such league)."""
    if player.pk is None:  # a visitor with no player is in no league
        raise league_not_found()
    league: League | None = (
        League.objects.filter(pk=league_id, memberships__player=player)
        .select_related("owner")
        .first()
    )
    if league is None:
        raise league_not_found()
    return league


def league_by_code(*, code: str) -> League:
    league: League | None = (
        League.objects.filter(invite_code=str(code)[:32])
        .annotate(members=Count("memberships"))
        .select_related("owner")
        .first()
    )
    if league is None:
        raise league_not_found()
    return league


def _today(member_ids: Iterable[int]) -> list[dict[str, Any]]:
    """Today's dailies and each member's result on them that a board shows (held results are
    silent here as on the boards), with who is playing now and how far."""
    dailies = list(DailyChallenge.objects.filter(date=clock.today(), published=True))
    attempts = (
        Attempt.objects.filter(daily__in=dailies, player_id__in=list(member_ids), ranked=True)
        .on_board()
        .only(
            "id",
            "player_id",
            "daily_id",
            "status",
            "move_count",
            "foundation_cards",
            "finished_at",
            "counted_ms",
            "started_at",
            "first_move_at",
            "last_move_at",
        )
    )
    by_daily: dict[int, list[dict[str, Any]]] = {d.pk: [] for d in dailies}
    for attempt in attempts:
        by_daily[attempt.daily_id].append(
            {
                "player_id": attempt.player_id,
                "status": attempt.status,
                "moves": attempt.move_count,
                "foundation_cards": attempt.foundation_cards,
                "seconds": round(attempt.board_seconds()),
            }
        )
    return [
        {"game": d.game, "date": d.date.isoformat(), "results": by_daily[d.pk]}
        for d in sorted(dailies, key=lambda d: d.game)
    ]


def league_page(*, league: League, player: Player) -> dict[str, Any]:
    """What a league's page shows its member `player`: the league, its members, today's
    results for both games, and the standings of this week, this month and all time."""
    members = list(
        Membership.objects.filter(league=league)
        .select_related("player")
        .order_by("joined_at", "pk")
    )
    names = {m.player_id: m.player.display_name for m in members}
    ids = list(names)
    today = clock.today()
    points = DailyPoints.objects.filter(player_id__in=ids)
    standings = {}
    for period in PERIODS:
        first, last = season_bounds(period, today)
        standings[period] = {
            "season": season_name(period, today),
            "first": first.isoformat(),
            "last": last.isoformat(),
            "rows": _standings(points.filter(date__range=(first, last)), names),
        }
    standings["all_time"] = {"rows": _standings(points, names)}
    today_results = _today(ids)
    for day in today_results:
        for result in day["results"]:
            result["player"] = names[result["player_id"]]
    return {
        "id": league.pk,
        "name": league.name,
        "owner": league.owner.display_name,
        "owner_id": league.owner_id,
        "you_own": league.owner_id == player.pk,
        "invite_code": league.invite_code,
        "members": [
            {"player_id": m.player_id, "player": names[m.player_id], "joined_at": m.joined_at}
            for m in members
        ],
        "today": today_results,
        "standings": standings,
    }


def _rank_among(mine: int, others: Iterable[int]) -> int:
    """A total's rank among others' (equal points share a rank, as `_standings` ranks)."""
    return 1 + sum(1 for total in others if total > mine)


def _today_result(daily: DailyChallenge, player: Player) -> dict[str, Any]:
    """The player's ranked result on today's `daily` and the points it gives if its rank on
    the board holds until the day closes (`points.points`, as `daily_points_compute` will)."""
    attempt = (
        Attempt.objects.filter(daily=daily, player=player, ranked=True)
        .only("status", "review", "disqualified")
        .order_by("-pk")
        .first()
    )
    out: dict[str, Any] = {
        "game": daily.game,
        "date": daily.date.isoformat(),
        "status": "not_played",
        "rank": None,
        "players": None,
        "points": None,
    }
    if attempt is None:
        return out
    if attempt.disqualified:
        return {**out, "status": "disqualified"}
    if attempt.review == Attempt.Review.HELD:
        return {**out, "status": "held"}
    row = board_selectors.player_row(daily=daily, player=player)
    if row is None:  # not on the board yet: no move played
        return out
    total = board_selectors.board_total(daily=daily)
    won = row["status"] == Attempt.Status.WON
    return {
        **out,
        "status": row["status"],
        "rank": row["rank"],
        "players": total,
        "points": rules.points(won=won, rank=row["rank"], players=total)
        if row["status"] != Attempt.Status.PLAYING
        else None,
    }


def week_outlook(*, player: Player) -> dict[str, Any]:
    """What today's results do to the player's week: the week's points of the closed days and
    the rank they hold among everyone and in each of the player's leagues, today's results
    with the points each gives if its rank holds, and the week's total with them. Today's
    other players may still move: a rank "with today" is against the closed days of the rest."""
    today = clock.today()
    first, last = season_bounds("week", today)
    closed = DailyPoints.objects.filter(date__range=(first, today - dt.timedelta(days=1)))
    totals = dict(
        closed.values("player_id").annotate(total=Sum("points")).values_list("player_id", "total")
    )
    scored = player.pk in totals  # a closed day scored, if only 0 points
    mine = totals.pop(player.pk, 0)
    days = list(DailyChallenge.objects.filter(date=today, published=True).order_by("game", "pk"))
    results = [_today_result(daily, player) for daily in days]
    with_today = mine + sum(r["points"] or 0 for r in results)
    memberships = Membership.objects.filter(league__memberships__player=player)
    members: dict[int, list[int]] = {}
    for league_id, member_id in memberships.values_list("league_id", "player_id"):
        members.setdefault(league_id, []).append(member_id)
    leagues = []
    for league in League.objects.filter(pk__in=members).order_by("name", "pk"):
        others = [totals.get(m, 0) for m in members[league.pk] if m != player.pk]
        leagues.append(
            {
                "id": league.pk,
                "name": league.name,
                "members": len(members[league.pk]),
                "rank": _rank_among(mine, others),
                "rank_with_today": _rank_among(with_today, others),
            }
        )
    return {
        "season": season_name("week", today),
        "first": first.isoformat(),
        "last": last.isoformat(),
        "points": mine,
        "rank": _rank_among(mine, totals.values()) if scored else None,
        "players": len(totals) + scored,
        "today": results,
        "points_with_today": with_today,
        "rank_with_today": (
            _rank_among(with_today, totals.values()) if scored or with_today else None
        ),
        "leagues": leagues,
    }
