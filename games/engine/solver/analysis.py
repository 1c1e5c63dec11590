"""The move-by-move analysis of a game (docs/solver.md, "The analysis of a game").

For every position a history passes through, the fewest moves still needed to win (exact, or
proven bounds where the budget ran out, or "no win from here") and the solver's move from it;
for a game that lost its win, the move after which none remained and a winning move from the
position before it; for any game, the stretches that cost the most moves, each with the
solver's shorter way. The solver knows the whole deal: Munger's face-down cards and stock
included, so callers show an analysis only where the deal is no secret any more.

The fair-play measure of a top win (`games.fairplay.perfection`) is the same walk without the
explanations: the history's own remaining moves bound each position from above, a move brings a
win at most one move closer, and where the two bounds meet no search is needed.
"""

from __future__ import annotations

import math
import time
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..base import Game
from ..moves import UNDO_TEXT, split_moves
from ..registry import game_class
from .distance import (
    BOUNDS,
    EXACT_DISTANCE,
    NO_WIN,
    WON,
    distance_of,
    history_upper,
)
from .registry import rules_for
from .rules import DECIDE, EXACT
from .search import SOLVED, UNSOLVABLE, Budget, bounded, decide

#: Stretches reported, costliest first, and the gap of moves that lost nothing that still
#: joins two costly moves into one stretch.
STRETCHES = 3
STRETCH_GAP = 2
#: A position the first pass left in bounds may take this many times its first share when the
#: budget has time left.
SECOND_PASS = 4


@dataclass
class Point:
    """The position after `index` moves: `status` exact (`distance` the fewest moves left),
    bounds (`lower` <= fewest <= `upper`; `upper` None when no line is known), no_win or won;
    `best` the solver's move from it (a shortest line's first when exact, else a winning
    line's), None when there is none or the budget found none."""

    index: int
    status: str
    distance: int | None = None
    lower: int | None = None
    upper: int | None = None
    best: str | None = None

    @property
    def low(self) -> float:
        return self.lower if self.lower is not None else 0

    @property
    def high(self) -> float:
        return self.upper if self.upper is not None else math.inf


@dataclass
class Stretch:
    """Moves `first` to `last` (indexes into the history, inclusive) lost `wasted` moves:
    exactly, or at least that many when a bound stands in for a distance (`exact` False).
    `line` is the shorter way: the solver's shortest line from the position before `first`,
    as many moves of it as the stretch took (to compare where each gets in those moves)."""

    first: int
    last: int
    wasted: int
    exact: bool
    line: list[str] = field(default_factory=list)


@dataclass
class Report:
    """The analysis of a history: one `Point` per position (len(history) + 1), whether it
    ended won, `lost_at` (the index of the move after which no win remained; None when a win
    remained to the end, or when the budget could not tell), `winning_move` (a winning move
    from the position before that move), the costliest `stretches`, and the seconds spent."""

    points: list[Point]
    won: bool
    lost_at: int | None
    winning_move: str | None
    stretches: list[Stretch]
    seconds: float

    @property
    def settled(self) -> int:
        return sum(1 for p in self.points if p.status in (EXACT_DISTANCE, WON, NO_WIN))


class _Clock:
    """The budget: `total` CPU seconds of the process shared among the positions still to
    settle, at most `each` for one of them. CPU rather than wall-clock seconds: an analysis
    settles as much on a loaded machine as on a quiet one, only later."""

    def __init__(self, total: float, each: float):
        self.start = time.process_time()
        self.total = total
        self.each = each

    def left(self) -> float:
        return max(0.0, self.total - (time.process_time() - self.start))

    def share(self, waiting: int) -> float:
        return min(self.each, self.left() / max(1, waiting))

    @property
    def spent(self) -> float:
        return time.process_time() - self.start


def _positions(game: str, deal_string: str, tokens: Sequence[str]) -> list[Game]:
    start = game_class(game).from_deal(deal_string)
    games = [start.copy()]
    for token in tokens:
        games.append(games[-1].copy())
        games[-1].push(token)
    return games


def kept_moves(tokens: Sequence[str]) -> list[int]:
    """The indexes of the moves a history keeps: each undo takes back the move before it.

    >>> kept_moves(["a", "b", "U", "c", "d", "U", "U", "e"])
    [0, 7]
    """
    kept: list[int] = []
    for index, token in enumerate(tokens):
        if token == UNDO_TEXT:
            if kept:
                kept.pop()
        else:
            kept.append(index)
    return kept


def _lost_at(
    games: list[Game], tokens: Sequence[str], clock: _Clock
) -> tuple[int | None, list[str]]:
    """For a history whose last position has no win: the index of the move after which none
    remained, and a winning line from the position before it. Winnable positions along the
    kept moves form their beginning (a position with a win left comes from one with a win
    left), and every later position of the history descends from the first without one, so
    bisection over the kept moves finds it in a few decisions. (None, []) when the last
    position still wins, when the deal itself does not, or when the budget could not tell."""

    def verdict(position: Game) -> tuple[str, list[str]]:
        # The move that lost the game is the report's first fact: its decisions may take up to
        # SECOND_PASS times a position's share, and a quarter of what is left.
        seconds = min(SECOND_PASS * clock.each, clock.left() / 4)
        outcome = decide(rules_for(position, DECIDE), Budget(seconds, None, cpu=True))
        return outcome.status, list(outcome.line)

    status, _ = verdict(games[-1])
    if status != UNSOLVABLE:
        return None, []
    kept = kept_moves(tokens)
    path = [games[0]] + [games[index + 1] for index in kept]
    status, line = verdict(path[0])
    if status != SOLVED:
        return None, []
    winnable, lost = 0, len(path) - 1
    while lost - winnable > 1:
        probe = (winnable + lost) // 2
        status, found = verdict(path[probe])
        if status == SOLVED:
            winnable, line = probe, found
        elif status == UNSOLVABLE:
            lost = probe
        else:
            return None, []
    return kept[winnable], line


def _settle(
    position: Game, before: Point | None, high: int | None, seconds: float
) -> tuple[Point, list[str]]:
    """A position's value within `seconds`, knowing the position one move earlier (`before`:
    a move brings a win one move closer at most) and the length of a winning line from here
    (`high`, None if none is known), with the line found (empty when none was). Deciding, then
    exact A* (`distance_of`): on real games it settles more positions in the same time than a
    depth-first search that starts at the distance before minus one."""
    if position.is_won():
        return Point(0, WON, 0, 0, 0), []
    found = distance_of(position, time_limit=seconds, known_upper=high, cpu=True)
    if found.status == NO_WIN:
        return Point(0, NO_WIN), []
    if found.status == EXACT_DISTANCE:
        d = found.distance
        return Point(0, EXACT_DISTANCE, d, d, d, found.next_move), found.line
    lower = found.lower if found.lower is not None else 0
    if before is not None and before.lower is not None:
        lower = max(lower, before.lower - 1)
    uppers = [u for u in (found.upper, high) if u is not None]
    return Point(
        0, BOUNDS, None, lower, min(uppers) if uppers else None, found.next_move
    ), found.line


def _tighten(points: list[Point], keys: Sequence[Hashable], tokens: Sequence[str]) -> None:
    """Bounds from the neighbours: a move brings a win at most one move closer, so along a
    move from F to T, d(T) >= d(F) - 1 and d(F) <= d(T) + 1 (an undo back to F is that move
    the other way round). Repeated until nothing changes; a position whose bounds meet is
    exact. Every point of a position (it may recur) gets the same values."""
    low: dict[Hashable, float] = {}
    high: dict[Hashable, float] = {}
    for point, key in zip(points, keys, strict=True):
        if point.status in (EXACT_DISTANCE, WON, BOUNDS):
            low[key] = point.low
            high[key] = point.high
    edges = [
        (keys[i + 1], keys[i]) if token == UNDO_TEXT else (keys[i], keys[i + 1])
        for i, token in enumerate(tokens)
    ]
    edges = [(f, t) for f, t in edges if f in low and t in low and f != t]
    for _ in range(len(points)):
        changed = False
        for f, t in edges:
            if low[f] - 1 > low[t]:
                low[t], changed = low[f] - 1, True
            if high[t] + 1 < high[f]:
                high[f], changed = high[t] + 1, True
        if not changed:
            break
    for point, key in zip(points, keys, strict=True):
        if point.status != BOUNDS:
            continue
        point.lower = int(low[key])
        point.upper = None if high[key] == math.inf else int(high[key])
        if point.upper is not None and point.lower >= point.upper:
            point.status, point.distance, point.lower = EXACT_DISTANCE, point.upper, point.upper


def _second_pass(
    points: list[Point],
    keys: Sequence[Hashable],
    tokens: Sequence[str],
    games: Sequence[Game],
    lines: dict[int, list[str]],
    clock: _Clock,
) -> None:
    """What the first pass left in bounds: tightened from the neighbours, then searched again
    with the budget left, the latest positions first (the cheapest, and each one settled
    tightens the rest), up to `SECOND_PASS` times a position's first share."""
    _tighten(points, keys, tokens)
    waiting = {keys[p.index]: p.index for p in reversed(points) if p.status == BOUNDS}
    for key, index in sorted(waiting.items(), key=lambda item: -item[1]):
        point = points[index]
        if point.status != BOUNDS or clock.left() <= 0:
            continue
        seconds = min(SECOND_PASS * clock.each, clock.left() / max(1, len(waiting)))
        found = distance_of(games[index], time_limit=seconds, known_upper=point.upper, cpu=True)
        if found.status == EXACT_DISTANCE and found.distance is not None:
            for other in points:
                if keys[other.index] == key:
                    other.status, other.distance = EXACT_DISTANCE, found.distance
                    other.lower = other.upper = found.distance
                    other.best = found.next_move or other.best
            if found.line:
                lines[index] = list(found.line)
            _tighten(points, keys, tokens)
        elif found.status == BOUNDS and found.lower is not None:
            for other in points:
                if keys[other.index] == key and other.lower is not None:
                    other.lower = max(other.lower, found.lower)
            _tighten(points, keys, tokens)


def _best_from(position: Game, distance: int, seconds: float) -> list[str]:
    """A shortest line from a position whose distance is known, or [] if the budget ran out."""
    if seconds <= 0:
        return []
    outcome = bounded(rules_for(position, EXACT), Budget(seconds, None, cpu=True), distance)
    return list(outcome.line) if outcome.status == SOLVED else []


def _cost(before: Point, after: Point, moves: int) -> tuple[int, bool]:
    """The moves lost by `moves` moves that led from one position to another (0 when each
    brought the win one move closer), and whether that is exact; with a bound in place of a
    distance, the least they can have lost."""
    if before.distance is not None and after.distance is not None:
        return moves + after.distance - before.distance, True
    least = moves + after.low - before.high
    return (max(0, int(least)) if least != -math.inf else 0), False


def _stretches(points: list[Point], moves: int) -> list[tuple[int, int, int, bool]]:
    """The moves that lost something, joined into stretches across gaps of at most
    `STRETCH_GAP` moves that lost nothing: (first, last, wasted, exact), costliest first. A
    detour through positions with no win, taken back, costs as one: the moves it took and
    what the position it came back to lacks of the one it left."""
    found: list[list[Any]] = []
    left = 0  # the last position with a win, where a detour without one began
    for index in range(moves):
        after = points[index + 1]
        if after.status == NO_WIN or points[left].status == NO_WIN:
            continue
        cost, exact = _cost(points[left], after, index + 1 - left)
        first, left = left, index + 1
        if cost <= 0:
            continue
        if found and first - found[-1][1] <= STRETCH_GAP + 1:
            found[-1][1] = index
            found[-1][2] += cost
            found[-1][3] = found[-1][3] and exact
        else:
            found.append([first, index, cost, exact])
    found.sort(key=lambda s: (-s[2], s[0]))
    return [(s[0], s[1], s[2], s[3]) for s in found[:STRETCHES]]


def analyse(
    game: str,
    deal_string: str,
    history: str | Sequence[str],
    *,
    par: int | None = None,
    time_limit: float | None = 60.0,
    position_limit: float | None = 2.0,
    explain: bool = True,
) -> Report:
    """The analysis of `history` played from a deal, within `time_limit` CPU seconds in all and
    at most `position_limit` for one position (None: no limit; `par`, when proven shortest, saves
    the first search). Positions the budget could not settle get proven bounds, never a guess.
    Without `explain`, the distances alone (the fair-play measure): no solver's moves, no
    stretches."""
    clock = _Clock(
        math.inf if time_limit is None else time_limit,
        math.inf if position_limit is None else position_limit,
    )
    tokens = list(split_moves(history) if isinstance(history, str) else history)
    games = _positions(game, deal_string, tokens)
    rules = rules_for(games[0], EXACT)
    keys: list[Hashable] = [rules.key(rules.state_of(g)) for g in games]
    won = games[-1].is_won()
    upper = history_upper(tokens, keys, won)
    lost_at, winning_line = (None, []) if won else _lost_at(games, tokens, clock)

    known: dict[Hashable, tuple[Point, list[str]]] = {}
    lines: dict[int, list[str]] = {}
    points: list[Point] = []
    waiting = len(tokens) + 1 if lost_at is None else lost_at + 1
    for index, here in enumerate(games):
        key = keys[index]
        if lost_at is not None and index > lost_at:
            points.append(Point(index, NO_WIN))
            continue
        if key in known:
            point, line = known[key]
            points.append(
                Point(index, point.status, point.distance, point.lower, point.upper, point.best)
            )
            lines[index] = line
            continue
        before = points[-1] if points else None
        high = upper.get(key)
        token = tokens[index - 1] if index else None
        if here.is_won():
            point, line = Point(0, WON, 0, 0, 0), []
        elif index == 0 and par is not None:
            point, line = Point(0, EXACT_DISTANCE, par, par, par), []
        elif (
            before is not None
            and token != UNDO_TEXT
            and before.distance is not None
            and high is not None
            and high == before.distance - 1
        ):
            point, line = Point(0, EXACT_DISTANCE, high, high, high), []
        else:
            point, line = _settle(here, before, high, clock.share(waiting))
        waiting = max(1, waiting - 1)
        point.index = index
        known[key] = (point, line)
        lines[index] = line
        points.append(point)

    if lost_at is None or lost_at > 0:
        _second_pass(points, keys, tokens, games, lines, clock)

    if not explain:
        return Report(points, won, lost_at, None, [], round(clock.spent, 3))
    # The solver's move from each position that has a distance and none yet: the player's own
    # move when it brought the win one move closer, else a shortest line's first move.
    for index, point in enumerate(points):
        if point.best is not None or point.status not in (EXACT_DISTANCE, BOUNDS):
            continue
        following = points[index + 1] if index + 1 < len(points) else None
        token = tokens[index] if index < len(tokens) else None
        if (
            token is not None
            and token != UNDO_TEXT
            and point.distance is not None
            and following is not None
            and following.distance == point.distance - 1
        ):
            point.best = token
        elif point.distance is not None:
            line = _best_from(games[index], point.distance, min(clock.each, clock.left()))
            if line:
                point.best, lines[index] = line[0], line

    winning_move = winning_line[0] if winning_line else None
    if lost_at is not None and points[lost_at].best is not None:
        winning_move = points[lost_at].best  # a shortest line's, when the budget found one

    stretches = []
    for first, last, wasted, exact in _stretches(points, len(tokens)):
        start = points[first]
        line = lines.get(first) or []
        if not line and start.distance is not None:
            line = _best_from(games[first], start.distance, min(clock.each, clock.left()))
        stretches.append(Stretch(first, last, wasted, exact, line[: last - first + 1]))
    return Report(points, won, lost_at, winning_move, stretches, round(clock.spent, 3))
