"""The searches: depth-first deciding, and best-first (A*) search for short and shortest lines.

The searches know nothing of either game: a game's solver rules (`rules.SolverRules`) give the
root state, each state's candidate steps with the states they lead to and their cost in move
tokens, an exact key, a lower bound on the moves still needed and a quick dead-position test.
States are immutable, so a search keeps the states it still has to expand and nothing else.

- `decide`: depth-first search with a table of the keys seen. A position seen before is never
  expanded again, so when the stack empties every position reachable under the rules was
  expanded or proved dead: the deal is unsolvable. That is the only way this module ever says
  "unsolvable".
- `best_first`: A* on `g + weight * h`, where `g` is the number of tokens played and `h` the
  lower bound; it never expands a position whose `g + h` cannot beat the best line known. With
  `weight` 1 and a finished search the line it returns is a shortest one, and if a budget runs
  out it still knows a proven lower bound on the shortest line: the least `g + h` of the
  positions it had yet to expand.
"""

from __future__ import annotations

import heapq
import sys
import time
from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import Any

from .rules import SolverRules, Step

SOLVED, UNSOLVABLE, UNKNOWN = "solved", "unsolvable", "unknown"


@dataclass
class Budget:
    """Limits of one search; None means no limit. `table_limit` caps the positions kept.
    `time_limit` is wall-clock seconds, or CPU seconds of this process with `cpu` (figures
    taken on a shared machine)."""

    time_limit: float | None = 10.0
    node_limit: int | None = None
    table_limit: int = 3_000_000
    cpu: bool = False


@dataclass
class Outcome:
    """What a search found: `status` solved (with `line`), unsolvable or unknown; for a
    best-first search, whether it finished (`exhausted`: no line shorter than `line` exists, or
    none at all if `line` is empty) and a proven lower bound on the length of a shortest line
    (`lower_bound`, None when no win exists)."""

    status: str
    line: list[str] = field(default_factory=list)
    nodes: int = 0
    positions: int = 0
    seconds: float = 0.0
    table_bytes: int = 0
    exhausted: bool = False
    stopped_by: str | None = None  # "time", "nodes" or "table" when a budget ran out
    lower_bound: int | None = None
    steps: list[Step] = field(default_factory=list)


class _Stop(Exception):
    def __init__(self, reason: str):
        self.reason = reason


class _Clock:
    def __init__(self, budget: Budget):
        self.budget = budget
        self.now = time.process_time if budget.cpu else time.perf_counter
        self.start = self.now()
        self.deadline = None if budget.time_limit is None else self.start + budget.time_limit

    def check(self, nodes: int, positions: int) -> None:
        b = self.budget
        if self.deadline is not None and self.now() > self.deadline:
            raise _Stop("time")
        if b.node_limit is not None and nodes >= b.node_limit:
            raise _Stop("nodes")
        if positions >= b.table_limit:
            raise _Stop("table")

    @property
    def seconds(self) -> float:
        return self.now() - self.start


#: How many generated positions between two looks at the clock.
CHECK_EVERY = 256


def _hooks(rules: SolverRules) -> tuple[Any, Any, Any, Any, Any]:
    """What the searches call for each position, bound to locals for speed: the key, the
    children, the lower bound, the won test and the dead test."""
    return rules.key, rules.children, rules.lower_bound, rules.won, rules.dead


def _table_bytes(table: dict[Any, Any] | set[Any], key_bytes: int) -> int:
    return sys.getsizeof(table) + key_bytes


def decide(rules: SolverRules, budget: Budget, *, start: Any = None) -> Outcome:
    """Depth-first search for any winning line (see the module docstring), from the rules'
    root or from the state `start`."""
    clock = _Clock(budget)
    root, prefix = rules.root() if start is None else (start, [])
    if rules.won(root):
        return Outcome(SOLVED, prefix, seconds=clock.seconds, exhausted=True)
    key = rules.key
    table: set[Hashable] = {key(root)}
    key_bytes = 0
    nodes = 0
    if rules.dead(root):
        return Outcome(UNSOLVABLE, [], 0, 1, clock.seconds, 0, exhausted=True)
    frames: list[tuple[list[Any], int]] = []
    path: list[Step] = []
    children = rules.children(root)
    index = 0
    won, dead = rules.won, rules.dead
    quiet = rules.QUIET_STEPS
    try:
        while True:
            if index >= len(children):
                if not frames:
                    return Outcome(
                        UNSOLVABLE,
                        [],
                        nodes,
                        len(table),
                        clock.seconds,
                        _table_bytes(table, key_bytes),
                        exhausted=True,
                    )
                children, index = frames.pop()
                path.pop()
                continue
            step, child, _ = children[index]
            index += 1
            nodes += 1
            if nodes % CHECK_EVERY == 0:
                clock.check(nodes, len(table))
            k = key(child)
            if k in table:
                continue
            table.add(k)
            key_bytes += sys.getsizeof(k)
            if won(child):
                path.append(step)
                return Outcome(
                    SOLVED,
                    prefix + rules.line(path, root),
                    nodes,
                    len(table),
                    clock.seconds,
                    _table_bytes(table, key_bytes),
                    steps=list(path),
                )
            if step[0] not in quiet and dead(child):
                continue
            frames.append((children, index))
            path.append(step)
            children = rules.children(child)
            index = 0
    except _Stop as stop:
        return Outcome(
            UNKNOWN,
            [],
            nodes,
            len(table),
            clock.seconds,
            _table_bytes(table, key_bytes),
            stopped_by=stop.reason,
        )


def best_first(
    rules: SolverRules,
    budget: Budget,
    *,
    weight: float = 1.0,
    upper: int | None = None,
) -> Outcome:
    """A* for a line shorter than `upper` tokens (any line if None): see the module docstring.

    Returns "solved" with the shortest line found, "unsolvable" when the search finished without
    a line and no `upper` was given (no line wins at all), else "unknown". `exhausted` is True
    when the search finished: then no line shorter than the one returned (or than `upper`, if it
    returned none) exists. `lower_bound` is a proven lower bound on the shortest line when
    `weight` is 1 (with a finished search it is the shortest line's length).
    """
    return BestFirst(rules, weight=weight, upper=upper).resume(budget)


class BestFirst:
    """The A* of `best_first`, which can be stopped by a budget and resumed with a new one
    (keeping every position it has seen), and told of shorter lines found meanwhile by other
    searches (`resume(upper=...)`): the par search runs it between its beams."""

    def __init__(self, rules: SolverRules, *, weight: float = 1.0, upper: int | None = None):
        self.rules = rules
        self.weight = weight
        self.root, prefix = rules.root()
        self.prefix = prefix
        self.start = len(prefix)
        self.upper = upper
        self.best = sys.maxsize if upper is None else upper
        self.root_key = rules.key(self.root)
        # key -> (tokens to reach it, the key it was reached from, the step from there)
        self.table: dict[Hashable, tuple[int, Hashable, Step | None]] = {
            self.root_key: (self.start, None, None)
        }
        self.key_bytes = sys.getsizeof(self.root_key)
        h0 = rules.lower_bound(self.root)
        self.heap: list[tuple[float, int, int, int, Any, Hashable]] = [
            (self.start + weight * h0, 0, 0, self.start, self.root, self.root_key)
        ]
        self.counter = 0
        self.nodes = 0
        self.goal: Hashable | None = None
        # the least g + h of the open positions seen so far, when the weight is 1
        self.floor = float(self.start + h0)
        self.exhausted = False
        self.won_root = rules.won(self.root)

    def resume(self, budget: Budget, *, upper: int | None = None) -> Outcome:
        """Search on within `budget`, for lines shorter than `upper` too if given (a line found
        elsewhere); returns what the search knows now, as `best_first` does."""
        clock = _Clock(budget)
        if upper is not None and upper <= self.best:
            self.best = upper  # a line found elsewhere: look only for shorter ones
            self.upper = upper
            self.goal = None  # what this search found is no shorter than that line
        if self.won_root:  # the forced moves win: nothing is shorter
            found = self.start < self.best
            return Outcome(
                SOLVED if found else UNKNOWN,
                self.prefix if found else [],
                exhausted=True,
                lower_bound=self.start,
                seconds=clock.seconds,
            )
        rules, weight, table, heap = self.rules, self.weight, self.table, self.heap
        key, children, bound, won, dead = _hooks(rules)
        best, nodes, floor, counter = self.best, self.nodes, self.floor, self.counter
        key_bytes = self.key_bytes
        nodes_before = nodes
        stopped = None
        entry = None  # the position being expanded: queued again if a budget stops it
        first = True  # a budget never stops the first expansion: each resume gets somewhere
        try:
            while heap and not self.exhausted:
                entry = heapq.heappop(heap)
                g, state, k = entry[3], entry[4], entry[5]
                if table[k][0] < g:
                    continue  # reached more cheaply since it was queued
                h = bound(state) if weight != 1 else int(entry[0]) - g
                if g + h >= best:
                    if weight == 1:
                        break  # every open position is at least as long
                    continue
                if weight == 1 and g + h > floor:
                    floor = float(g + h)  # the least g + h open: a floor (h never overestimates)
                if dead(state):
                    continue
                for step, child, cost in children(state):
                    nodes += 1
                    if nodes % CHECK_EVERY == 0 and not first:
                        clock.check(nodes - nodes_before, len(table))
                    reached = g + cost
                    if reached >= best:
                        continue
                    ck = key(child)
                    seen = table.get(ck)
                    if seen is not None and seen[0] <= reached:
                        continue
                    if won(child):
                        best = reached
                        self.goal = ck
                        table[ck] = (reached, k, step)
                        continue
                    ch = bound(child)
                    if ch < h - cost:
                        ch = h - cost  # still a floor: h <= cost + the child's distance
                    if reached + ch >= best:
                        continue
                    if seen is None:
                        key_bytes += sys.getsizeof(ck)
                    table[ck] = (reached, k, step)
                    counter += 1
                    heapq.heappush(
                        heap, (reached + weight * ch, -reached, counter, reached, child, ck)
                    )
                first = False
            self.exhausted = True
        except _Stop as stop:
            stopped = stop.reason
            assert entry is not None
            heapq.heappush(heap, entry)  # its children are looked at again when resumed
            if weight == 1:
                floor = max(floor, min(e[0] for e in heap))
        self.best, self.nodes, self.floor, self.counter = best, nodes, floor, counter
        self.key_bytes = key_bytes
        return self._outcome(nodes - nodes_before, clock.seconds, stopped)

    def _outcome(self, nodes: int, seconds: float, stopped: str | None) -> Outcome:
        line: list[str] = []
        steps: list[Step] = []
        if self.goal is not None:
            steps = _steps_to(self.rules, self.table, self.goal, self.root, self.root_key)
            line = self.rules.line(steps)
            assert len(line) <= self.best, (len(line), self.best)
        if self.goal is not None:
            status = SOLVED
        elif self.exhausted and self.upper is None:
            status = UNSOLVABLE
        else:
            status = UNKNOWN
        lower: int | None
        if self.weight != 1:
            lower = None
        elif self.exhausted:
            lower = self.best if self.goal is not None or self.upper is not None else None
        else:
            lower = int(self.floor)
        return Outcome(
            status,
            line,
            nodes,
            len(self.table),
            seconds,
            _table_bytes(self.table, self.key_bytes),
            exhausted=self.exhausted,
            stopped_by=stopped,
            lower_bound=lower,
            steps=steps,
        )


def beam(
    rules: SolverRules,
    budget: Budget,
    *,
    width: int,
    upper: int | None = None,
    weight: float = 1.0,
) -> Outcome:
    """Beam search for a line shorter than `upper` tokens (any line if None): layer by layer
    (a layer is the positions one step further from the root), it keeps only the `width`
    positions of least `g + weight * h` (ties: least `h`, the furthest along), never one whose
    `g + h` cannot beat the best line known, and expands those.

    It proves nothing (a position left out of the beam may be the one that leads to a short
    line), so it never says "unsolvable" and gives no lower bound; but it spends its time along
    a broad front rather than deep in one corner, and finds short lines fast where weighted A*
    wanders (docs/solver.md, "Par"). Returns "solved" with the shortest line it found, else
    "unknown" (`exhausted`: the beam emptied before the budget ran out).
    """
    clock = _Clock(budget)
    root, prefix = rules.root()
    start = len(prefix)
    best = sys.maxsize if upper is None else upper
    if rules.won(root):
        status = SOLVED if start < best else UNKNOWN
        line = prefix if status == SOLVED else []
        return Outcome(status, line, exhausted=True, seconds=clock.seconds)
    key, children, bound, won, dead = _hooks(rules)
    # Each layer: (tokens to reach it, state, index of its parent in the layer before, step).
    layers: list[list[tuple[int, Any, int, Step]]] = [[(start, root, -1, ())]]
    kept: dict[Hashable, int] = {key(root): start}  # keys of the positions kept, and their g
    key_bytes = 0
    nodes = 0
    goal: tuple[int, int, Step] | None = None  # (layer, parent index, step) of the best line
    try:
        while layers[-1]:
            found: dict[Hashable, tuple[float, int, int, Any, int, Step]] = {}
            for index, (g, state, _, _) in enumerate(layers[-1]):
                if dead(state):
                    continue
                for step, child, cost in children(state):
                    nodes += 1
                    if nodes % CHECK_EVERY == 0:
                        clock.check(nodes, len(kept))
                    reached = g + cost
                    if reached >= best:
                        continue
                    if won(child):
                        best = reached
                        goal = (len(layers) - 1, index, step)
                        continue
                    ck = key(child)
                    seen = kept.get(ck)
                    if seen is not None and seen <= reached:
                        continue
                    other = found.get(ck)
                    if other is not None and other[2] <= reached:
                        continue
                    h = bound(child)
                    if reached + h >= best:
                        continue
                    found[ck] = (reached + weight * h, h, reached, child, index, step)
            chosen = sorted(found.items(), key=lambda item: item[1][:2])[:width]
            layer = []
            for ck, (_, h, reached, child, index, step) in chosen:
                if reached + h >= best:
                    continue
                if ck not in kept:
                    key_bytes += sys.getsizeof(ck)
                kept[ck] = reached
                layer.append((reached, child, index, step))
            layers.append(layer)
        exhausted, stopped = True, None
    except _Stop as stop:
        exhausted, stopped = False, stop.reason
    line = []
    steps: list[Step] = []
    if goal is not None:
        depth, index, last = goal
        steps = [last]
        while depth > 0:
            entry = layers[depth][index]
            steps.append(entry[3])
            index = entry[2]
            depth -= 1
        steps.reverse()
        line = rules.line(steps)
        assert len(line) == best, (len(line), best)
    return Outcome(
        SOLVED if goal is not None else UNKNOWN,
        line,
        nodes,
        len(kept),
        clock.seconds,
        _table_bytes(kept, key_bytes),
        exhausted=exhausted,
        stopped_by=stopped,
        steps=steps,
    )


def _steps_to(
    rules: SolverRules,
    table: dict[Hashable, tuple[int, Hashable, Step | None]],
    goal: Hashable,
    root: Any,
    root_key: Hashable,
) -> list[Step]:
    """The steps from the root to `goal` along the table's links.

    The links name keys, and a key stands for every position equal up to symmetry, so the steps
    are found again going forward: from the actual state, the cheapest child with the next key.
    """
    keys = []
    k: Hashable = goal
    while k != root_key:
        keys.append(k)
        k = table[k][1]
    keys.reverse()
    steps = []
    state = root
    for wanted in keys:
        found = None
        for step, child, cost in rules.children(state):
            if rules.key(child) == wanted and (found is None or cost < found[2]):
                found = (step, child, cost)
        assert found is not None, "a table link without a step"
        steps.append(found[0])
        state = found[1]
    return steps


def bounded(rules: SolverRules, budget: Budget, limit: int) -> Outcome:
    """Depth-first search for any line of at most `limit` tokens, children tried in order of
    `cost + lower bound` (the most promising first).

    Prunes a position whose tokens played plus lower bound exceed `limit`, and one already
    reached in as few tokens. Returns "solved" with the first such line found; when the search
    finishes without one, `exhausted` is True: no line of at most `limit` tokens exists. Cheaper
    than `best_first` when a line within the limit exists (it dives rather than widening).
    """
    clock = _Clock(budget)
    root, prefix = rules.root()
    start = len(prefix)
    if rules.won(root):
        status = SOLVED if start <= limit else UNKNOWN
        return Outcome(status, prefix if start <= limit else [], exhausted=True)
    key, children, bound, won, dead = _hooks(rules)
    if start + bound(root) > limit or dead(root):
        return Outcome(UNKNOWN, [], 0, 1, clock.seconds, exhausted=True, lower_bound=limit + 1)
    table: dict[Hashable, int] = {key(root): start}
    key_bytes = 0
    nodes = 0

    def ordered(state: Any, g: int) -> list[tuple[int, int, Step, Any]]:
        found = []
        for step, child, cost in children(state):
            found.append((g + cost + bound(child), g + cost, step, child))
        found.sort(key=lambda item: item[0])
        return found

    frames: list[tuple[list[tuple[int, int, Step, Any]], int]] = []
    path: list[Step] = []
    current = ordered(root, start)
    index = 0
    try:
        while True:
            if index >= len(current):
                if not frames:
                    return Outcome(
                        UNKNOWN,
                        [],
                        nodes,
                        len(table),
                        clock.seconds,
                        _table_bytes(table, key_bytes),
                        exhausted=True,
                        lower_bound=limit + 1,
                    )
                current, index = frames.pop()
                path.pop()
                continue
            f, reached, step, child = current[index]
            index += 1
            nodes += 1
            if nodes % CHECK_EVERY == 0:
                clock.check(nodes, len(table))
            if reached > limit:
                continue
            if won(child):
                path.append(step)
                return Outcome(
                    SOLVED,
                    rules.line(path),
                    nodes,
                    len(table),
                    clock.seconds,
                    _table_bytes(table, key_bytes),
                    steps=list(path),
                )
            if f > limit:
                continue
            k = key(child)
            seen = table.get(k)
            if seen is not None and seen <= reached:
                continue
            if seen is None:
                key_bytes += sys.getsizeof(k)
            table[k] = reached
            if dead(child):
                continue
            frames.append((current, index))
            path.append(step)
            current = ordered(child, reached)
            index = 0
    except _Stop as stop:
        return Outcome(
            UNKNOWN,
            [],
            nodes,
            len(table),
            clock.seconds,
            _table_bytes(table, key_bytes),
            stopped_by=stop.reason,
        )
