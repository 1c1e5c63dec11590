"""The rules of games/fairplay.py one by one, on either side of their thresholds: pure
functions of the moves, their server times and the certificate (no database)."""

from __future__ import annotations

import statistics

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games import fairplay
from games.fairplay import RULES_BY_NAME, check
from games.models import Attempt

READ = 10_000  # a first move well after the deal was read, so only the rule under test trips


def tripped(game: str, moves, times, certificate=()) -> set[str]:
    return {reason["rule"] for reason in check(game, moves, times, certificate)}


def timeline(gaps: list[int], first: int = READ) -> list[int]:
    times = [first]
    for gap in gaps:
        times.append(times[-1] + gap)
    return times


def varied(mean: int, count: int) -> list[int]:
    """`count` gaps averaging `mean` exactly, spread wide (a person's, not a timer's)."""
    spread = [mean // 2, mean + mean // 2] * (count // 2)
    return spread + ([mean] if count % 2 else [])


def test_every_rule_has_a_threshold_per_game_a_description_and_a_reason() -> None:
    for rule in fairplay.RULES:
        assert set(rule.threshold) == {"masterpiece", "munger"}
        assert rule.description and rule.why and rule.unit
    assert len(RULES_BY_NAME) == len(fairplay.RULES)


@pytest.mark.parametrize(("game", "floor_ms"), [("masterpiece", 700), ("munger", 500)])
def test_too_fast_at_the_floor_per_move(game: str, floor_ms: int) -> None:
    moves = ["T1>T2"] * 11
    at_floor = timeline(varied(floor_ms, 10))
    below = timeline([*varied(floor_ms, 9), floor_ms - 10])  # 1 ms a move under on average
    assert "too_fast" not in tripped(game, moves, at_floor)
    assert "too_fast" in tripped(game, moves, below)


def test_too_fast_needs_enough_moves() -> None:
    moves = ["T1>T2"] * 9
    assert "too_fast" not in tripped("masterpiece", moves, timeline([10] * 8))
    assert "too_fast" in tripped("masterpiece", [*moves, "T1>T2"], timeline([10] * 9))


def test_the_servers_finishing_line_counts_as_one_action() -> None:
    """`attempt_finish` stores its foundation moves at one millisecond: one click, not
    twenty instant moves."""
    moves = ["T1>T2"] * 11 + ["M1>F"] * 20
    gaps = varied(800, 10)
    times = timeline(gaps)
    times += [times[-1] + 900] * 20
    assert tripped("masterpiece", moves, times) == set()
    # The same moves at one millisecond anywhere but at the end are as fast as they look.
    middle = ["M1>F"] * 20 + ["T1>T2"] * 11
    assert "too_fast" in tripped("masterpiece", middle, [READ] * 20 + timeline(gaps, READ))


def rhythm(cv: float, count: int = 20, mean: int = 1000) -> list[int]:
    """Gaps alternating mean*(1-cv) and mean*(1+cv): coefficient of variation `cv`."""
    return [round(mean * (1 - cv)), round(mean * (1 + cv))] * (count // 2)


def test_machine_rhythm_at_the_coefficient_of_variation() -> None:
    moves = ["T1>T2"] * 21
    assert "machine_rhythm" not in tripped("munger", moves, timeline(rhythm(0.15)))
    assert "machine_rhythm" in tripped("munger", moves, timeline(rhythm(0.14)))


@given(st.lists(st.integers(0, 600_000), min_size=20, max_size=300))
def test_machine_rhythm_measures_the_population_deviation(gaps: list[int]) -> None:
    """The rule's own float sums give `statistics.pstdev`'s exact value, to the last digits."""
    play = fairplay.Play("munger", ["T1>T2"] * (len(gaps) + 1), timeline(gaps))
    mean = statistics.fmean(gaps)
    expected = statistics.pstdev(gaps) / mean if mean > 0 else 0.0
    assert fairplay._rhythm(play)["value"] == pytest.approx(expected, rel=1e-12, abs=1e-12)


def test_machine_rhythm_needs_twenty_gaps() -> None:
    assert "machine_rhythm" not in tripped("munger", ["T1>T2"] * 20, timeline([200] * 19))
    assert "machine_rhythm" in tripped("munger", ["T1>T2"] * 21, timeline([200] * 20))


@pytest.mark.parametrize(("width", "trips"), [(10, True), (11, False)])
def test_machine_rhythm_most_gaps_within_a_few_ms(width: int, trips: bool) -> None:
    """A timer with a few long pauses: widely spread overall, but 11 of 21 gaps within
    10 ms of the median."""
    gaps = [1000] * 6 + [1000 + width] * 5 + [20_000 + 3000 * i for i in range(10)]
    assert ("machine_rhythm" in tripped("masterpiece", ["T1>T2"] * 22, timeline(gaps))) is trips


@pytest.mark.parametrize(("game", "floor_ms"), [("masterpiece", 1500), ("munger", 700)])
def test_instant_first_move(game: str, floor_ms: int) -> None:
    fast = ["T1>T2"] * 11  # ten gaps of 10 ms: too_fast trips beside it
    quick = timeline([10] * 10, first=floor_ms - 1)
    assert "instant_first_move" not in tripped(game, fast, timeline([10] * 10, first=floor_ms))
    assert "instant_first_move" in tripped(game, fast, quick)


def test_a_quick_first_move_alone_never_holds_a_game() -> None:
    """A person's obvious first move can come 0.69 s after the deal: it holds nothing unless
    another rule trips too."""
    moves = ["T1>T2"] * 40
    times = timeline(varied(3000, 39), first=690)
    assert tripped("munger", moves, times) == set()
    assert check("masterpiece", ["T1>T2"], [120]) == []


def test_quick_stock_draws_count_as_one_action() -> None:
    """Flipping through Munger's stock is a few quick clicks on one pile: a run of draws is one
    action of `too_fast`'s pace, whatever the speed of the clicks."""
    moves, gaps = [], []
    for index in range(10):
        moves += ["T1>T2", *["S>W"] * 5]
        gaps += [1500 + 200 * index, *[60] * 5]
    times = timeline(gaps[:-1])
    assert tripped("munger", moves, times) == set()
    assert "too_fast" in tripped("munger", [m if m != "S>W" else "W>T1" for m in moves], times)


CERTIFICATE = [f"M{1 + i % 8}>M{1 + (i + 3) % 8}" for i in range(50)]


@pytest.mark.parametrize(
    ("prefix", "median", "trips"),
    [(30, 499, True), (30, 500, False), (29, 499, False), (50, 100, True)],
)
def test_certificate_at_machine_speed(prefix: int, median: int, trips: bool) -> None:
    """60% of a 50-move certificate is 30 moves; the median gap's floor is 0.5 s."""
    moves = [*CERTIFICATE[:prefix], "A1>F", *CERTIFICATE[prefix + 1 :]][:50]
    # 49 gaps: 24 spread below the median, the median, 24 long ones (a mean well over 1 s).
    lows = [round(median * (0.2 + 0.03 * i)) for i in range(24)]
    gaps = [*lows, median, *(median + 5000 + 97 * i for i in range(24))]
    result = tripped("masterpiece", moves, timeline(gaps), CERTIFICATE)
    assert ("certificate_at_machine_speed" in result) is trips
    assert ("solver_line" in result) is (prefix > 45)  # more than 90% of the solver's line
    assert result <= {"certificate_at_machine_speed", "solver_line"}


def test_certificate_line_with_undone_detours_is_still_the_certificate() -> None:
    moves: list[str] = []
    for index, token in enumerate(CERTIFICATE):
        moves += ["T1>T2", "U", token] if index % 5 == 0 else [token]
    times = timeline([300] * (len(moves) - 1))
    assert "certificate_at_machine_speed" in tripped("masterpiece", moves, times, CERTIFICATE)
    assert "certificate_at_machine_speed" not in tripped("masterpiece", moves, times, ())


@pytest.mark.parametrize(
    ("prefix", "won", "certificate", "trips"),
    [
        (46, False, CERTIFICATE, True),  # 92% of the solver's line, at a person's pace
        (50, False, CERTIFICATE, True),  # parked short of the end, or resigned
        (45, False, CERTIFICATE, False),  # 90% is not more than 90%
        (50, True, CERTIFICATE, False),  # a win is accuracy's to judge
        (29, False, CERTIFICATE[:29], False),  # too short a line to say anything
    ],
)
def test_solver_line(prefix: int, won: bool, certificate: list[str], trips: bool) -> None:
    moves = [*certificate[:prefix], "A1>F", *certificate[prefix + 1 :]][: len(certificate)]
    slow = timeline(varied(4000, len(moves) - 1), first=20_000)
    reasons = {r["rule"] for r in check("masterpiece", moves, slow, certificate, won=won)}
    assert ("solver_line" in reasons) is trips
    assert reasons <= {"solver_line", "accuracy"}


def test_a_reason_names_its_rule_and_says_why() -> None:
    reasons = check("masterpiece", ["T1>T2"] * 11, timeline([10] * 10, first=120))
    [first] = [reason for reason in reasons if reason["rule"] == "instant_first_move"]
    assert "0.12 s" in first["detail"] and "1.5 s" in first["detail"]


def test_times_and_moves_must_match() -> None:
    with pytest.raises(ValueError):
        check("masterpiece", ["T1>T2"], [])


@pytest.mark.parametrize(
    "fields",
    [
        {"ranked": False},
        {"verified": False},
        {"status": Attempt.Status.PLAYING},
        {"review": Attempt.Review.APPROVED},
    ],
)
def test_the_hook_leaves_alone_what_never_reaches_the_board_or_was_reviewed(fields) -> None:
    values = {"ranked": True, "verified": True, "status": Attempt.Status.WON, **fields}
    attempt = Attempt(game="masterpiece", moves=["T1>T2"], move_times=[5], **values)
    assert fairplay.hold_if_implausible(attempt) == []
    assert attempt.held_reasons == []
    assert attempt.review == values.get("review", "")


def test_the_hook_holds_in_memory() -> None:
    attempt = Attempt(
        game="masterpiece",
        moves=["T1>T2"] * 11,
        move_times=timeline([10] * 10, first=5),
        ranked=True,
        verified=True,
        status=Attempt.Status.RESIGNED,
    )
    reasons = fairplay.hold_if_implausible(attempt)
    assert attempt.review == Attempt.Review.HELD
    assert attempt.held_reasons == reasons and reasons[0]["rule"] == "too_fast"


def test_solver_line_compares_with_every_line_the_solver_gave() -> None:
    """The certificate may be a player's line since (one that lowered the par): the solver's
    own lines are what a cheater plays."""
    other = CERTIFICATE[1:] + CERTIFICATE[:1]
    parked = CERTIFICATE[:-1]
    slow = timeline(varied(4000, len(parked) - 1), first=20_000)

    def rules(lines) -> set[str]:
        found = check("masterpiece", parked, slow, other, solver_lines=lines)
        return {r["rule"] for r in found}

    assert "solver_line" in rules([other, CERTIFICATE])
    assert "solver_line" not in rules([other])
    assert "solver_line" not in rules([])


# -- accuracy --------------------------------------------------------------------------------

LONG = [f"T{1 + i % 7}>T{1 + (i + 2) % 7}" for i in range(100)]
SLOW = timeline(varied(3000, 99), first=20_000)


def accuracy(moves=LONG, times=SLOW, **kwargs) -> dict[str, str] | None:
    found = [r for r in check("munger", moves, times, **kwargs) if r["rule"] == "accuracy"]
    return found[0] if found else None


@pytest.mark.parametrize(
    ("game", "par", "held"),
    [
        ("munger", 100, True),  # every move on a shortest way
        ("munger", 93, True),  # 7 of 100 wasted: 7%, under 8%
        ("munger", 92, False),  # 8 of 100: not under 8%
        ("masterpiece", 95, True),  # 5 of 100: under Masterpiece's 6%
        ("masterpiece", 94, False),
    ],
)
def test_accuracy_holds_a_win_that_wasted_almost_no_move(game: str, par: int, held: bool) -> None:
    """A win of N moves (undo pairs removed) from a par of D wasted at most N - D of them,
    whatever its order and pace."""
    reasons = check(game, LONG, SLOW, won=True, par=par, par_proven=True)
    assert ("accuracy" in {r["rule"] for r in reasons}) is held


def test_accuracy_counts_the_net_line_and_says_what_it_found() -> None:
    detours = [*LONG[:50], "T1>T2", "U", "T3>T4", "U", *LONG[50:]]
    times = timeline(varied(3000, len(detours) - 1), first=20_000)
    reason = accuracy(detours, times, won=True, par=98, par_proven=True)
    assert reason is not None
    assert (
        "98.0% accuracy" in reason["detail"] and "at most 2 of the game's 100" in reason["detail"]
    )
    assert "(proven shortest)" in reason["detail"]
    unproven = accuracy(won=True, par=98)
    assert unproven is not None and "(the best line known)" in unproven["detail"]


def test_accuracy_judges_games_of_thirty_moves_or_more() -> None:
    assert accuracy(LONG[:29], SLOW[:29], won=True, par=29) is None
    assert accuracy(LONG[:30], SLOW[:30], won=True, par=30) is not None


def test_accuracy_judges_a_game_not_won_once_its_remaining_moves_are_bounded() -> None:
    """A game stopped with a line of R moves still to go wasted at most N - (D - R)."""
    parked = LONG[:97]
    times = SLOW[:97]
    assert accuracy(parked, times, par=100) is None  # what it still needs is unknown
    assert accuracy(parked, times, par=100, remaining=3) is not None
    assert accuracy(parked, times, par=100, remaining=12) is None  # 9 of 97 wasted, at most


def test_accuracy_is_tightened_by_a_measured_profile() -> None:
    """A move that put the win two further away counts two in N - D but is one move of the
    game: the profile's count of misses, when every move was settled, can only be lower."""
    measured = {"moves": 100, "decided": 100, "misses": 4, "start": 90}
    assert accuracy(won=True, par=90, par_proven=True) is None  # 10 of 100, at most
    assert accuracy(won=True, par=90, par_proven=True, perfection=measured) is not None
