"""Helpers of the leaderboards tests: results with exact numbers, and real wins."""

from __future__ import annotations

import datetime as dt

from games import clock, services
from games.models import Attempt, DailyChallenge, Player
from tests.games import factories

NOON = dt.datetime(2026, 12, 1, 12, 0, tzinfo=dt.UTC)

_names = iter(range(10**6))


def result(
    daily: DailyChallenge,
    name: str | None = None,
    *,
    status: str = Attempt.Status.WON,
    moves: int = 100,
    seconds: float = 300,
    cards: int | None = None,
    finished_at: dt.datetime | None = None,
    verified: bool = True,
    ranked: bool = True,
    disqualified: bool = False,
    player: Player | None = None,
) -> Attempt:
    """A ranked attempt started for real, then given exact numbers: `moves` moves over
    `seconds` seconds from its first move to its last, which is `finished_at` (default: half
    an hour ago) and, unless still playing, its finish."""
    player = player or factories.player(name or f"p{next(_names)}")
    attempt, _ = services.attempt_start(player=player, daily=daily)
    last = finished_at or clock.now() - dt.timedelta(minutes=30)
    first = last - dt.timedelta(seconds=seconds)
    won = status == Attempt.Status.WON
    finished = None if status == Attempt.Status.PLAYING else last
    Attempt.objects.filter(pk=attempt.pk).update(
        status=status,
        move_count=moves,
        next_seq=moves,
        foundation_cards=52 if won and cards is None else (cards if cards is not None else 10),
        first_move_at=first if moves else None,
        last_move_at=last if moves else None,
        finished_at=finished,
        verified=verified and status != Attempt.Status.PLAYING,
        ranked=ranked,
        disqualified=disqualified,
    )
    attempt.refresh_from_db()
    return attempt


def play_to_win(daily: DailyChallenge, player: Player) -> Attempt:
    """Start the player's attempt and play the daily's certificate: a real, verified win."""
    attempt, _ = services.attempt_start(player=player, daily=daily)
    for seq, move in enumerate(daily.deal.certificate):
        services.attempt_play(attempt_id=attempt.pk, player=player, seq=seq, move=move)
    attempt.refresh_from_db()
    assert attempt.status == Attempt.Status.WON and attempt.verified
    return attempt
