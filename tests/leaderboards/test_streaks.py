"""Streaks and statistics: consecutive UTC days with a verified ranked win, per game and across
both, by the server's dates, across midnight; a player's record and the all-time board."""

from __future__ import annotations

import datetime as dt

import pytest

from games.models import Attempt
from leaderboards import selectors, streaks
from tests.games import factories
from tests.leaderboards.helpers import result

DEC1 = dt.date(2026, 12, 1)


def at(day: dt.date, hour: int = 12, minute: int = 0, second: int = 0) -> dt.datetime:
    return dt.datetime(day.year, day.month, day.day, hour, minute, second, tzinfo=dt.UTC)


@pytest.fixture
def win_on(travel, db):
    """`win_on(player, day, game)`: a ranked verified win of that day's daily, played on it."""
    dailies: dict = {}

    def go(player, day: dt.date, game: str = "masterpiece", **kwargs) -> Attempt:
        travel(at(day))
        daily = dailies.get((game, day)) or factories.daily(game, day)
        dailies[(game, day)] = daily
        return result(daily, player=player, **kwargs)

    return go


def current(player, game=None) -> tuple[int, int]:
    s = streaks.player_streak(player=player, game=game)
    return s.current, s.best


def test_streak_across_midnight(win_on, travel) -> None:
    alice = factories.player("alice")
    for day in (DEC1 - dt.timedelta(days=1), DEC1):
        win_on(alice, day)
    travel(at(DEC1, 23, 59, 59))
    assert current(alice) == (2, 2)
    travel(at(DEC1 + dt.timedelta(days=1), 0, 0, 0))
    assert current(alice) == (2, 2)  # today is not over: yesterday's streak lives
    travel(at(DEC1 + dt.timedelta(days=1), 23, 59, 59))
    assert current(alice) == (2, 2)
    travel(at(DEC1 + dt.timedelta(days=2), 0, 0, 0))
    assert current(alice) == (0, 2)  # a whole day without a win


def test_a_streak_up_to_yesterday_ends_at_midnight(win_on, travel) -> None:
    alice = factories.player("alice")
    for back in (3, 2, 1):
        win_on(alice, DEC1 - dt.timedelta(days=back))
    travel(at(DEC1, 23, 59, 59))
    assert current(alice) == (3, 3)
    travel(at(DEC1 + dt.timedelta(days=1)))
    assert current(alice) == (0, 3)


def test_a_gap_breaks_it_and_best_remembers(win_on, travel) -> None:
    alice = factories.player("alice")
    for back in (9, 8, 7, 2, 1, 0):
        if back != 2:
            win_on(alice, DEC1 - dt.timedelta(days=back))
    travel(at(DEC1))
    assert current(alice) == (2, 3)


def test_per_game_and_across_both_games(win_on, travel) -> None:
    alice = factories.player("alice")
    win_on(alice, DEC1 - dt.timedelta(days=2), "masterpiece")
    win_on(alice, DEC1 - dt.timedelta(days=1), "munger")
    win_on(alice, DEC1, "masterpiece")
    win_on(alice, DEC1, "munger")
    travel(at(DEC1, 23, 59, 59))
    assert current(alice) == (3, 3)
    assert current(alice, "munger") == (2, 2)
    assert current(alice, "masterpiece") == (1, 1)


def test_only_verified_ranked_wins_count(win_on, travel) -> None:
    alice = factories.player("alice")
    win_on(alice, DEC1 - dt.timedelta(days=3))
    win_on(alice, DEC1 - dt.timedelta(days=2), status=Attempt.Status.RESIGNED)
    win_on(alice, DEC1 - dt.timedelta(days=1), disqualified=True)
    win_on(alice, DEC1, verified=False)
    win_on(alice, DEC1, "munger", ranked=False)
    travel(at(DEC1))
    assert current(alice) == (0, 1)


def test_a_players_record(win_on, travel) -> None:
    alice = factories.player("alice")
    first = win_on(alice, DEC1 - dt.timedelta(days=14), moves=90)
    second = win_on(alice, DEC1 - dt.timedelta(days=1), moves=95)
    win_on(alice, DEC1, "munger", status=Attempt.Status.RESIGNED, moves=30)
    win_on(alice, DEC1, moves=0, status=Attempt.Status.PLAYING)  # opened only: not played
    travel(at(DEC1))
    pars = first.daily.deal.par, second.daily.deal.par
    stats = selectors.player_stats(player=alice)
    assert (stats["played"], stats["won"], stats["win_rate"]) == (3, 2, 0.6667)
    assert (stats["current_streak"], stats["best_streak"]) == (1, 1)
    assert stats["last_win"] == "2026-11-30"
    assert stats["avg_moves_over_par"] == round((90 - pars[0] + 95 - pars[1]) / 2, 2)
    assert stats["moves_distribution"] == [{"from": 90, "to": 99, "count": 2}]
    weeks = stats["weekly_wins"]
    assert len(weeks) == 12 and weeks[0]["week"] == "2026-09-14"  # Mondays, oldest first
    assert weeks[-3:] == [
        {"week": "2026-11-16", "wins": 1},
        {"week": "2026-11-23", "wins": 0},
        {"week": "2026-11-30", "wins": 1},
    ]
    munger = selectors.player_stats(player=alice, game="munger")
    assert (munger["played"], munger["won"], munger["win_rate"]) == (1, 0, 0.0)


def test_the_all_time_board(win_on, travel) -> None:
    alice, bob, carol, dan = (factories.player(n) for n in ("alice", "bob", "carol", "dan"))
    yesterday = DEC1 - dt.timedelta(days=1)
    par = win_on(alice, yesterday, moves=100).daily.deal.par
    win_on(bob, yesterday, moves=par + 5)
    win_on(carol, yesterday, moves=par + 5)
    today_par = win_on(dan, DEC1, moves=1).daily.deal.par
    Attempt.objects.filter(player=dan).update(move_count=today_par + 1, next_seq=today_par + 1)
    win_on(alice, DEC1, moves=today_par + 50)
    travel(at(DEC1))
    rows = selectors.all_time_board()
    assert [(r["rank"], r["player"], r["wins"]) for r in rows] == [
        (1, "alice", 2),
        (2, "bob", 1),
        (2, "carol", 1),
        (4, "dan", 1),  # today's win: no average over par while today is played
    ]
    assert rows[0]["avg_moves_over_par"] == 100 - par  # today's win is left out of it
    assert (rows[0]["current_streak"], rows[0]["best_streak"]) == (2, 2)
    assert rows[3]["avg_moves_over_par"] is None
    assert len(selectors.all_time_board(limit=2)) == 2
    travel(at(DEC1 + dt.timedelta(days=1)))  # today is over: its pars count
    rows = selectors.all_time_board()
    assert [r["player"] for r in rows] == ["alice", "dan", "bob", "carol"]
    assert rows[1]["avg_moves_over_par"] == 1.0
