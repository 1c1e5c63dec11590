"""The solver: certificates that replay, verdicts that agree with a plain search, budgets,
par and difficulty, and each game's one registration (docs/solver.md)."""

from __future__ import annotations

import io
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import GAMES as ENGINE_GAMES
from games.engine import MalformedError, Masterpiece, Munger, deal, replay
from games.engine.cli import main
from games.engine.solver import (
    DECIDE,
    PLAIN,
    RULES,
    candidate_seconds,
    prove_par,
    rules_class,
    rules_for,
    solve,
)
from games.engine.solver.difficulty import difficulty_of
from games.engine.solver.masterpiece import MasterpieceRules
from games.engine.solver.munger import MungerRules
from games.engine.solver.search import Budget, decide
from tests.engine.positions import masterpiece_won_in_56, munger_won_in_69
from tests.engine.reference import reference_replay

GAMES = {"munger": Munger, "masterpiece": Masterpiece}


def assert_certificate(game: str, deal_string: str, moves: list[str]) -> None:
    """The line wins by the engine's verifier and by the independent reference rules."""
    verdict = replay(game, deal_string, moves)
    assert verdict.valid and verdict.won, verdict.error
    reference = reference_replay(game, deal_string, moves)
    assert reference["valid"] and reference["won"], reference


def test_a_deal_that_goes_straight_out_gets_par_69_proven() -> None:
    deal_string, _ = munger_won_in_69()
    result = solve("munger", deal_string, time_limit=20)
    assert result.status == "solved"
    assert result.par == len(result.moves) == 69
    assert result.stats["par_optimal"] is True and result.stats["par_lower_bound"] == 69
    assert_certificate("munger", deal_string, result.moves)


def test_an_easy_masterpiece_gets_par_56_proven() -> None:
    # 48 cards up, and each of the 8 auxiliary cards needs one more move first (rule 10).
    deal_string, _ = masterpiece_won_in_56()
    result = solve("masterpiece", deal_string, time_limit=20)
    assert result.status == "solved" and result.par == 56
    assert result.stats["par_optimal"] is True
    assert_certificate("masterpiece", deal_string, result.moves)


# Deals that take the solver more than about a second.
SLOW_TO_SOLVE = {("munger", 1), ("munger", 6), ("munger", 10), ("munger", 15)}


def with_slow_marks(cases: list[tuple[str, int]], slow: set[tuple[str, int]]) -> list:
    """The cases, those in `slow` marked slow."""
    return [pytest.param(*case, marks=pytest.mark.slow) if case in slow else case for case in cases]


@pytest.mark.parametrize(
    ("game", "seed"),
    with_slow_marks([(g, s) for s in range(1, 16) for g in sorted(GAMES)], SLOW_TO_SOLVE),
)
def test_every_solved_line_is_a_certificate(game: str, seed: int) -> None:
    deal_string = deal(game, seed)
    result = solve(game, deal_string, time_limit=30, par_time=0.2)
    assert result.status in {"solved", "unsolvable"}
    if result.status != "solved":
        assert result.moves == [] and result.par is None and result.difficulty is None
        assert "stopped_by" not in result.stats
        return
    assert_certificate(game, deal_string, result.moves)
    stats = result.stats
    assert result.par == len(result.moves) == stats["par_length"] <= stats["first_length"]
    assert stats["lower_bound"] <= stats["par_lower_bound"] <= result.par
    assert stats["par_optimal"] == (stats["par_lower_bound"] == result.par)
    assert 1 <= result.difficulty <= 5  # type: ignore[operator]


@pytest.mark.slow
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(sorted(GAMES)), st.integers(min_value=0, max_value=2**64 - 1))
def test_every_solver_line_replays_to_a_win(game: str, seed: int) -> None:
    deal_string = deal(game, seed)
    result = solve(game, deal_string, time_limit=2, par_time=0.3)
    if result.status == "solved":
        assert_certificate(game, deal_string, result.moves)
    par = prove_par(game, deal_string, time_limit=1, line=result.moves or None)
    if par.status == "solved":
        assert_certificate(game, deal_string, par.moves)
        assert par.lower_bound is not None and par.lower_bound <= len(par.moves)


# Deals whose plain search (no dominance, no forced move, no dead-position test) finishes in a
# few seconds.
PLAIN_QUICK = {
    "munger": [2, 3, 4, 5, 8, 9, 11, 12, 13, 16, 18, 20],
    "masterpiece": [1, 4, 5, 6, 7, 8, 9, 10, 11, 12, 18, 19, 20],
}


@pytest.mark.parametrize(
    ("game", "seed"),
    with_slow_marks(
        [(g, s) for g, seeds in sorted(PLAIN_QUICK.items()) for s in seeds],
        {("munger", 2), ("munger", 5), ("munger", 9), ("masterpiece", 5), ("masterpiece", 7)},
    ),
)
def test_dominances_give_the_same_verdict_as_the_plain_search(game: str, seed: int) -> None:
    fast = decide(rules_for(GAMES[game].from_seed(seed), DECIDE), Budget(time_limit=10))
    plain = decide(rules_for(GAMES[game].from_seed(seed), PLAIN), Budget(time_limit=60))
    assert plain.status != "unknown", "the plain search should finish on this deal"
    assert fast.status == plain.status
    if fast.status == "unsolvable":  # both went through every position they reach
        assert fast.positions <= plain.positions


def test_unsolvable_means_the_search_was_exhaustive() -> None:
    result = solve("munger", deal("munger", 3), time_limit=10)
    assert result.status == "unsolvable"
    assert "stopped_by" not in result.stats


@pytest.mark.parametrize(
    ("budget", "reason"),
    [
        ({"node_limit": 200}, "nodes"),
        ({"table_limit": 100}, "table"),
        ({"time_limit": 0.01}, "time"),
    ],
)
def test_a_budget_that_runs_out_gives_unknown(budget: dict, reason: str) -> None:
    result = solve("munger", deal("munger", 1), **{"time_limit": 30, **budget})
    assert result.status == "unknown"
    assert result.stats["stopped_by"] == reason
    assert result.moves == [] and result.par is None


def test_the_search_leaves_the_game_as_it_found_it() -> None:
    game = Munger.from_seed(6)
    before = game.to_text()
    decide(rules_for(game, DECIDE), Budget(node_limit=1000))
    assert game.to_text() == before


def test_solve_statistics() -> None:
    result = solve("masterpiece", deal("masterpiece", 1), time_limit=10, par_time=0.5)
    stats = result.stats
    expected = [
        "nodes",
        "positions",
        "seconds",
        "table_bytes",
        "first_length",
        "par_length",
        "par_optimal",
        "par_lower_bound",
        "decisions",
        "greedy_agreement",
        "greedy_reach",
    ]
    for key in [*expected, "difficulty_score"]:
        assert key in stats, key
    assert stats["positions"] <= stats["nodes"] + 1
    assert stats["table_bytes"] > 0


def test_cli_solve() -> None:
    out, err = io.StringIO(), io.StringIO()
    code = main(
        ["solve", "masterpiece", "--seed", "1", "--time-limit", "5", "--par-time", "0.2"],
        stdout=out,
        stderr=err,
    )
    answer = json.loads(out.getvalue())
    assert code == 0 and list(answer) == ["status", "moves", "par", "difficulty", "stats"]
    assert answer["status"] == "solved" and answer["par"] == len(answer["moves"])

    out = io.StringIO()
    assert main(["solve", "munger", "--seed", "3"], stdout=out, stderr=err) == 0
    assert json.loads(out.getvalue())["status"] == "unsolvable"

    out = io.StringIO()
    assert main(["solve", "munger", "--seed", "1", "--time-limit", "0.01"], stdout=out) == 0
    assert json.loads(out.getvalue())["status"] == "unknown"

    for argv in (
        ["solve", "munger", "--deal", "AC"],
        ["solve", "chess", "--seed", "1"],
        ["solve", "munger", "--seed", "1", "--time-limit", "0"],
    ):
        assert main(argv, stdout=io.StringIO(), stderr=io.StringIO()) == 2


def test_every_game_registers_one_solver_rules_class() -> None:
    assert sorted(RULES) == sorted(ENGINE_GAMES)
    assert rules_class("munger") is MungerRules and rules_class("masterpiece") is MasterpieceRules
    for name, rules in RULES.items():
        assert rules.GAME is ENGINE_GAMES[name]
        cuts = rules.DIFFICULTY_CUTS
        assert len(cuts) == 4 and list(cuts) == sorted(cuts) and cuts[0] > 0 and cuts[-1] < 1
        assert rules.CANDIDATE_SECONDS > 0 and rules.PAR_SECONDS > 0 and rules.SIMPLE_BOUND >= 48
        assert isinstance(rules_for(ENGINE_GAMES[name].from_seed(1)), rules)


def test_candidate_seconds_per_game() -> None:
    assert candidate_seconds("munger") == 10.0
    assert candidate_seconds("masterpiece") == 2.0
    with pytest.raises(MalformedError, match="no solver for game 'chess'"):
        candidate_seconds("chess")


def test_difficulty_levels_come_from_the_cut_points() -> None:
    easy = {
        "nodes": 0,
        "par_length": 69,
        "lower_bound": 69,
        "greedy_agreement": 1.0,
        "greedy_reach": 52,
    }
    assert difficulty_of(dict(easy), MungerRules.DIFFICULTY_CUTS) == 1
    hard = {
        "nodes": 10**6,
        "par_length": 200,
        "lower_bound": 69,
        "greedy_agreement": 0.0,
        "greedy_reach": 0,
    }
    assert difficulty_of(hard, MungerRules.DIFFICULTY_CUTS) == 5
    assert hard["difficulty_score"] == 1.0
