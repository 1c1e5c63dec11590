"""The solver: winnability certificates, pars, difficulty, distances and hints (docs/solver.md).

>>> result = solve("masterpiece", deal("masterpiece", 1), time_limit=10)
>>> result.status, result.par == len(result.moves)
('solved', True)
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from ..base import Game
from ..registry import deal, game_class
from ..replay import replay_game
from .difficulty import difficulty_inputs, difficulty_of
from .distance import Distance, Hint, distance, hint
from .par import shorten
from .registry import RULES, candidate_seconds, rules_class, rules_for
from .rules import DECIDE, EXACT, PLAIN, SolverRules
from .search import SOLVED, UNKNOWN, UNSOLVABLE, Budget, decide

__all__ = [
    "DECIDE",
    "EXACT",
    "PLAIN",
    "RULES",
    "SOLVED",
    "UNKNOWN",
    "UNSOLVABLE",
    "Budget",
    "CertificateError",
    "Distance",
    "Hint",
    "ParResult",
    "SolveResult",
    "SolverRules",
    "candidate_seconds",
    "certify",
    "deal",
    "distance",
    "hint",
    "prove_par",
    "rules_class",
    "rules_for",
    "safe_foundation_moves",
    "solve",
]


def safe_foundation_moves(game: Game) -> list[str]:
    """The foundation moves of the position `game` holds that never cost a win nor lengthen
    the shortest one: the solver's safe foundation moves (docs/solver.md, "Munger: safe
    foundation moves" and "Masterpiece: safe foundation moves"), as sorted move tokens. They
    read only what a player sees (the foundations, and Masterpiece's open rows).

    >>> from games.engine import new_game
    >>> safe_foundation_moves(new_game("munger", seed=1))  # the reserve's top is an Ace
    ['R>F']
    """
    rules = rules_for(game, EXACT)
    return rules.safe_moves(rules.state_of(game))


#: Seconds for the par search unless the caller says otherwise (or deciding took longer).
DEFAULT_PAR_TIME = 3.0


@dataclass
class SolveResult:
    """The verdict on a deal: `status` (solved, unsolvable or unknown), for a solved deal the
    certified winning line `moves`, its length `par` and `difficulty` 1..5, and `stats`
    (`stats["par_optimal"]`: no shorter line exists; `stats["par_lower_bound"]`: none shorter
    than this exists)."""

    status: str
    moves: list[str] = field(default_factory=list)
    par: int | None = None
    difficulty: int | None = None
    stats: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "status": self.status,
            "moves": self.moves,
            "par": self.par,
            "difficulty": self.difficulty,
            "stats": self.stats,
        }


@dataclass
class ParResult:
    """What `prove_par` found: `status` as `SolveResult`'s; for a winnable deal the shortest
    certified line found (`moves`, `par` its length), whether no shorter line exists
    (`optimal`) and `lower_bound`, a proven floor: no winning line is shorter (equal to `par`
    when optimal)."""

    status: str
    moves: list[str] = field(default_factory=list)
    par: int | None = None
    optimal: bool = False
    lower_bound: int | None = None
    stats: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "status": self.status,
            "moves": self.moves,
            "par": self.par,
            "optimal": self.optimal,
            "lower_bound": self.lower_bound,
            "stats": self.stats,
        }


class CertificateError(AssertionError):
    """The solver produced a line the replay verifier refused: a bug, never a verdict."""


def certify(start: Game, line: list[str]) -> None:
    """Replay `line` from `start` with the verifier; raise unless it wins."""
    verdict = replay_game(start.copy(), line)
    if not (verdict.valid and verdict.won):
        raise CertificateError(f"solver line does not win: {verdict.error or 'not won'}")


def solve(
    game: str,
    deal_string: str,
    *,
    time_limit: float | None = 10.0,
    node_limit: int | None = None,
    table_limit: int = 3_000_000,
    par_time: float | None = None,
) -> SolveResult:
    """Decide a deal, and for a winnable one find a short certified line, its par and its
    difficulty. `time_limit`, `node_limit` and `table_limit` bound the whole call; the par
    search gets what the decision left, at most `par_time` seconds (default: as long as the
    decision took, at least DEFAULT_PAR_TIME). "unsolvable" only ever means that the search
    went through every position (never that a budget ran out: that is "unknown")."""
    start = game_class(game).from_deal(deal_string)
    clock = time.perf_counter()

    decided = decide(rules_for(start, DECIDE), Budget(time_limit, node_limit, table_limit))
    stats: dict[str, Any] = {
        "nodes": decided.nodes,
        "positions": decided.positions,
        "seconds_decide": round(decided.seconds, 4),
        "table_bytes": decided.table_bytes,
    }
    if decided.stopped_by:
        stats["stopped_by"] = decided.stopped_by
    if decided.status != SOLVED:
        stats["seconds"] = round(time.perf_counter() - clock, 4)
        return SolveResult(decided.status, stats=stats)

    certify(start, decided.line)
    if par_time is None:
        par_time = max(DEFAULT_PAR_TIME, decided.seconds)
    if time_limit is not None:
        par_time = min(par_time, time_limit - (time.perf_counter() - clock))
    nodes_left = None if node_limit is None else max(0, node_limit - decided.nodes)
    short = shorten(
        start,
        decided.line,
        time_limit=max(0.0, par_time),
        node_limit=nodes_left,
        table_limit=table_limit,
    )
    best = short.line
    certify(start, best)
    stats.update(short.stats)
    stats["first_length"] = len(decided.line)
    stats["par_length"] = len(best)
    stats["par_optimal"] = short.optimal
    stats["par_lower_bound"] = short.lower_bound
    stats.update(difficulty_inputs(start, best))
    stats["seconds"] = round(time.perf_counter() - clock, 4)
    cuts = rules_class(start.name).DIFFICULTY_CUTS
    return SolveResult(
        SOLVED, best, par=len(best), difficulty=difficulty_of(stats, cuts), stats=stats
    )


def prove_par(
    game: str,
    deal_string: str,
    *,
    time_limit: float | None = None,
    node_limit: int | None = None,
    table_limit: int = 6_000_000,
    line: list[str] | None = None,
    cpu: bool = False,
) -> ParResult:
    """The shortest winning line of a deal, proven shortest when the search finishes, else the
    best line found and a proven lower bound (for background workers: this may take minutes).

    `time_limit` defaults to the game's `PAR_SECONDS` (wall clock; CPU seconds of this process
    with `cpu`, for figures taken on a shared machine); `line`, a known winning line (such as a
    stored certificate), saves deciding the deal first. The exact search uses only dominances
    that never lengthen the shortest win (docs/solver.md, "Dominances and their proofs"), so a
    `lower_bound` is a floor: no winning line is shorter. Every line returned is certified.
    """
    start = game_class(game).from_deal(deal_string)
    if time_limit is None:
        time_limit = rules_class(game).PAR_SECONDS
    now = time.process_time if cpu else time.perf_counter
    clock = now()
    stats: dict[str, Any] = {}
    if line is None:
        decided = decide(rules_for(start, DECIDE), Budget(time_limit, node_limit, table_limit, cpu))
        stats.update(
            nodes=decided.nodes,
            positions=decided.positions,
            seconds_decide=round(decided.seconds, 4),
        )
        if decided.status != SOLVED:
            if decided.stopped_by:
                stats["stopped_by"] = decided.stopped_by
            stats["seconds"] = round(now() - clock, 4)
            return ParResult(decided.status, stats=stats)
        line = decided.line
    certify(start, line)
    left = time_limit - (now() - clock)
    short = shorten(start, line, time_limit=max(0.0, left), table_limit=table_limit, cpu=cpu)
    certify(start, short.line)
    stats.update(short.stats)
    stats["first_length"] = len(line)
    stats["seconds"] = round(now() - clock, 4)
    return ParResult(SOLVED, short.line, len(short.line), short.optimal, short.lower_bound, stats)
