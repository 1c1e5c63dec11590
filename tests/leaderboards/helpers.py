"""Helpers of the leaderboards tests: results with exact numbers, and real wins."""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Callable

from games import clock, services
from games.models import Attempt, DailyChallenge, Player
from tests.fairplay.lines import own_line
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
    an hour ago) and, unless still playing, its finish; `seconds` is also its counted time."""
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
        counted_ms=round(seconds * 1000) if moves else None,
        undo_count=0 if moves else None,
        finished_at=finished,
        verified=verified and status != Attempt.Status.PLAYING,
        ranked=ranked,
        disqualified=disqualified,
    )
    attempt.refresh_from_db()
    return attempt


def human_gaps(count: int, seed: int = 0) -> list[float]:
    """Seconds before each of `count` moves, as a person plays: a look at the deal first, then
    uneven pauses (so that fair-play checks see a person, not a machine)."""
    rng = random.Random(seed)
    return [8.0] + [rng.uniform(1.5, 7.0) for _ in range(count - 1)]


def play(
    daily: DailyChallenge,
    player: Player,
    moves: list[str],
    travel: Callable[[dt.datetime], None],
    *,
    seed: int = 0,
) -> Attempt:
    """Start the player's attempt and play `moves` through the services, the clock moving on
    between moves like a person's."""
    attempt, _ = services.attempt_start(player=player, daily=daily)
    now = clock.now()
    for seq, (move, gap) in enumerate(zip(moves, human_gaps(len(moves), seed), strict=True)):
        now += dt.timedelta(seconds=gap)
        travel(now)
        services.attempt_play(attempt_id=attempt.pk, player=player, seq=seq, move=move)
    attempt.refresh_from_db()
    return attempt


def play_to_win(
    daily: DailyChallenge, player: Player, travel: Callable[[dt.datetime], None], *, seed: int = 0
) -> Attempt:
    """Play a winning line of a person's (the solver's moves in another order, with detours
    kept: a line as short as the par is held as a solver's): a real, verified win."""
    line = own_line(daily)
    attempt = play(daily, player, line, travel, seed=seed)
    assert attempt.status == Attempt.Status.WON and attempt.verified
    return attempt
