"""Depth-first search with an explicit stack, a transposition table and budgets.

The search knows nothing of either game: a `Rules` object (one per game, in this package)
generates moves in a preferred order, plays and takes them back in place, and gives each
position an exact canonical key and an admissible lower bound on the moves still needed.

Two passes share this code:

- `first_solution`: plain DFS with a visited set. A position seen before is never expanded
  again, so when the stack empties every reachable position was expanded: the deal is
  unsolvable. That is the only way this module ever says "unsolvable".
- `shorten`: depth-first branch and bound from the first solution's length. The table maps a
  position to the fewest moves it was reached in; a position reached again in fewer moves is
  expanded again, and a node whose depth plus lower bound cannot beat the best line is cut. If
  it finishes inside its budget, the line it returns is a shortest one.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

#: One step of the search: the move tokens (docs/rules.md, "Move notation") that the rules
#: play as one move of the search tree, such as `("S>W", "S>W", "W>T3")`: draw twice, then
#: play the waste top. Not the engine's `Move`, which is a single token.
Step = tuple[str, ...]


class Rules(Protocol):
    """What a game's solver rules provide to the search."""

    def moves(self) -> Sequence[Step]:
        """The candidate steps of the current position, best first."""

    def play(self, step: Step) -> Any:
        """Play a step and the safe automatic moves after it; return what `unplay` needs."""

    def unplay(self, undo: Any) -> None: ...

    def key(self) -> Hashable:
        """An exact key of the position, equal for positions equal up to symmetry."""

    def won(self) -> bool: ...

    def lower_bound(self) -> int:
        """Moves still needed, never more than the truth (for branch and bound)."""

    def start(self) -> Any:
        """Play the forced moves of the start position; like `play` of an empty move."""


@dataclass
class Budget:
    """Limits of one search; None means no limit. `table_limit` caps the position table."""

    time_limit: float | None = 10.0
    node_limit: int | None = None
    table_limit: int = 3_000_000


@dataclass
class Outcome:
    status: str  # "solved", "unsolvable" or "unknown"
    line: list[str] = field(default_factory=list)
    nodes: int = 0
    positions: int = 0
    seconds: float = 0.0
    table_bytes: int = 0
    exhausted: bool = False
    stopped_by: str | None = None  # "time", "nodes" or "table" when a budget ran out


class _Stop(Exception):
    def __init__(self, reason: str):
        self.reason = reason


class _Clock:
    def __init__(self, budget: Budget):
        self.budget = budget
        self.start = time.perf_counter()
        self.deadline = None if budget.time_limit is None else self.start + budget.time_limit

    def check(self, nodes: int, positions: int) -> None:
        b = self.budget
        if self.deadline is not None and time.perf_counter() > self.deadline:
            raise _Stop("time")
        if b.node_limit is not None and nodes >= b.node_limit:
            raise _Stop("nodes")
        if positions >= b.table_limit:
            raise _Stop("table")

    @property
    def seconds(self) -> float:
        return time.perf_counter() - self.start


CHECK_EVERY = 512


def _table_bytes(table: dict[Any, Any], key_bytes: int) -> int:
    return sys.getsizeof(table) + key_bytes


def first_solution(rules: Rules, budget: Budget) -> Outcome:
    """Depth-first search for any winning line (see the module docstring)."""
    clock = _Clock(budget)
    undos: list[Any] = [rules.start()]
    if rules.won():
        line = list(undos[0][0])
        rules.unplay(undos.pop())
        return Outcome("solved", line, seconds=clock.seconds)
    table: dict[Hashable, None] = {rules.key(): None}
    key_bytes = 0
    nodes = 0
    frames: list[tuple[Sequence[Step], int]] = []  # (steps, next index)
    moves = rules.moves()
    index = 0
    try:
        while True:
            if index >= len(moves):
                if not frames:
                    return Outcome(
                        "unsolvable",
                        [],
                        nodes,
                        len(table),
                        clock.seconds,
                        _table_bytes(table, key_bytes),
                        exhausted=True,
                    )
                rules.unplay(undos.pop())
                moves, index = frames.pop()
                continue
            move = moves[index]
            index += 1
            nodes += 1
            if nodes % CHECK_EVERY == 0:
                clock.check(nodes, len(table))
            undo = rules.play(move)
            if rules.won():
                undos.append(undo)
                tokens = [t for undo_ in undos for t in undo_[0]]
                return Outcome(
                    "solved",
                    tokens,
                    nodes,
                    len(table),
                    clock.seconds,
                    _table_bytes(table, key_bytes),
                )
            key = rules.key()
            if key in table:
                rules.unplay(undo)
                continue
            table[key] = None
            key_bytes += sys.getsizeof(key)
            undos.append(undo)
            frames.append((moves, index))
            moves = rules.moves()
            index = 0
    except _Stop as stop:
        return Outcome(
            "unknown",
            [],
            nodes,
            len(table),
            clock.seconds,
            _table_bytes(table, key_bytes),
            stopped_by=stop.reason,
        )
    finally:
        while undos:
            rules.unplay(undos.pop())


def shorten(rules: Rules, best: int, budget: Budget) -> Outcome:
    """Branch and bound for a line shorter than `best` tokens (see the module docstring).

    Returns "solved" with the shortest line found (empty if none beat `best`); `exhausted`
    is True when the search finished, which proves no line shorter than the answer exists.
    """
    clock = _Clock(budget)
    undos: list[Any] = [rules.start()]
    depth = len(undos[0][0])
    table: dict[Hashable, int] = {rules.key(): depth}
    key_bytes = 0
    nodes = 0
    found: list[str] = []
    frames: list[tuple[Sequence[Step], int, int]] = []  # (steps, next index, depth)
    moves = rules.moves()
    index = 0
    try:
        while True:
            if index >= len(moves):
                if not frames:
                    return Outcome(
                        "solved",
                        found,
                        nodes,
                        len(table),
                        clock.seconds,
                        _table_bytes(table, key_bytes),
                        exhausted=True,
                    )
                rules.unplay(undos.pop())
                moves, index, depth = frames.pop()
                continue
            move = moves[index]
            index += 1
            nodes += 1
            if nodes % CHECK_EVERY == 0:
                clock.check(nodes, len(table))
            undo = rules.play(move)
            reached = depth + len(undo[0])
            if rules.won():
                if reached < best:
                    best = reached
                    found = [t for u in undos for t in u[0]] + list(undo[0])
                rules.unplay(undo)
                continue
            if reached + rules.lower_bound() >= best:
                rules.unplay(undo)
                continue
            key = rules.key()
            seen = table.get(key)
            if seen is not None and seen <= reached:
                rules.unplay(undo)
                continue
            if seen is None:
                key_bytes += sys.getsizeof(key)
            table[key] = reached
            undos.append(undo)
            frames.append((moves, index, depth))
            depth = reached
            moves = rules.moves()
            index = 0
    except _Stop as stop:
        return Outcome(
            "solved",
            found,
            nodes,
            len(table),
            clock.seconds,
            _table_bytes(table, key_bytes),
            stopped_by=stop.reason,
        )
    finally:
        while undos:
            rules.unplay(undos.pop())


def best_first(rules: Rules, best: int, budget: Budget, *, weight: float = 2.0) -> Outcome:
    """Weighted A* for a line shorter than `best` tokens: expand the open position with the
    least `depth + weight * lower_bound`, never one that cannot beat `best`.

    Positions are not stored: each node keeps its parent and move, and the search walks the one
    game object from node to node (taking back to the common ancestor, then playing forward).
    With `weight` 1 and a finished search, the line is a shortest one.
    """
    import heapq

    clock = _Clock(budget)
    root = rules.start()
    prefix = list(root[0])
    if rules.won():
        rules.unplay(root)
        return Outcome("solved", prefix, seconds=clock.seconds, exhausted=True)
    # Node i: parents[i], moves[i] (the move from its parent), depths[i] (tokens from root).
    parents: list[int] = [-1]
    node_moves: list[Step] = [()]
    depths: list[int] = [len(prefix)]
    table: dict[Hashable, int] = {rules.key(): len(prefix)}
    key_bytes = 0
    heap: list[tuple[float, int, int]] = [(0.0, 0, 0)]
    path: list[int] = [0]  # nodes from the root to where the game object stands
    undos: list[Any] = []
    nodes = 0
    found: list[str] = []
    try:
        while heap:
            f_value, _, node = heapq.heappop(heap)
            depth = depths[node]
            # Walk the game object to `node`.
            chain = []
            walk = node
            while walk != -1:
                chain.append(walk)
                walk = parents[walk]
            chain.reverse()
            common = 0
            while common < len(path) and common < len(chain) and path[common] == chain[common]:
                common += 1
            while len(path) > common:
                path.pop()
                rules.unplay(undos.pop())
            for step in chain[common:]:
                undos.append(rules.play(node_moves[step]))
                path.append(step)
            if table.get(rules.key(), depth) < depth:
                continue  # reached more cheaply since it was queued
            for move in rules.moves():
                nodes += 1
                if nodes % CHECK_EVERY == 0:
                    clock.check(nodes, len(table))
                undo = rules.play(move)
                reached = depth + len(undo[0])
                if rules.won():
                    if reached < best:
                        best = reached
                        line = [t for u in undos for t in u[0]] + list(undo[0])
                        found = prefix + line
                    rules.unplay(undo)
                    continue
                bound = rules.lower_bound()
                if reached + bound >= best:
                    rules.unplay(undo)
                    continue
                key = rules.key()
                seen = table.get(key)
                if seen is None or reached < seen:
                    if seen is None:
                        key_bytes += sys.getsizeof(key)
                    table[key] = reached
                    parents.append(node)
                    node_moves.append(move)
                    depths.append(reached)
                    heapq.heappush(heap, (reached + weight * bound, len(parents), len(parents) - 1))
                rules.unplay(undo)
        return Outcome(
            "solved",
            found,
            nodes,
            len(table),
            clock.seconds,
            _table_bytes(table, key_bytes),
            exhausted=True,
        )
    except _Stop as stop:
        return Outcome(
            "solved",
            found,
            nodes,
            len(table),
            clock.seconds,
            _table_bytes(table, key_bytes),
            stopped_by=stop.reason,
        )
    finally:
        while undos:
            rules.unplay(undos.pop())
        rules.unplay(root)
