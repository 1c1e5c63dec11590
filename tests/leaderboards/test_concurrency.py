"""Many players finishing at once on PostgreSQL: every move commits in its own transaction
from its own thread, the receivers update the index concurrently, and the board stays
consistent: the index holds exactly what the database ranks, without a rebuild."""

from __future__ import annotations

import datetime as dt
import threading

import pytest
from django.db import connection

from games import clock, services
from leaderboards import board, index, ranking, selectors
from tests.fairplay.lines import own_line
from tests.games import factories
from tests.leaderboards.helpers import human_gaps

PLAYERS = 12


_thread_clock = threading.local()


@pytest.fixture
def clock_per_thread(monkeypatch):
    """Each thread may keep a clock of its own (`_thread_clock.now`), so that every player
    plays at a person's pace while all of them play at once; others see the real clock."""
    real = clock.now
    monkeypatch.setattr(clock, "now", lambda: getattr(_thread_clock, "now", None) or real())


def play(daily, player, n: int, barrier: threading.Barrier, errors: list) -> None:
    """Play a winning line of a person's (the solver's moves in another order, with detours
    kept: a line as short as the par is held as a solver's), with n % 3 extra move-and-undo
    pairs (each counts as a move).
    Each move gives its database connection back to the pool, as a request does when it ends:
    the threads outnumber the pool's connections."""
    try:
        _thread_clock.now = clock.now()
        attempt, _ = services.attempt_start(player=player, daily=daily)
        connection.close()
        barrier.wait(timeout=60)
        own = own_line(daily)
        line = [own[0], *(["U", own[0]] * (n % 3)), *own[1:]]
        for seq, (move, gap) in enumerate(zip(line, human_gaps(len(line), n), strict=True)):
            _thread_clock.now += dt.timedelta(seconds=gap)
            services.attempt_play(attempt_id=attempt.pk, player=player, seq=seq, move=move)
            connection.close()
    except BaseException as exc:  # reported by the main thread
        errors.append(exc)
    finally:
        connection.close()
        _thread_clock.now = None


@pytest.fixture(params=["database", pytest.param("redis", marks=pytest.mark.redis)])
def backend(request):
    if request.param == "database":
        request.getfixturevalue("no_redis")
    else:
        request.getfixturevalue("redis_index")
    return request.param


@pytest.mark.postgres
@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_many_players_finishing_at_once_keep_the_board_consistent(
    backend, clock_per_thread, monkeypatch
) -> None:
    rebuilt: list[int] = []
    real_rebuild = index.rebuild
    monkeypatch.setattr(
        index,
        "rebuild",
        lambda conn, daily_id: rebuilt.append(daily_id) or real_rebuild(conn, daily_id),
    )
    daily = factories.daily("masterpiece")
    players = [factories.player(f"racer {n}") for n in range(PLAYERS)]
    assert selectors.board_total(daily=daily) == 0  # the index exists before the race
    barrier = threading.Barrier(PLAYERS)
    errors: list[BaseException] = []
    threads = [
        threading.Thread(target=play, args=(daily, player, n, barrier, errors))
        for n, player in enumerate(players)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=300)
    assert not errors, errors[0]

    rows = selectors.board_page(daily=daily, limit=100)
    assert len(rows) == selectors.board_total(daily=daily) == PLAYERS
    assert {row["status"] for row in rows} == {"won"}
    expected = [
        (rank, e.attempt_id) for rank, e, _ in board.ranked(list(board.board_queryset(daily.pk)))
    ]
    assert [(row["rank"], row["attempt_id"]) for row in rows] == expected
    line = len(own_line(daily))
    assert sorted({row["moves"] for row in rows}) == [line, line + 2, line + 4]
    # Ranks are competition ranks of (moves, seconds).
    for before, after in zip(rows, rows[1:], strict=False):
        same = (before["moves"], before["seconds"]) == (after["moves"], after["seconds"])
        assert after["rank"] == (before["rank"] if same else rows.index(after) + 1)
    if backend == "redis":
        conn = index.client()
        assert index._stored_fingerprint(conn, daily.pk) == board.fingerprint(daily.pk)
        assert rebuilt == [daily.pk]  # built once before the race; the signals kept it
        pairs = conn.zrange(index.keys(daily.pk).board, 0, -1)
        assert [ranking.member_attempt_id(m) for m in pairs] == [a for _, a in expected]
