"""The Redis index (leaderboards/index.py): kept in step by the signals, rebuilt from the
database when missing or stale, and never needed: without Redis, or with Redis down, boards
come from the database, and everything recovers when Redis is back."""

from __future__ import annotations

import logging
import socket

import pytest

from games import services
from games.models import Attempt
from leaderboards import board, index, ranking, selectors
from tests.games import factories
from tests.leaderboards.helpers import play, result


def closed_port_url() -> str:
    """A Redis URL where nothing listens."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    return f"redis://127.0.0.1:{port}/0"


def stored(conn, daily) -> list[tuple[int, int]]:
    """What the index holds: (attempt id, score), best first."""
    pairs = conn.zrange(index.keys(daily.pk).board, 0, -1, withscores=True)
    return [(ranking.member_attempt_id(m), int(s)) for m, s in pairs]


def truth(daily) -> list[tuple[int, int]]:
    return [
        (e.attempt_id, ranking.score(e))
        for _, e, _ in board.ranked(list(board.board_queryset(daily.pk)))
    ]


@pytest.fixture
def rebuilds(monkeypatch) -> list[int]:
    """The dailies rebuilt during the test."""
    seen: list[int] = []
    real = index.rebuild

    def spy(conn, daily_id):
        seen.append(daily_id)
        return real(conn, daily_id)

    monkeypatch.setattr(index, "rebuild", spy)
    return seen


def test_the_key_names_the_daily(settings) -> None:
    settings.LEADERBOARD_KEY_PREFIX = "p:"
    assert index.keys(7).board == "p:7:board"
    assert len({*index.keys(7).__dict__.values()}) == 5


def test_the_keys_start_with_the_deployments_prefix_by_default(settings) -> None:
    settings.REDIS_KEY_PREFIX = "staging"
    assert index.keys(7).board == "staging:lb:7:board"


def test_one_client_per_process(settings) -> None:
    settings.REDIS_URL = "redis://127.0.0.1:6379/0"
    assert index.client() is index.client()
    settings.REDIS_URL = ""
    assert index.client() is None


@pytest.mark.redis
def test_built_when_missing_then_kept_in_step_by_signals(
    redis_index, today_daily, rebuilds, travel, django_capture_on_commit_callbacks
) -> None:
    result(today_daily, "w", moves=90)
    assert selectors.board_total(daily=today_daily) == 1
    assert rebuilds == [today_daily.pk]
    assert stored(redis_index, today_daily) == truth(today_daily)

    alice = factories.player("alice")
    with django_capture_on_commit_callbacks(execute=True):
        attempt = play(today_daily, alice, today_daily.deal.certificate[:5], travel)
    assert stored(redis_index, today_daily) == truth(today_daily)
    rows = selectors.board_page(daily=today_daily)
    assert [(r["player"], r["moves"]) for r in rows] == [("w", 90), ("alice", 5)]
    with django_capture_on_commit_callbacks(execute=True):
        services.attempt_resign(attempt_id=attempt.pk, player=alice)
    assert selectors.board_page(daily=today_daily)[1]["status"] == "resigned"
    with django_capture_on_commit_callbacks(execute=True):
        services.attempt_disqualify(attempt=attempt, by=None, reason="test")
    assert selectors.board_total(daily=today_daily) == 1
    assert rebuilds == [today_daily.pk]  # the signals kept it: never rebuilt again
    assert stored(redis_index, today_daily) == truth(today_daily)


@pytest.mark.redis
def test_rebuilt_when_stale(redis_index, today_daily, rebuilds) -> None:
    a = result(today_daily, "a", moves=90)
    b = result(today_daily, "b", moves=95)
    assert [r["player"] for r in selectors.board_page(daily=today_daily)] == ["a", "b"]
    # Changes that no signal announced (a lost update): the next read notices and rebuilds.
    Attempt.objects.filter(pk=a.pk).update(move_count=99, next_seq=99)
    assert [r["player"] for r in selectors.board_page(daily=today_daily)] == ["b", "a"]
    Attempt.objects.filter(pk=b.pk).update(disqualified=True)
    assert selectors.board_total(daily=today_daily) == 1
    result(today_daily, "c", status=Attempt.Status.PLAYING, moves=3)
    assert selectors.board_total(daily=today_daily) == 2
    assert rebuilds == [today_daily.pk] * 4
    assert stored(redis_index, today_daily) == truth(today_daily)


@pytest.mark.redis
def test_a_receiver_a_moment_late_causes_no_rebuild(
    redis_index, today_daily, rebuilds, monkeypatch
) -> None:
    a = result(today_daily, "a", moves=90)
    selectors.board_total(daily=today_daily)  # built
    Attempt.objects.filter(pk=a.pk).update(move_count=91, next_seq=91)  # committed...
    waits: list[float] = []

    def receiver_lands(seconds: float) -> None:  # ...and its receiver runs meanwhile
        waits.append(seconds)
        index.attempt_update(attempt_id=a.pk, daily_id=today_daily.pk)

    monkeypatch.setattr(index.time, "sleep", receiver_lands)
    assert selectors.board_page(daily=today_daily)[0]["moves"] == 91
    assert waits == [index.RECHECK_SECONDS]
    assert rebuilds == [today_daily.pk]


@pytest.mark.redis
def test_a_busy_board_is_rebuilt_once_while_its_receivers_keep_up(
    redis_index, today_daily, rebuilds, monkeypatch
) -> None:
    a = result(today_daily, "a", moves=90)
    b = result(today_daily, "b", moves=95)
    selectors.board_total(daily=today_daily)  # built
    moves = iter(range(100, 200))

    def moved(attempt: Attempt, count: int) -> None:
        Attempt.objects.filter(pk=attempt.pk).update(move_count=count, next_seq=count)

    def others_move(seconds: float) -> None:
        # While the reader waits, b's receiver lands; a's move is committed with its receiver
        # still to come, as on a board with hundreds of moves a second.
        moved(b, next(moves))
        index.attempt_update(attempt_id=b.pk, daily_id=today_daily.pk)
        moved(a, next(moves))

    monkeypatch.setattr(index.time, "sleep", others_move)
    moved(a, 91)
    for _ in range(3):
        assert selectors.board_total(daily=today_daily) == 2
    assert rebuilds == [today_daily.pk]  # served as it is: rebuilt a moment ago
    redis_index.delete(index.keys(today_daily.pk).fresh)  # REBUILD_SECONDS later
    selectors.board_total(daily=today_daily)
    assert rebuilds == [today_daily.pk] * 2
    # A difference that stands still is a lost update: rebuilt at once, however fresh.
    monkeypatch.setattr(index.time, "sleep", lambda seconds: None)
    moved(b, 10)
    assert [r["player"] for r in selectors.board_page(daily=today_daily)] == ["b", "a"]
    assert rebuilds == [today_daily.pk] * 3
    assert stored(redis_index, today_daily) == truth(today_daily)


@pytest.mark.redis
def test_a_reader_without_the_lock_reads_the_database(redis_index, today_daily, rebuilds):
    result(today_daily, "a", moves=90)
    redis_index.set(index.keys(today_daily.pk).lock, "someone else", px=5_000)
    rows = selectors.board_page(daily=today_daily)
    assert [(r["rank"], r["player"]) for r in rows] == [(1, "a")]
    assert rebuilds == []
    redis_index.delete(index.keys(today_daily.pk).lock)
    assert selectors.board_page(daily=today_daily) == rows
    assert rebuilds == [today_daily.pk]


@pytest.mark.redis
def test_an_update_of_a_missing_index_leaves_it_missing(redis_index, today_daily) -> None:
    a = result(today_daily, "a")
    assert index.attempt_update(attempt_id=a.pk, daily_id=today_daily.pk)
    assert not redis_index.exists(*index.keys(today_daily.pk).__dict__.values())


def test_without_redis_the_database_serves(no_redis, today_daily, caplog) -> None:
    result(today_daily, "a", moves=90)
    alice = factories.player("alice")
    result(today_daily, "alice", moves=91, player=alice)
    with caplog.at_level(logging.WARNING, logger="leaderboards"):
        assert [r["rank"] for r in selectors.board_page(daily=today_daily)] == [1, 2]
        assert selectors.player_row(daily=today_daily, player=alice)["rank"] == 2
        assert index.attempt_update(attempt_id=1, daily_id=today_daily.pk) is False
    assert caplog.records == []  # no Redis is no trouble: nothing to warn about


@pytest.mark.redis
def test_redis_down_serves_the_database_warns_once_and_recovers(
    settings, redis_index, today_daily, caplog, monkeypatch
) -> None:
    real_url = settings.REDIS_URL
    result(today_daily, "a", moves=90)
    alice = factories.player("alice")
    result(today_daily, "alice", moves=91, player=alice)
    expected = selectors.board_page(daily=today_daily)

    settings.REDIS_URL = closed_port_url()
    monkeypatch.setattr(index, "RETRY_SECONDS", 0.0)  # try Redis on every call
    with caplog.at_level(logging.WARNING, logger="leaderboards"):
        for _ in range(3):
            assert selectors.board_page(daily=today_daily) == expected
            assert selectors.board_total(daily=today_daily) == 2
            assert selectors.player_row(daily=today_daily, player=alice)["rank"] == 2
            assert [r["player"] for r in selectors.board_around(daily=today_daily, player=alice)]
        result(today_daily, "b", moves=10)  # its update is lost with Redis away
    warnings = [r for r in caplog.records if r.name == "leaderboards.index"]
    assert len(warnings) == 1 and "served from the database" in warnings[0].getMessage()

    settings.REDIS_URL = real_url  # Redis is back: the stale index is rebuilt and used
    rows = selectors.board_page(daily=today_daily)
    assert [r["player"] for r in rows] == ["b", "a", "alice"]
    assert stored(redis_index, today_daily) == truth(today_daily)


@pytest.mark.redis
def test_an_error_in_the_middle_of_a_read_falls_back(redis_index, today_daily, monkeypatch):
    result(today_daily, "a", moves=90)
    selectors.board_total(daily=today_daily)  # built

    def broken(*args, **kwargs):
        raise index.redis.exceptions.ConnectionError("gone")

    monkeypatch.setattr(type(redis_index), "zrange", broken)
    monkeypatch.setattr(type(redis_index), "zcard", broken)
    assert [r["player"] for r in selectors.board_page(daily=today_daily)] == ["a"]
    assert index._health.down_until  # Redis is left alone for a few seconds
    assert selectors.board_total(daily=today_daily) == 1
