"""The move-by-move analysis of a game (docs/solver.md, "The analysis of a game"): the move that
lost the win, the distances against brute force, the stretches that cost moves, bounds where
the budget runs out."""

from __future__ import annotations

from functools import cache

import pytest

from games.engine import GAMES, Game, deal
from games.engine.solver import DECIDE, EXACT, prove_par, rules_for
from games.engine.solver.analysis import Point, _tighten, analyse, kept_moves
from games.engine.solver.distance import distance, position
from games.engine.solver.search import SOLVED, UNSOLVABLE, Budget, decide
from tests.engine.solving import WINNABLE, brute_distance, certificate


@cache
def shortest(game: str, seed: int) -> tuple[str, ...]:
    """A shortest winning line of a winnable seed's deal (an exact search that finishes)."""
    found = distance(game, deal(game, seed), time_limit=60)
    assert found.status == "exact", (game, seed, found.status)
    return tuple(found.line)


def verdict(game: Game) -> str:
    outcome = decide(rules_for(game, DECIDE), Budget(None, 3_000_000))
    assert outcome.status != "unknown"
    return outcome.status


def blunder(game: str, seed: int, line: tuple[str, ...], after: int) -> tuple[int, str]:
    """The first move of the line's position `after` or later with a legal move that leaves no
    win: (its index, that move)."""
    here = GAMES[game].from_deal(deal(game, seed))
    for index, token in enumerate(line):
        if index >= after:
            for move in here.legal_moves():
                child = here.copy()
                child.push(move)
                if verdict(child) == UNSOLVABLE:
                    return index, move.text
        here.push(token)
    raise AssertionError("no move of the line can lose the win")


@pytest.mark.slow
@pytest.mark.parametrize("game", ["masterpiece", "munger"])
def test_a_known_blunder_is_named_with_a_winning_move_before_it(game: str) -> None:
    seed = WINNABLE[game][0]
    line = certificate(game, seed)
    index, move = blunder(game, seed, line, after=len(line) // 3)
    # The line, the blunder, then a few legal moves and an undo of the last: lost all along.
    history = list(line[:index]) + [move]
    here = position(game, deal(game, seed), history)
    for _ in range(3):
        legal = here.legal_moves()
        if not legal:
            break
        history.append(legal[0].text)
        here.push(legal[0])
    history.append("U")

    report = analyse(game, deal(game, seed), history, time_limit=8, position_limit=1)

    assert not report.won
    assert report.lost_at == index
    assert report.winning_move is not None
    before = position(game, deal(game, seed), history[:index])
    assert report.winning_move in [m.text for m in before.legal_moves()]
    before.push(report.winning_move)
    assert verdict(before) == SOLVED
    assert all(p.status == "no_win" for p in report.points[index + 1 :])
    assert report.points[index].status in ("exact", "bounds")


def test_a_game_whose_deal_has_no_win_has_no_losing_move() -> None:
    text = deal("masterpiece", 5)  # no win from the deal (the scheduler never deals it)
    assert verdict(GAMES["masterpiece"].from_deal(text)) == UNSOLVABLE
    history = [m.text for m in GAMES["masterpiece"].from_deal(text).legal_moves()[:1]]
    report = analyse("masterpiece", text, history, time_limit=10)
    assert report.lost_at is None and report.winning_move is None
    assert [p.status for p in report.points] == ["no_win", "no_win"]


@pytest.mark.slow
@pytest.mark.parametrize("seed", WINNABLE["masterpiece"][:3])
def test_the_distances_near_the_end_agree_with_brute_force(seed: int) -> None:
    """A shortest line with a detour kept ten moves before its end (a legal move, its way
    back undone), then the rest of the line: each of the last positions' distance is the
    brute-force shortest over the engine's own moves."""
    game = "masterpiece"
    line = shortest(game, seed)
    cut = len(line) - 10
    here = position(game, deal(game, seed), line[:cut])
    detour = next(m.text for m in here.legal_moves() if m.text != line[cut])
    history = list(line[:cut]) + [detour, "U"] + list(line[cut:])

    report = analyse(game, deal(game, seed), history, par=len(line), time_limit=60)

    assert report.won and report.lost_at is None
    for index in range(cut, len(history) + 1):
        point = report.points[index]
        brute = brute_distance(position(game, deal(game, seed), history[:index]), 14)
        if brute is None:
            assert point.status in ("no_win", "bounds"), (index, point)
            if point.status == "bounds":
                assert point.lower is not None and point.lower > 14 - 1
        else:
            assert point.status in ("exact", "won"), (index, point)
            assert point.distance == brute, (index, point, brute)
    # Along the shortest line every move brings the win one move closer; the detour and its
    # undo cost two moves together (the detour itself may have been another shortest move).
    (stretch,) = report.stretches
    assert stretch.wasted == 2 and cut <= stretch.first <= stretch.last <= cut + 1


def test_a_stretch_names_its_cost_and_a_shorter_way() -> None:
    game, seed = "masterpiece", WINNABLE["masterpiece"][0]
    line = shortest(game, seed)
    # Two wasted moves kept: a card moved somewhere and back (found on the line's positions).
    text = deal(game, seed)
    for cut in range(len(line) // 2, len(line)):
        here = position(game, text, line[:cut])
        for move in here.legal_moves():
            child = here.copy()
            child.push(move)
            back = [m.text for m in child.legal_moves() if _same(child, m.text, here)]
            if back:
                history = list(line[:cut]) + [move.text, back[0]] + list(line[cut:])
                report = analyse(game, text, history, par=len(line), time_limit=60)
                assert report.won
                # The move away lost two (itself and one to come back); the way back is a move
                # of a shortest line again.
                assert [(s.first, s.last, s.wasted, s.exact) for s in report.stretches] == [
                    (cut, cut, 2, True)
                ]
                shorter = report.stretches[0].line
                assert len(shorter) == 1
                assert shorter[0] == report.points[cut].best
                assert report.points[cut].distance == len(line) - cut
                return
    raise AssertionError("no move of this line can be taken straight back")


def _same(after: Game, move: str, before: Game) -> bool:
    child = after.copy()
    child.push(move)
    rules = rules_for(before, EXACT)
    return rules.key(rules.state_of(child)) == rules.key(rules.state_of(before))


def test_a_budget_that_runs_out_leaves_bounds_not_guesses() -> None:
    game, seed = "munger", WINNABLE["munger"][0]
    line = certificate(game, seed)
    report = analyse(game, deal(game, seed), line, time_limit=0.2, position_limit=0.01)
    assert report.won
    assert report.points[-1].status == "won"
    bounded = [p for p in report.points if p.status == "bounds"]
    assert bounded, "a fifth of a second cannot settle a whole Munger game"
    for p in bounded:
        assert p.distance is None and p.lower is not None
        # The history itself is a line: what is left of it bounds every position above.
        assert p.upper is None or p.lower <= p.upper
        assert p.upper is None or p.upper <= len(line) - p.index


def test_kept_moves_take_undos_back() -> None:
    assert kept_moves([]) == []
    assert kept_moves(["U"]) == []
    assert kept_moves(["a", "U", "b", "c", "U"]) == [2]


def test_a_losing_move_taken_back_costs_its_two_moves() -> None:
    """A detour through a position with no win, undone: the stretch is the move and its undo,
    two moves lost, and the game still wins."""
    game, seed = "masterpiece", WINNABLE["masterpiece"][0]
    line = shortest(game, seed)
    index, move = blunder(game, seed, line, after=len(line) // 3)
    history = list(line[:index]) + [move, "U"] + list(line[index:])

    report = analyse(game, deal(game, seed), history, par=len(line), time_limit=60)

    assert report.won and report.lost_at is None
    assert report.points[index + 1].status == "no_win"
    assert [(s.first, s.last, s.wasted, s.exact) for s in report.stretches] == [
        (index, index + 1, 2, True)
    ]


def test_bounds_are_tightened_by_the_neighbours() -> None:
    """A move brings a win one move closer at most: from a position 10 away, the next is at
    least 9 away, and a position 9 or less away makes the one before it 10 or less; an undo
    is the move before it the other way round."""
    points = [
        Point(0, "exact", 10, 10, 10),
        Point(1, "bounds", None, 5, None),
        Point(2, "bounds", None, 0, 9),
        Point(3, "bounds", None, 5, None),  # the undo: back at position 1
        Point(4, "bounds", None, 0, 12),
    ]
    keys = ["p0", "p1", "p2", "p1", "p4"]
    _tighten(points, keys, ["a", "b", "U", "c"])
    assert [(p.status, p.lower, p.upper) for p in points] == [
        ("exact", 10, 10),
        ("bounds", 9, 10),
        ("bounds", 8, 9),
        ("bounds", 9, 10),
        ("bounds", 8, 12),  # a move may put the win any number of moves further away
    ]
    points[2] = Point(2, "exact", 9, 9, 9)
    _tighten(points, keys, ["a", "b", "U", "c"])
    assert (points[1].status, points[1].distance) == ("bounds", None)  # 9 or 10 still
    points[4] = Point(4, "exact", 8, 8, 8)
    _tighten(points, keys, ["a", "b", "U", "c"])
    assert [(p.status, p.distance) for p in (points[1], points[3])] == [("exact", 9)] * 2


@pytest.mark.slow
def test_the_distances_of_a_winning_history_with_a_detour() -> None:
    deal_string = deal("masterpiece", 4)
    par = prove_par("masterpiece", deal_string, time_limit=60)
    assert par.optimal
    # A shortest line, with a detour and its undo in the middle.
    line = list(par.moves)
    game = position("masterpiece", deal_string, line[:20])
    detour = next(m.text for m in game.legal_moves() if m.text != line[20])
    history = line[:20] + [detour, "U"] + line[20:]
    report = analyse("masterpiece", deal_string, history, par=par.par, time_limit=120)
    distances = [p.distance for p in report.points]
    assert distances[:21] == list(range(par.par, par.par - 21, -1))
    assert distances[21] is not None and distances[21] >= par.par - 21
    assert distances[22] == par.par - 20  # the undo goes back to a known position
    assert distances[22:] == list(range(par.par - 20, -1, -1))


@pytest.mark.slow
def test_the_distance_at_the_deal_comes_from_the_history_itself() -> None:
    # Deciding finds a longer line than the history's shortest one: the history's length is
    # then the distance at the deal (the exact search proves nothing is shorter), not the
    # longer line's.
    deal_string = deal("masterpiece", 1)
    par = prove_par("masterpiece", deal_string, time_limit=60)
    assert par.optimal
    report = analyse("masterpiece", deal_string, list(par.moves), time_limit=60)
    assert [p.distance for p in report.points] == list(range(par.par, -1, -1))
