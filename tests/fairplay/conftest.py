"""Fixtures of the fair-play tests: a clock that moves only when told, today's dailies, and
playing a timed game through the real services."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable

import pytest

from benchmarks.fairplay import Recorded
from games import clock, services
from games.models import Attempt, DailyChallenge, Player
from tests.games import factories

START = dt.datetime(2030, 1, 7, 9, 0, tzinfo=dt.UTC)


class FakeClock:
    """The server's clock (`games.clock.now`), set by the test."""

    def __init__(self) -> None:
        self.at = START

    def set(self, when: dt.datetime) -> None:
        self.at = when


@pytest.fixture
def fake_clock(monkeypatch) -> FakeClock:
    fake = FakeClock()
    monkeypatch.setattr(clock, "now", lambda: fake.at)
    return fake


@pytest.fixture
def dailies(db, fake_clock) -> Callable[[str], DailyChallenge]:
    """`dailies(game)`: today's certified daily of that game (one per game)."""
    made: dict[str, DailyChallenge] = {}

    def get(game: str) -> DailyChallenge:
        if game not in made:
            made[game] = factories.daily(game)
        return made[game]

    return get


_names = iter(range(10**6))


@pytest.fixture
def play(fake_clock) -> Callable[..., Attempt]:
    """`play(daily, recorded, player=None, resign=False)`: start the player's ranked attempt
    at the clock's time, then send each move at its recorded time (ms after the start), as
    `attempt_play` or, for a trailing batch at one time that the server can finish, one
    `attempt_finish`; resign at the end if told. Answers the attempt as stored."""

    def go(
        daily: DailyChallenge,
        recorded: Recorded,
        player: Player | None = None,
        *,
        resign: bool = False,
    ) -> Attempt:
        player = player or factories.player(f"p{next(_names)}")
        start = fake_clock.at
        attempt, created = services.attempt_start(player=player, daily=daily)
        assert created and attempt.ranked
        moves, times = recorded.moves, recorded.times
        seq = 0
        while seq < len(moves):
            # A tenth of a ms over, as the server truncates its float seconds to ms.
            fake_clock.set(start + dt.timedelta(milliseconds=times[seq], microseconds=100))
            rest = moves[seq:]
            if len(rest) > 1 and len(set(times[seq:])) == 1 and seq > 0:
                services.attempt_finish(attempt_id=attempt.pk, player=player, seq=seq)
                break
            services.attempt_play(attempt_id=attempt.pk, player=player, seq=seq, move=moves[seq])
            seq += 1
        if resign:
            fake_clock.set(fake_clock.at + dt.timedelta(seconds=3))
            services.attempt_resign(attempt_id=attempt.pk, player=player)
        attempt.refresh_from_db()
        assert attempt.moves == list(moves) and attempt.move_times == list(times)
        fake_clock.set(start)  # the next player starts at the same time
        return attempt

    return go
