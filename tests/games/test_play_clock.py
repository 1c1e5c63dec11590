"""The clock that ranks: measured by the server from the stored move times, each pause (from
the deal shown to the first move, between two moves, from the last move on) counted up to
`Attempt.MAX_PAUSE_MS`, so time away from the game adds at most that much."""

from __future__ import annotations

import datetime as dt

import pytest

from games import services
from games.api.serializers import render_state
from games.models import Attempt, counted_ms
from games.state import attempt_state
from leaderboards import board
from tests.games import factories

pytestmark = pytest.mark.django_db

START = dt.datetime(2026, 12, 2, 9, 0, tzinfo=dt.UTC)
CAP = Attempt.MAX_PAUSE_MS / 1000


def test_counted_ms_caps_each_gap() -> None:
    assert counted_ms([]) == 0
    assert counted_ms([3_000]) == 3_000
    assert counted_ms([90_000, 91_000]) == Attempt.MAX_PAUSE_MS + 1_000
    assert counted_ms([1_000, 7_201_000, 7_206_000]) == 1_000 + Attempt.MAX_PAUSE_MS + 5_000


@pytest.fixture
def playing(alice, travel):
    """Alice's ranked attempt at today's daily, with a hand to play its certificate's moves
    at given instants."""
    travel(START)
    daily = factories.daily(date=START.date())
    attempt, _ = services.attempt_start(player=alice, daily=daily)
    line = iter(daily.deal.certificate)

    def move_at(when: dt.datetime, token: str | None = None) -> Attempt:
        travel(when)
        attempt.refresh_from_db()
        services.attempt_play(
            attempt_id=attempt.pk, player=alice, seq=attempt.next_seq, move=token or next(line)
        )
        attempt.refresh_from_db()
        return attempt

    return attempt, move_at


def test_a_pause_away_counts_at_most_the_cap(playing, travel) -> None:
    attempt, move_at = playing
    move_at(START + dt.timedelta(seconds=10))
    move_at(START + dt.timedelta(hours=2, seconds=10))  # the browser was closed for two hours
    attempt = move_at(START + dt.timedelta(hours=2, seconds=15))
    assert attempt.counted_ms == (10 + CAP + 5) * 1000
    assert attempt.board_seconds() == 10 + CAP + 5
    travel(START + dt.timedelta(hours=2, seconds=45))
    assert attempt.play_seconds() == 10 + CAP + 5 + 30
    assert attempt.clock_left_seconds() == CAP - 30
    travel(START + dt.timedelta(hours=5))
    assert attempt.play_seconds() == 10 + CAP + 5 + CAP
    assert attempt.clock_left_seconds() == 0
    # The board does not move while nobody plays.
    assert board.entry_of(attempt).seconds == 10 + CAP + 5


def test_the_first_pause_counts_from_the_deal_shown(playing, travel) -> None:
    attempt, move_at = playing
    travel(START + dt.timedelta(seconds=20))
    state = render_state(attempt_state(attempt))
    assert (state["elapsed_seconds"], state["clock_left_seconds"]) == (20, CAP - 20)
    assert state["max_pause_seconds"] == CAP
    attempt = move_at(START + dt.timedelta(minutes=30))
    assert attempt.play_seconds() == CAP


def test_a_resignation_counts_the_pause_before_it_capped(playing, alice, travel) -> None:
    attempt, move_at = playing
    move_at(START + dt.timedelta(seconds=4))
    travel(START + dt.timedelta(hours=1))
    services.attempt_resign(attempt_id=attempt.pk, player=alice)
    attempt.refresh_from_db()
    assert attempt.play_seconds() == 4 + CAP
    travel(START + dt.timedelta(hours=3))
    assert attempt.play_seconds() == 4 + CAP  # over: the clock stopped
    assert render_state(attempt_state(attempt))["clock_left_seconds"] == 0


def test_undos_are_counted_in_the_state_and_the_board_row(playing) -> None:
    attempt, move_at = playing
    move_at(START + dt.timedelta(seconds=3))
    attempt = move_at(START + dt.timedelta(seconds=5), "U")
    assert attempt.undo_count == 1 and attempt.move_count == 2
    assert render_state(attempt_state(attempt))["undos"] == 1
    assert board.row(1, attempt)["undos"] == 1


def test_the_migration_fills_the_counts_of_attempts_played_before(playing) -> None:
    import importlib

    from django.apps import apps

    attempt, move_at = playing
    move_at(START + dt.timedelta(seconds=2))
    move_at(START + dt.timedelta(minutes=10), "U")
    Attempt.objects.filter(pk=attempt.pk).update(counted_ms=None, undo_count=None)
    importlib.import_module("games.migrations.0013_attempt_counted_ms_undo_count").fill(apps, None)
    attempt.refresh_from_db()
    assert (attempt.counted_ms, attempt.undo_count) == ((2 + CAP) * 1000, 1)


def test_a_ranked_game_whose_day_is_over_keeps_the_time_of_its_last_move(playing, travel):
    attempt, move_at = playing
    attempt = move_at(START + dt.timedelta(seconds=7))
    travel(attempt.daily.ranked_until + dt.timedelta(minutes=1))
    state = render_state(attempt_state(attempt))
    assert state["day_over"]
    assert (state["elapsed_seconds"], state["clock_left_seconds"]) == (7, 0)
