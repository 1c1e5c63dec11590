"""A daily's board through the selectors, from the database and from the Redis index alike:
which attempts count, ranks and ties, pages, your row, the feed and the day's histogram."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db.models import Q

from games import clock, services
from games.models import Attempt, q_holds
from leaderboards import selectors
from tests.games import factories
from tests.leaderboards.helpers import NOON, play_to_win, result


@pytest.fixture(params=["database", pytest.param("redis", marks=pytest.mark.redis)])
def backend(request):
    """Each board test runs against the database alone and against the Redis index."""
    if request.param == "database":
        request.getfixturevalue("no_redis")
    else:
        request.getfixturevalue("redis_index")
    return request.param


def summary(rows: list[dict]) -> list[tuple]:
    return [(row["rank"], row["player"]) for row in rows]


def test_a_newcomer_is_on_the_board_from_the_first_move_not_before(
    backend, today_daily, django_capture_on_commit_callbacks
) -> None:
    alice = factories.player("alice")
    with django_capture_on_commit_callbacks(execute=True):
        attempt, _ = services.attempt_start(player=alice, daily=today_daily)
    assert selectors.board_page(daily=today_daily) == []
    assert selectors.board_total(daily=today_daily) == 0
    assert selectors.player_row(daily=today_daily, player=alice) is None
    with django_capture_on_commit_callbacks(execute=True):
        services.attempt_play(
            attempt_id=attempt.pk, player=alice, seq=0, move=today_daily.deal.certificate[0]
        )
    assert summary(selectors.board_page(daily=today_daily)) == [(1, "alice")]
    assert selectors.board_total(daily=today_daily) == 1


def test_only_ranked_standing_attempts_count(backend, today_daily) -> None:
    result(today_daily, "winner")
    result(today_daily, "playing", status=Attempt.Status.PLAYING, moves=5, cards=8)
    result(today_daily, "resigned", status=Attempt.Status.RESIGNED, moves=5, cards=9)
    result(today_daily, "cheat", disqualified=True)
    result(today_daily, "unverified", verified=False)
    result(today_daily, "unverified-resign", status=Attempt.Status.RESIGNED, verified=False)
    result(today_daily, "practice", ranked=False)
    other_day = factories.daily("masterpiece", today_daily.date - dt.timedelta(days=1))
    result(other_day, "yesterday")
    rows = selectors.board_page(daily=today_daily)
    assert summary(rows) == [(1, "winner"), (2, "resigned"), (3, "playing")]
    assert selectors.board_total(daily=today_daily) == 3


def test_a_real_win_tops_the_board(
    backend, today_daily, travel, django_capture_on_commit_callbacks
) -> None:
    result(today_daily, "playing", status=Attempt.Status.PLAYING, moves=50, cards=40)
    alice = factories.player("alice")
    with django_capture_on_commit_callbacks(execute=True):
        attempt = play_to_win(today_daily, alice, travel)
    rows = selectors.board_page(daily=today_daily)
    assert rows[0] == {
        "rank": 1,
        "player": "alice",
        "attempt_id": attempt.pk,
        "status": "won",
        "left": False,
        "moves": attempt.move_count,
        "undos": 0,
        "seconds": int(attempt.play_seconds()),
        "foundation_cards": 52,
        "finished_at": attempt.finished_at.isoformat().replace("+00:00", "Z"),
    }
    assert rows[0]["seconds"] > 60  # measured by the server, deal shown to finish
    assert summary(rows) == [(1, "alice"), (2, "playing")]


def test_moves_then_time_then_finish(backend, today_daily) -> None:
    first = NOON - dt.timedelta(minutes=30)
    result(today_daily, "slow", moves=100, seconds=400, finished_at=first)
    result(today_daily, "long", moves=101, seconds=10, finished_at=first)
    result(today_daily, "late", moves=100, seconds=300, finished_at=first + dt.timedelta(1))
    result(today_daily, "early", moves=100, seconds=300, finished_at=first)
    rows = selectors.board_page(daily=today_daily)
    assert summary(rows) == [(1, "early"), (1, "late"), (3, "slow"), (4, "long")]


def test_ties_1_2_2_4_in_pages_your_row_and_around(backend, today_daily) -> None:
    alice = factories.player("alice")
    result(today_daily, "a", moves=80)
    result(today_daily, "b", moves=90, finished_at=NOON - dt.timedelta(minutes=5))
    result(today_daily, "alice", moves=90, player=alice, finished_at=NOON)
    result(today_daily, "d", moves=95)
    for n in range(4):
        result(today_daily, f"u{n}", status=Attempt.Status.PLAYING, moves=10 + n, cards=20)
    assert summary(selectors.board_page(daily=today_daily, limit=4)) == [
        (1, "a"),
        (2, "b"),
        (2, "alice"),
        (4, "d"),
    ]
    # A page that starts inside a tie keeps the tie's rank.
    assert summary(selectors.board_page(daily=today_daily, limit=2, offset=2)) == [
        (2, "alice"),
        (4, "d"),
    ]
    assert summary(selectors.board_page(daily=today_daily, limit=3, offset=6)) == [
        (7, "u2"),
        (8, "u3"),
    ]
    assert selectors.board_page(daily=today_daily, offset=50) == []
    mine = selectors.player_row(daily=today_daily, player=alice)
    assert (mine["rank"], mine["moves"], mine["player"]) == (2, 90, "alice")
    around = selectors.board_around(daily=today_daily, player=alice, radius=2)
    assert summary(around) == [(1, "a"), (2, "b"), (2, "alice"), (4, "d"), (5, "u0")]
    bob = factories.player("bob")
    assert selectors.player_row(daily=today_daily, player=bob) is None
    assert selectors.board_around(daily=today_daily, player=bob) == []
    assert selectors.player_row(daily=today_daily, player=None) is None


def test_playing_rows_rank_below_wins_and_an_opened_deal_has_none(backend, today_daily) -> None:
    alice = factories.player("alice")
    services.attempt_start(player=alice, daily=today_daily)  # opened, no move yet
    result(today_daily, "p", status=Attempt.Status.PLAYING, moves=1, cards=50)
    result(today_daily, "w", moves=300)
    rows = selectors.board_page(daily=today_daily)
    assert [(r["player"], r["status"], r["moves"]) for r in rows] == [
        ("w", "won", 300),
        ("p", "playing", 1),
    ]


def test_playing_now_and_the_race_feed(backend, today_daily, travel) -> None:
    result(today_daily, "won")
    recent = result(today_daily, "recent", status=Attempt.Status.PLAYING, moves=12, cards=15)
    old = result(today_daily, "old", status=Attempt.Status.PLAYING, moves=7, cards=9)
    result(today_daily, "opened", status=Attempt.Status.PLAYING, moves=0, cards=4)
    result(today_daily, "cheat", status=Attempt.Status.PLAYING, moves=3, disqualified=True)
    Attempt.objects.filter(pk=recent.pk).update(last_move_at=NOON - dt.timedelta(minutes=9))
    Attempt.objects.filter(pk=old.pk).update(last_move_at=NOON - dt.timedelta(minutes=11))
    assert selectors.playing_now(daily=today_daily) == 1
    feed = selectors.race_feed(daily=today_daily, limit=2)
    assert feed == [
        {"player": "recent", "moves": 12, "undos": 0, "foundation_cards": 15, "status": "playing"},
        {"player": "old", "moves": 7, "undos": 0, "foundation_cards": 9, "status": "playing"},
    ]
    assert len(selectors.race_feed(daily=today_daily)) == 3
    travel(NOON + dt.timedelta(minutes=2))
    assert selectors.playing_now(daily=today_daily) == 0


def test_a_game_with_no_move_for_ten_minutes_is_left_until_its_next_move(
    backend, today_daily, travel
) -> None:
    """A player who stops moving is counted as playing now for ten minutes, then no more, and
    their row says they left (the board page's "Left" instead of "In progress"); a move brings
    them back. Finished games are never left."""
    result(today_daily, "winner")
    quitter = result(
        today_daily, "quitter", status=Attempt.Status.PLAYING, moves=12, finished_at=NOON
    )

    def left() -> dict[str, bool]:
        rows = selectors.board_page(daily=today_daily)
        assert rows == selectors.live_board(daily=today_daily, limit=5)["board"]["top"]
        return {row["player"]: row["left"] for row in rows}

    travel(NOON + dt.timedelta(minutes=10))
    assert left() == {"winner": False, "quitter": False}
    assert selectors.playing_now(daily=today_daily) == 1
    travel(NOON + dt.timedelta(minutes=10, seconds=1))
    assert left() == {"winner": False, "quitter": True}
    assert selectors.playing_now(daily=today_daily) == 0
    assert selectors.player_row(daily=today_daily, player=quitter.player)["left"] is True
    travel(NOON + dt.timedelta(hours=9))
    assert left() == {"winner": False, "quitter": True}
    Attempt.objects.filter(pk=quitter.pk).update(last_move_at=clock.now())
    assert left() == {"winner": False, "quitter": False}
    assert selectors.playing_now(daily=today_daily) == 1


def test_day_distribution_and_when_par_shows(today_daily, travel) -> None:
    for moves in (61, 65, 79, 83):
        result(today_daily, moves=moves)
    result(today_daily, "quitter", status=Attempt.Status.RESIGNED, moves=40)
    result(today_daily, "cheat", moves=10, disqualified=True)
    alice = factories.player("alice")
    alice_attempt = result(today_daily, "alice", status=Attempt.Status.PLAYING, player=alice)
    day = selectors.day_distribution(daily=today_daily, player=alice)
    assert day == {
        "buckets": [
            {"from": 60, "to": 69, "count": 2},
            {"from": 70, "to": 79, "count": 1},
            {"from": 80, "to": 89, "count": 1},
        ],
        "wins": 4,
        "par": None,  # alice is still playing today
    }
    assert selectors.day_distribution(daily=today_daily)["par"] is None
    Attempt.objects.filter(pk=alice_attempt.pk).update(
        status=Attempt.Status.RESIGNED, finished_at=clock.now(), verified=True
    )
    par = today_daily.deal.par
    assert selectors.day_distribution(daily=today_daily, player=alice)["par"] == par
    travel(NOON + dt.timedelta(days=1))
    assert selectors.day_distribution(daily=today_daily)["par"] == par


def test_on_board_reads_the_same_in_python_as_in_the_database(today_daily):
    """`Attempt.is_on_board` (used when an index is updated from a committed attempt) and
    `AttemptQuerySet.on_board` are one rule: they agree on every combination of what it reads."""
    attempt, _ = services.attempt_start(player=factories.player("alice"), daily=today_daily)
    combinations = [
        dict(ranked=r, disqualified=d, review=rv, status=st, verified=v, move_count=n, next_seq=n)
        for n in (0, 1)
        for r in (True, False)
        for d in (False, True)
        for rv in Attempt.Review.values
        for st in Attempt.Status.values
        for v in (True, False)
    ]
    for fields in combinations:
        Attempt.objects.filter(pk=attempt.pk).update(**fields)
        loaded = Attempt.objects.get(pk=attempt.pk)
        in_database = Attempt.objects.on_board().filter(pk=attempt.pk).exists()
        assert loaded.is_on_board == in_database, fields
    assert {True, False} <= {Attempt(**fields).is_on_board for fields in combinations}, (
        "both answers occur"
    )


@pytest.mark.parametrize(
    "q", [Q(move_count__gte=0), Q(ranked=True) ^ Q(verified=True)], ids=["lookup", "xor"]
)
def test_a_rule_python_cannot_read_is_refused_not_guessed(q):
    with pytest.raises(ValueError):
        q_holds(q, Attempt(move_count=1, ranked=True))
