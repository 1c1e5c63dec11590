"""The ranking rules (leaderboards/ranking.py): one test per rule, ties, and the Redis score
that must order exactly like Python."""

from __future__ import annotations

import doctest

import pytest
from hypothesis import given
from hypothesis import strategies as st

from leaderboards import board, ranking, selectors, streaks
from leaderboards.ranking import Entry


def python_order(entries: list[Entry]) -> list[int]:
    return [e.attempt_id for e in sorted(entries, key=ranking.order_key)]


def redis_order(entries: list[Entry]) -> list[int]:
    """How a sorted set orders them: by score, then by member bytes."""
    pairs = sorted((ranking.score(e), ranking.member(e).encode()) for e in entries)
    return [ranking.member_attempt_id(m) for _, m in pairs]


def ranks(entries: list[Entry]) -> dict[int, int]:
    return {e.attempt_id: rank for rank, e in ranking.competition_ranks(entries)}


def both_orders(entries: list[Entry]) -> list[int]:
    order = python_order(entries)
    assert redis_order(entries) == order
    return order


def test_wins_rank_above_everything_else() -> None:
    slow_win = Entry(1, True, moves=900, seconds=9000, foundation_cards=52, finished_ms=9)
    best_playing = Entry(2, False, moves=10, seconds=5, foundation_cards=51)
    resigned = Entry(3, False, moves=5, seconds=1, foundation_cards=51, finished_ms=1)
    assert both_orders([best_playing, resigned, slow_win])[0] == 1


def test_fewer_moves_first_an_undo_being_a_move() -> None:
    more = Entry(1, True, moves=101, seconds=10, foundation_cards=52, finished_ms=1)
    fewer = Entry(2, True, moves=100, seconds=999, foundation_cards=52, finished_ms=2)
    assert both_orders([more, fewer]) == [2, 1]
    assert ranks([more, fewer]) == {2: 1, 1: 2}


def test_then_less_time_in_whole_seconds() -> None:
    slower = Entry(1, True, 100, seconds=301, foundation_cards=52, finished_ms=1)
    faster = Entry(2, True, 100, seconds=300, foundation_cards=52, finished_ms=2)
    assert both_orders([slower, faster]) == [2, 1]
    assert ranks([slower, faster]) == {2: 1, 1: 2}
    # Fractions of a second do not rank: 300.2 s and 300.9 s are both 300.
    a = ranking.entry(attempt_id=3, won=True, moves=1, play_seconds=300.9, foundation_cards=52)
    b = ranking.entry(attempt_id=4, won=True, moves=1, play_seconds=300.2, foundation_cards=52)
    assert ranking.score(a) == ranking.score(b)


def test_then_earlier_finish_orders_but_ties_share_the_rank() -> None:
    later = Entry(1, True, 100, 300, 52, finished_ms=2_000)
    earlier = Entry(2, True, 100, 300, 52, finished_ms=1_000)
    assert both_orders([later, earlier]) == [2, 1]
    assert ranks([later, earlier]) == {2: 1, 1: 1}
    assert ranking.score(later) == ranking.score(earlier)


def test_unfinished_rank_by_cards_then_moves_then_time() -> None:
    fewer_cards = Entry(1, False, moves=1, seconds=1, foundation_cards=20)
    more_cards = Entry(2, False, moves=90, seconds=900, foundation_cards=30)
    same_cards_more_moves = Entry(3, False, moves=91, seconds=1, foundation_cards=30)
    same_cards_moves_slower = Entry(4, False, moves=90, seconds=901, foundation_cards=30)
    order = both_orders([fewer_cards, same_cards_more_moves, same_cards_moves_slower, more_cards])
    assert order == [2, 4, 3, 1]


def test_resigned_and_playing_rank_alike() -> None:
    resigned = Entry(1, False, 50, 60, 30, finished_ms=5)
    playing = Entry(2, False, 50, 60, 30)
    assert ranks([resigned, playing]) == {1: 1, 2: 1}
    assert both_orders([playing, resigned]) == [1, 2]  # a finish before no finish


def test_ties_share_a_rank_1_2_2_4() -> None:
    entries = [
        Entry(1, True, 80, 100, 52, finished_ms=1),
        Entry(2, True, 90, 100, 52, finished_ms=3),
        Entry(3, True, 90, 100, 52, finished_ms=2),
        Entry(4, True, 95, 100, 52, finished_ms=1),
    ]
    assert both_orders(entries) == [1, 3, 2, 4]
    assert [rank for rank, _ in ranking.competition_ranks(entries)] == [1, 2, 2, 4]


def test_scores_stay_below_2_to_the_53() -> None:
    worst = ranking.entry(
        attempt_id=10**18,
        won=False,
        moves=10**9,
        play_seconds=1e15,
        foundation_cards=0,
        finished_ms=10**20,
    )
    assert ranking.score(worst) == 2**53 - 1  # every field at its largest: the top value
    assert ranking.score(Entry(1, False, ranking.MOVES_MAX, ranking.SECONDS_MAX, 0)) < 2**53
    assert float(ranking.score(worst)) == ranking.score(worst)  # exact in a double
    with pytest.raises(AssertionError):
        Entry(1, True, moves=ranking.MOVES_MAX + 1, seconds=0, foundation_cards=52)


entries_strategy = st.builds(
    lambda won, moves, seconds, cards, finish: (won, moves, seconds, cards, finish),
    st.booleans(),
    st.one_of(st.integers(0, 200), st.integers(0, 2 * ranking.MOVES_MAX)),
    st.one_of(st.floats(0, 1000), st.floats(0, 2.0 * ranking.SECONDS_MAX)),
    st.integers(0, 52),
    st.one_of(st.none(), st.integers(0, 5), st.integers(0, 2 * 10**13)),
)


@given(st.lists(entries_strategy, max_size=40))
def test_redis_order_is_the_python_order(rows) -> None:
    entries = [
        ranking.entry(
            attempt_id=i + 1,
            won=won,
            moves=moves,
            play_seconds=seconds,
            foundation_cards=52 if won else cards,
            finished_ms=finish,
        )
        for i, (won, moves, seconds, cards, finish) in enumerate(rows)
    ]
    assert redis_order(entries) == python_order(entries)
    for a in entries:
        assert 0 <= ranking.score(a) < 2**53
        for b in entries:
            assert (ranking.score(a) == ranking.score(b)) == (
                ranking.tie_key(a) == ranking.tie_key(b)
            )
            assert (ranking.score(a) < ranking.score(b)) == (
                ranking.tie_key(a) < ranking.tie_key(b)
            )
    # Ranks from scores (1 + how many score lower) are the competition ranks.
    by_score = {
        e.attempt_id: 1 + sum(ranking.score(o) < ranking.score(e) for o in entries) for e in entries
    }
    assert by_score == ranks(entries)


@pytest.mark.parametrize("module", [ranking, streaks, board, selectors])
def test_doctests(module) -> None:
    result = doctest.testmod(module)
    assert result.failed == 0 and result.attempted > 0
