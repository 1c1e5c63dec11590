"""Helpers shared by the solver tests: exact distances in a chosen solver mode, an independent
brute-force distance that uses only the engine's legal moves, and near-finished positions."""

from __future__ import annotations

import heapq
from functools import cache

from hypothesis import note
from hypothesis import strategies as st

from games.engine import GAMES, Game, deal
from games.engine.solver import rules_for, solve
from games.engine.solver.search import Budget, best_first, decide

#: Seeds whose deals are winnable and solved in well under a second (both games).
WINNABLE = {"munger": (9, 11, 13, 22, 23, 33), "masterpiece": (1, 4, 8, 9, 10, 12)}


@cache
def certificate(game: str, seed: int) -> tuple[str, ...]:
    """A winning line of a winnable seed's deal."""
    result = solve(game, deal(game, seed), time_limit=20, par_time=0.1)
    assert result.status == "solved", (game, seed)
    return tuple(result.moves)


def exact_distance(game: Game, mode: str, node_limit: int = 2_000_000) -> int | None:
    """The fewest moves to win from `game` by an exhaustive A* in solver mode `mode`, None when
    no line wins. Fails if the search does not finish."""
    outcome = best_first(rules_for(game, mode), Budget(None, node_limit), weight=1)
    assert outcome.exhausted, "the exact search should finish on this position"
    return len(outcome.line) if outcome.status == "solved" else None  # a won position: 0


def winnable(game: Game, mode: str, node_limit: int = 2_000_000) -> bool:
    """Whether a line wins from `game`, by the deciding search in solver mode `mode`."""
    outcome = decide(rules_for(game, mode), Budget(None, node_limit))
    assert outcome.status != "unknown", "the deciding search should finish on this position"
    return outcome.status == "solved"


def brute_distance(game: Game, limit: int) -> int | None:
    """The fewest moves to win from `game`, or None if no line of at most `limit` moves wins:
    A* over the engine's own legal moves and position texts (no solver code at all), with the
    plainest lower bound (each card still out needs a move up, each stock card a draw)."""

    def bound(position: Game) -> int:
        return 52 - position.foundation_cards + len(getattr(position, "stock", ()))

    if game.is_won():
        return 0
    start = game.copy()
    best = {start.to_text(): 0}
    heap = [(bound(start), 0, 0, start)]
    count = 0
    while heap:
        f, minus_depth, _, position = heapq.heappop(heap)
        depth = -minus_depth
        if f > limit:
            return None
        if best.get(position.to_text(), depth) < depth:
            continue
        if position.is_won():
            return depth
        for move in position.legal_moves():
            child = position.copy()
            child.push(move)
            text = child.to_text()
            if best.get(text, limit + 1) <= depth + 1:
                continue
            best[text] = depth + 1
            count += 1
            heapq.heappush(heap, (depth + 1 + bound(child), -depth - 1, count, child))
    return None


def near_finished(game: str, seed: int, back: int, picks: list[int]) -> Game:
    """The position `back` moves before the end of a winnable seed's certificate, then moved on
    by the legal moves `picks` chooses (modulo how many there are; undo never)."""
    line = certificate(game, seed)
    position = GAMES[game].from_deal(deal(game, seed))
    for token in line[: max(0, len(line) - back)]:
        position.push(token)
    for pick in picks:
        legal = position.legal_moves()
        if not legal or position.is_won():
            break
        position.push(legal[pick % len(legal)])
    return position


def near_the_end(
    *,
    back: tuple[int, int],
    picks: int,
    min_picks: int = 0,
    games: tuple[str, ...] = tuple(sorted(WINNABLE)),
) -> st.SearchStrategy[Game]:
    """Positions `near_finished` gives: one of `games`, one of its winnable seeds, `back` moves
    (from..to) before the end of its certificate, then up to `picks` legal moves chosen (at
    least `min_picks`). The drawn values are noted, so a failing example names its position."""

    @st.composite
    def positions(draw: st.DrawFn) -> Game:
        game = draw(st.sampled_from(games))
        seed = draw(st.sampled_from(WINNABLE[game]))
        steps = draw(st.integers(min_value=back[0], max_value=back[1]))
        chosen = draw(
            st.lists(st.integers(min_value=0, max_value=99), min_size=min_picks, max_size=picks)
        )
        note(f"near_finished({game!r}, {seed}, back={steps}, picks={chosen})")
        return near_finished(game, seed, steps, chosen)

    return positions()
