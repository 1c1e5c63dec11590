"""Par: shortening a winning line, and proving it shortest (docs/solver.md, "Par").

`shorten` runs beam searches of growing width (quick, broad, and good at finding short lines)
and, between them and after them, plain A* (weight 1, resumed where it stopped), which either
finishes, proving the best line optimal, or leaves a proven lower bound. Every search looks
only for lines shorter than the best known, and all use only the dominances that never lengthen
the shortest win (`rules.EXACT`).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from ..base import Game
from .registry import rules_for
from .rules import EXACT
from .search import BestFirst, Budget, Outcome, beam

#: The share of the par time the beam searches may take (A* gets as long between them).
BEAM_SHARE = 0.3
#: The first beams' width; each next width is WIDEN times wider.
FIRST_WIDTH = 100
WIDEN = 3
#: At each width, a beam per weight: 1 ranks positions by g + h; a greater weight favours the
#: positions further along, which finds lines the first misses (and misses some it finds).
BEAM_WEIGHTS = (1.0, 3.0)
#: Once a beam has shortened the line, the beams stop widening after this many widths in a
#: row found nothing shorter (until then they widen while the share lasts).
WIDTHS_WITHOUT_GAIN = 2


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
    beam_share: float = BEAM_SHARE,
    cpu: bool = False,
) -> Shortened:
    """Look for a line shorter than `line` (a winning line from `start`): after each width of
    beams (for up to `beam_share` of the time), A* for as long as that width took, then A* for
    the rest; `time_limit` in CPU seconds of this process with `cpu`."""
    now = time.process_time if cpu else time.perf_counter
    began = now()
    rules = rules_for(start, EXACT)
    root, forced = rules.root()
    lower = rules.lower_bound(root) + len(forced)
    best = list(line)
    optimal = len(best) <= lower
    nodes = positions = table_bytes = 0
    nodes_left = node_limit
    stopped = None
    exact = BestFirst(rules, weight=1, upper=len(best))

    def seconds_left(until: float | None) -> float | None:
        return None if until is None else until - now()

    def spent(seconds: float | None) -> bool:
        return (seconds is not None and seconds <= 0) or (
            nodes_left is not None and nodes_left <= 0
        )

    def count(outcome: Outcome) -> None:
        nonlocal nodes, positions, table_bytes, nodes_left
        nodes += outcome.nodes
        positions = max(positions, outcome.positions)
        table_bytes = max(table_bytes, outcome.table_bytes)
        if nodes_left is not None:
            nodes_left -= outcome.nodes

    def search_exactly(until: float | None) -> None:
        """A* on from where it stopped, until `until` (None: no time limit)."""
        nonlocal best, lower, optimal, stopped
        outcome = exact.resume(
            Budget(seconds_left(until), nodes_left, table_limit, cpu), upper=len(best)
        )
        count(outcome)
        stopped = outcome.stopped_by
        if outcome.line:
            best = outcome.line
        if outcome.lower_bound is not None:
            lower = max(lower, outcome.lower_bound)
        optimal = outcome.exhausted  # then nothing shorter than `best` exists

    end = None if time_limit is None else began + time_limit
    beam_time = None if time_limit is None else time_limit * beam_share  # the beams' share
    width, without_gain, beams = FIRST_WIDTH, 0, 0
    while not optimal and without_gain < WIDTHS_WITHOUT_GAIN:
        width_began, gain = now(), False
        for weight in BEAM_WEIGHTS:
            seconds = None if beam_time is None else beam_time - (now() - width_began)
            if spent(seconds):
                break
            outcome = beam(
                rules,
                Budget(seconds, nodes_left, table_limit, cpu),
                width=width,
                upper=len(best),
                weight=weight,
            )
            count(outcome)
            beams += 1
            if outcome.line:
                best, gain = outcome.line, True
        if gain:
            without_gain = 0
        elif len(best) < len(line):
            without_gain += 1
        took = now() - width_began
        if beam_time is not None:
            beam_time -= took
        if spent(beam_time) or len(best) <= lower:
            break
        search_exactly(None if end is None else min(end, now() + took))
        if spent(seconds_left(end)):
            break
        width *= WIDEN
    if not optimal and len(best) > lower and not spent(seconds_left(end)):
        search_exactly(end)
    if len(best) <= lower:
        optimal = True
    if optimal:
        lower = len(best)
    stats: dict[str, Any] = {
        "nodes_par": nodes,
        "positions_par": positions,
        "table_bytes_par": table_bytes,
        "beams_par": beams,
        "seconds_par": round(now() - began, 4),
    }
    if stopped and not optimal:
        stats["par_stopped_by"] = stopped
    return Shortened(best, optimal, min(lower, len(best)), stats)
