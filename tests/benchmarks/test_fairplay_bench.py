"""The fair-play benchmark's own parts (benchmarks/fairplay.py): the cheaters' lines win as
they say, cheats are placed on the boards as `leaderboards.ranking` ranks, and the `Judge`
tells the rules only what they take."""

from __future__ import annotations

import random

import pytest

from benchmarks import fairplay as bench
from games import fairplay
from games.engine import GAMES


@pytest.fixture(scope="module")
def masterpiece() -> bench.Deal:
    return bench.certified("masterpiece", 1)


@pytest.mark.slow
def test_wasted_moves_are_kept_and_the_line_still_wins(masterpiece: bench.Deal) -> None:
    for seed in range(3):
        count = 1 + seed * 2
        line = bench.with_wasted_moves(random.Random(seed), masterpiece, masterpiece.line, count)

        assert bench.wins("masterpiece", masterpiece.text, line)
        assert "U" not in line and len(line) == masterpiece.par + count  # none undone
        assert bench.common_prefix(line, masterpiece.line) <= 5  # the first one early


@pytest.mark.slow
def test_a_random_opening_then_the_solver_wins(masterpiece: bench.Deal) -> None:
    line, k = bench.opening_then_solver(random.Random(4), masterpiece)

    assert 1 <= k <= 12 and bench.wins("masterpiece", masterpiece.text, line)
    assert line != masterpiece.line


@pytest.mark.slow
def test_own_lines_are_the_solvers_but_none_is_stored(masterpiece: bench.Deal) -> None:
    own = bench.own_lines(masterpiece)

    assert own
    for found in own:
        assert found.line not in masterpiece.lines
        assert bench.wins("masterpiece", masterpiece.text, found.line)
        assert found.prefix == bench.common_prefix(found.line, masterpiece.line)


def verdict(kind: str, outcome: str, moves: int, seconds: int, cards: int = 52) -> bench.Verdict:
    return bench.Verdict(kind, 7, [], outcome=outcome, moves=moves, seconds=seconds, cards=cards)


def test_cheats_are_placed_on_the_board_the_honest_games_make() -> None:
    honest = [verdict("honest expert fast", "won", 100 + i, 300) for i in range(12)]
    honest += [verdict("honest novice slow", "resigned", 90, 200, cards=30)]
    fast_win = verdict("own line, other budget", "won", 95, 400)
    slow_win = verdict("near-par, wasted moves kept", "won", 110, 500)
    tie = verdict("random opening then solver", "won", 109, 300)  # ties the 10th honest win
    parked = verdict("parked 51/52", "unfinished", 80, 10, cards=51)
    everything = [*honest, fast_win, slow_win, tie, parked]

    bench.place_on_boards(everything)

    assert (fast_win.rank, fast_win.top) == (1, True)
    assert (tie.rank, tie.top) == (10, True)  # ties share a rank
    assert (slow_win.rank, slow_win.top) == (12, False)  # each cheat alone on the board
    assert (parked.rank, parked.top) == (13, False)  # below every win, above the resignation
    assert all(v.rank is None for v in honest)


def test_the_boards_count_play_time_as_the_server_does() -> None:
    assert bench.play_seconds([5_000, 6_500, 200_000]) == 66  # a pause counts a minute at most
    assert bench.cards_home("munger", GAMES["munger"].deal_for_seed(1), ["R>F"]) == 1


def test_the_judge_tells_the_rules_only_what_they_take() -> None:
    def rules(game, moves, times, certificate=(), *, won=False, par=None):
        return []

    given = {"won": True, "par": 80, "par_proven": True, "solver_lines": [], "remaining": None}

    assert bench.accepted(rules, given) == {"won": True, "par": 80}
    assert bench.accepted(lambda *a, **k: None, given) == given


def test_the_accuracy_figure_is_read_where_the_rules_put_it() -> None:
    plain = verdict("honest average normal", "won", 120, 600)
    assert bench.accuracy_of(plain) == (None, "")

    plain.figures = {"accuracy": {"accuracy": 0.91, "wasted": 9.0}}
    assert bench.accuracy_of(plain) == (0.91, "verdict")

    measured = verdict("honest average normal", "won", 120, 600)
    measured.perfection = {"moves": 100, "decided": 100, "misses": 7, "start": 80}
    if hasattr(fairplay, "most_misses"):
        assert bench.accuracy_of(measured) == (pytest.approx(0.93), "most_misses")
