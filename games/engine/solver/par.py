"""Par: shortening a winning line, and proving it shortest (docs/solver.md, "Par").

`shorten` runs the searches of a plan in turn, each looking only for lines shorter than the
best known: a weighted A* first (quick, finds short lines), then plain A* (weight 1), which
either finishes, proving the best line optimal, or leaves a proven lower bound. Both use only
the dominances that never lengthen the shortest win (`rules.EXACT`).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from ..base import Game
from .registry import rules_for
from .rules import EXACT
from .search import Budget, best_first

#: The par plan: (weight, share of the time left), in turn. Weight 1 is exact A*.
PLAN = ((2.0, 0.3), (1.0, 1.0))


@dataclass
class Shortened:
    """The shortest line found, whether it is proven optimal, the best proven lower bound on a
    shortest line's length, and statistics."""

    line: list[str]
    optimal: bool
    lower_bound: int
    stats: dict[str, Any] = field(default_factory=dict)


def shorten(
    start: Game,
    line: list[str],
    *,
    time_limit: float | None,
    node_limit: int | None = None,
    table_limit: int = 3_000_000,
    plan: tuple[tuple[float, float], ...] = PLAN,
    cpu: bool = False,
) -> Shortened:
    """Look for a line shorter than `line` (a winning line from `start`), following `plan`;
    `time_limit` in CPU seconds of this process with `cpu`."""
    now = time.process_time if cpu else time.perf_counter
    began = now()
    rules = rules_for(start, EXACT)
    root, forced = rules.root()
    lower = rules.lower_bound(root) + len(forced)
    best = list(line)
    optimal = False
    nodes = positions = table_bytes = 0
    nodes_left = node_limit
    stopped = None
    for weight, share in plan:
        if time_limit is None:
            seconds = None
        else:
            left = time_limit - (now() - began)
            if left <= 0:
                break
            seconds = left * share
        if nodes_left is not None and nodes_left <= 0:
            break
        outcome = best_first(
            rules, Budget(seconds, nodes_left, table_limit, cpu), weight=weight, upper=len(best)
        )
        nodes += outcome.nodes
        positions = max(positions, outcome.positions)
        table_bytes = max(table_bytes, outcome.table_bytes)
        stopped = outcome.stopped_by
        if nodes_left is not None:
            nodes_left -= outcome.nodes
        if outcome.line:
            best = outcome.line
        if outcome.lower_bound is not None:
            lower = max(lower, outcome.lower_bound)
        if outcome.exhausted:
            optimal = True  # nothing shorter than `best` exists
            lower = len(best)
            break
    stats: dict[str, Any] = {
        "nodes_par": nodes,
        "positions_par": positions,
        "table_bytes_par": table_bytes,
        "seconds_par": round(now() - began, 4),
    }
    if stopped and not optimal:
        stats["par_stopped_by"] = stopped
    return Shortened(best, optimal, min(lower, len(best)), stats)
