"""Proven pars, distances to a win, hints and the move-by-move check of a history
(docs/solver.md, "Par" and "Distance and hints")."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from games.engine import GAMES, Game, deal, replay
from games.engine.solver import (
    DECIDE,
    EXACT,
    PLAIN,
    distance,
    hint,
    prove_par,
    rules_for,
)
from games.engine.solver import search as solver_search
from games.engine.solver.distance import distance_of, position
from games.engine.solver.par import shorten
from games.engine.solver.search import BestFirst, Budget, beam, best_first, decide
from tests.engine.positions import masterpiece_won_in_56, munger_won_in_69
from tests.engine.solving import (
    WINNABLE,
    brute_distance,
    certificate,
    exact_distance,
    near_the_end,
    winnable,
)


def test_prove_par_proves_the_hand_built_pars() -> None:
    for game, (deal_string, line) in (
        ("munger", munger_won_in_69()),
        ("masterpiece", masterpiece_won_in_56()),
    ):
        par = prove_par(game, deal_string, time_limit=20)
        assert par.status == "solved" and par.optimal
        assert par.par == par.lower_bound == len(line) == len(par.moves)
        verdict = replay(game, deal_string, par.moves)
        assert verdict.valid and verdict.won


@pytest.mark.slow
@pytest.mark.parametrize("seed", [1, 4, 8])
def test_a_masterpiece_par_is_proven_and_never_beaten(seed: int) -> None:
    deal_string = deal("masterpiece", seed)
    par = prove_par("masterpiece", deal_string, time_limit=30)
    assert par.status == "solved" and par.optimal and par.lower_bound == par.par
    verdict = replay("masterpiece", deal_string, par.moves)
    assert verdict.valid and verdict.won
    # The line's last moves are a shortest finish: brute force finds nothing shorter.
    end = position("masterpiece", deal_string, par.moves[:-10])
    assert brute_distance(end, 10) == 10


@pytest.mark.slow
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    near_the_end(back=(10, 30), picks=3, min_picks=1),
    st.integers(min_value=1, max_value=40),
)
def test_an_a_star_stopped_and_resumed_ends_as_one_run_does(game: Game, step: int) -> None:
    whole = best_first(rules_for(game, EXACT), Budget(None, 2_000_000), weight=1)
    assert whole.exhausted
    search = BestFirst(rules_for(game, EXACT))
    floors = []
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(solver_search, "CHECK_EVERY", 1)  # budgets stop it mid-expansion
        for _ in range(100_000):
            part = search.resume(Budget(None, node_limit=step))  # a few positions at a time
            if part.exhausted:
                break
            floors.append(part.lower_bound)
    assert part.exhausted and part.status == whole.status
    assert len(part.line) == len(whole.line)
    if whole.status == "solved":
        assert floors == sorted(floors) and all(f <= len(whole.line) for f in floors)
        # told of a line as short as the shortest, it looks for shorter ones only: none
        told = BestFirst(rules_for(game, EXACT))
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(solver_search, "CHECK_EVERY", 1)
            told.resume(Budget(None, node_limit=step))
        again = told.resume(Budget(None), upper=len(whole.line))
        assert again.exhausted and again.line == [] and again.lower_bound == len(whole.line)


@pytest.mark.slow
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(near_the_end(back=(4, 14), picks=4))
def test_a_proven_par_is_the_brute_force_shortest_line(game: Game) -> None:
    # The par pipeline (beams, then exact A*) from positions near the end of real deals: a par
    # it proves is the length of a shortest line by the search with no dominance at all and by
    # brute force over the engine's own moves, and its floor never exceeds it.
    first = decide(rules_for(game, DECIDE), Budget(None, 200_000))
    assume(first.status == "solved")
    par = shorten(game, first.line, time_limit=None)
    walk = game.copy()
    for token in par.line:
        walk.push(token)
    assert walk.is_won()
    assert par.optimal and par.lower_bound == len(par.line) <= len(first.line)
    assert len(par.line) == exact_distance(game, PLAIN)
    brute = brute_distance(game, 16)
    assert brute == len(par.line) or (brute is None and len(par.line) > 16)


def test_an_unwinnable_deal_has_no_par() -> None:
    par = prove_par("munger", deal("munger", 3), time_limit=10)
    assert par.status == "unsolvable" and par.moves == [] and par.par is None


def test_a_budget_that_runs_out_leaves_an_honest_lower_bound() -> None:
    deal_string = deal("munger", 11)
    par = prove_par("munger", deal_string, time_limit=0.5)
    assert par.status == "solved"
    assert par.lower_bound is not None and 69 <= par.lower_bound <= par.par  # type: ignore[operator]
    assert par.optimal == (par.lower_bound == par.par)


def test_distance_of_a_won_position_is_zero() -> None:
    deal_string, line = masterpiece_won_in_56()
    won = distance("masterpiece", deal_string, line)
    assert (won.status, won.distance) == ("won", 0)
    one_left = distance("masterpiece", deal_string, line[:-1])
    assert (one_left.status, one_left.distance, one_left.next_move) == ("exact", 1, line[-1])


@pytest.mark.slow
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(near_the_end(back=(3, 25), picks=3))
def test_the_distance_falls_by_exactly_one_along_a_shortest_line(game: Game) -> None:
    found = distance_of(game, time_limit=20)
    if not winnable(game, DECIDE):
        assert found.status == "no_win"
        return
    assert found.status == "exact" and found.distance == len(found.line)
    walk = game.copy()
    for left, token in zip(range(found.distance, 0, -1), found.line, strict=True):
        assert distance_of(walk, time_limit=20).distance == left
        walk.push(token)
    assert walk.is_won()


@pytest.mark.slow
@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(near_the_end(back=(3, 16), picks=3))
def test_a_beam_line_wins_and_an_unbounded_beam_finds_a_shortest_one(game: Game) -> None:
    rules = rules_for(game, EXACT)
    shortest = best_first(rules, Budget(None, 2_000_000), weight=1)
    assert shortest.exhausted
    if shortest.status != "solved":
        assert beam(rules, Budget(None), width=10**9).line == []
        return
    for width, weight in ((1, 1.0), (3, 1.0), (3, 3.0), (10**9, 1.0), (10**9, 3.0)):
        found = beam(rules, Budget(None), width=width, weight=weight)
        assert found.exhausted
        if not found.line:
            assert width < 10**9  # a narrow beam may lose every winning line
            continue
        walk = game.copy()
        for token in found.line:
            walk.push(token)
        assert walk.is_won()
        assert len(found.line) >= len(shortest.line)
        if width == 10**9:
            # every position kept (whatever their order): each layer holds every position at
            # the fewest moves found for it
            assert len(found.line) == len(shortest.line)
    # a beam told of a line of the shortest length looks only for shorter ones: none
    assert beam(rules, Budget(None), width=10**9, upper=len(shortest.line)).line == []


@pytest.mark.slow
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from(sorted(WINNABLE)),
    st.integers(min_value=0, max_value=5),
    st.integers(min_value=0, max_value=60),
    st.lists(st.integers(min_value=0, max_value=99), max_size=8),
)
def test_a_hint_is_legal_and_keeps_a_win_within_reach(
    game_name: str, which: int, played: int, picks: list[int]
) -> None:
    seed = WINNABLE[game_name][which]
    deal_string = deal(game_name, seed)
    line = list(certificate(game_name, seed))
    history = line[: min(played, len(line) - 1)]
    game = position(game_name, deal_string, history)
    for pick in picks:  # wander off the line
        legal = game.legal_moves()
        if not legal:
            break
        game.push(legal[pick % len(legal)])
        history.append(game.history[-1])
    answer = hint(game_name, deal_string, history, time_limit=30)
    assert set(answer.to_json()) == {"status", "move", "undo"}
    if answer.status == "move":
        assert answer.move is not None and game.is_legal(answer.move)
        game.push(answer.move)
        assert winnable(game, DECIDE)
    else:
        assert answer.status == "undo" and answer.undo is not None
        assert not winnable(game, DECIDE)
        _check_undo(game, answer.undo)


def _check_undo(game, undo: int) -> None:
    """Undoing `undo` moves reaches a winnable position, one fewer does not."""
    back = game.copy()
    for _ in range(undo - 1):
        back.push("U")
    assert not winnable(back, DECIDE)
    back.push("U")
    assert winnable(back, DECIDE)


def test_a_lost_position_gets_an_undo_count() -> None:
    # Masterpiece seed 1: putting the first free card of an auxiliary row into the cellar
    # and playing on greedily loses; the hint says how far to go back.
    seed = 1
    deal_string = deal("masterpiece", seed)
    game = GAMES["masterpiece"].from_deal(deal_string)
    history: list[str] = []
    for _ in range(60):
        if not winnable(game, DECIDE):
            break
        legal = game.legal_moves()
        move = legal[-1]
        game.push(move)
        history.append(move.text)
    assert not winnable(game, DECIDE)
    answer = hint("masterpiece", deal_string, history, time_limit=30)
    assert answer.status == "undo" and answer.move is None
    _check_undo(game, answer.undo)  # type: ignore[arg-type]
    lost = distance("masterpiece", deal_string, history, time_limit=30)
    assert lost.status == "no_win" and lost.next_move is None


def test_a_hint_on_a_fresh_munger_deal_is_a_single_legal_token() -> None:
    deal_string = deal("munger", 11)
    answer = hint("munger", deal_string, [], time_limit=10)
    assert answer.status == "move"
    game = GAMES["munger"].from_deal(deal_string)
    assert game.is_legal(answer.move)  # type: ignore[arg-type]
