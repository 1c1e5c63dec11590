"""The solver: winnability certificates, par and difficulty for both games (docs/solver.md).

>>> result = solve("masterpiece", deal("masterpiece", 1), time_limit=10)
>>> result.status, result.par == len(result.moves)
('solved', True)
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from ..base import Game
from ..errors import MalformedError
from ..registry import deal, game_class
from ..replay import replay_game
from .difficulty import difficulty_of
from .masterpiece import MasterpieceRules
from .munger import MungerRules
from .rules import SolverRules
from .search import Budget, Outcome, Step, best_first, first_solution, shorten

__all__ = [
    "RULES",
    "Budget",
    "SolveResult",
    "SolverRules",
    "candidate_seconds",
    "deal",
    "rules_class",
    "rules_for",
    "solve",
]

SOLVED, UNSOLVABLE, UNKNOWN = "solved", "unsolvable", "unknown"
#: Seconds for the par search unless the caller says otherwise (or deciding took longer).
DEFAULT_PAR_TIME = 3.0

#: The solver rules class of each game, by game name: the one place a game joins the solver.
RULES: dict[str, type[SolverRules]] = {
    rules.GAME.name: rules for rules in (MungerRules, MasterpieceRules)
}


def rules_class(game: str) -> type[SolverRules]:
    """The solver rules class of game `game`; `MalformedError` for a game with no solver."""
    try:
        return RULES[game]
    except (KeyError, TypeError):
        known = ", ".join(RULES)
        raise MalformedError(f"no solver for game {game!r}: the games are {known}") from None


def rules_for(game: Game, *, shortest: bool, plain: bool = False) -> Any:
    """The solver rules of a game object (played in place); `plain` turns dominances off."""
    return rules_class(game.name).for_search(game, shortest=shortest, plain=plain)


def candidate_seconds(game: str) -> float:
    """Seconds the scheduler gives the solver to decide a new candidate deal of `game`.

    >>> candidate_seconds("munger"), candidate_seconds("masterpiece")
    (10.0, 2.0)
    """
    return rules_class(game).CANDIDATE_SECONDS


@dataclass
class SolveResult:
    """The verdict on a deal: `status` (solved, unsolvable or unknown), for a solved deal the
    certified winning line `moves`, its length `par` and `difficulty` 1..5, and `stats`."""

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
    decision took, at least DEFAULT_PAR_TIME)."""
    start = game_class(game).from_deal(deal_string)
    clock = time.perf_counter()

    decided = first_solution(
        rules_for(start.copy(), shortest=False), Budget(time_limit, node_limit, table_limit)
    )
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
    first = decided.line
    best, optimal, improve = _shorten(
        start, first, decided, time_limit, node_limit, table_limit, par_time, clock
    )
    certify(start, best)
    stats.update(improve)
    stats["first_length"] = len(first)
    stats["par_length"] = len(best)
    stats["par_optimal"] = optimal
    stats.update(difficulty_inputs(start, best))
    stats["seconds"] = round(time.perf_counter() - clock, 4)
    cuts = rules_class(start.name).DIFFICULTY_CUTS
    return SolveResult(
        SOLVED, best, par=len(best), difficulty=difficulty_of(stats, cuts), stats=stats
    )


def _shorten(
    start: Game,
    first: list[str],
    decided: Outcome,
    time_limit: float | None,
    node_limit: int | None,
    table_limit: int,
    par_time: float | None,
    clock: float,
) -> tuple[list[str], bool, dict[str, Any]]:
    """Search for a line shorter than the first one, following the game's `PAR_PLAN`."""
    if par_time is None:
        par_time = max(DEFAULT_PAR_TIME, decided.seconds)
    remaining = par_time
    if time_limit is not None:
        remaining = min(remaining, time_limit - (time.perf_counter() - clock))
    nodes_left = None if node_limit is None else max(0, node_limit - decided.nodes)
    best = list(first)
    optimal = False
    nodes = positions = table_bytes = 0
    began = time.perf_counter()
    plan = rules_for(start, shortest=True).PAR_PLAN
    for method, weight, share in plan:
        left = remaining - (time.perf_counter() - began)
        if left <= 0 or nodes_left == 0:
            break
        rules = rules_for(start.copy(), shortest=True)
        budget = Budget(left * share, nodes_left, table_limit)
        if method == "best_first":
            outcome = best_first(rules, len(best), budget, weight=weight)
        else:
            outcome = shorten(rules, len(best), budget)
        nodes += outcome.nodes
        positions = max(positions, outcome.positions)
        table_bytes = max(table_bytes, outcome.table_bytes)
        if nodes_left is not None:
            nodes_left = max(0, nodes_left - outcome.nodes)
        if outcome.line:
            best = outcome.line
        if outcome.exhausted:
            optimal = True  # nothing shorter than `best` exists
            break
    return (
        best,
        optimal,
        {
            "nodes_par": nodes,
            "positions_par": positions,
            "table_bytes_par": table_bytes,
            "seconds_par": round(time.perf_counter() - began, 4),
        },
    )


def difficulty_inputs(start: Game, line: list[str]) -> dict[str, Any]:
    """What the difficulty formula reads, besides the search effort (docs/solver.md).

    Walks the par line token by token on a plain game; wherever the line continues with one of
    the solver's candidate moves, counts a decision if there were several candidates, and an
    agreement if the line took the first one (what a greedy player would play).
    """
    game = start.copy()
    rules = rules_for(game, shortest=True)
    lower = rules.lower_bound()
    choices = agreements = steps = 0
    position = 0
    while position < len(line):
        candidates = rules.moves()
        matched: Step = (line[position],)
        for step in candidates:
            if tuple(line[position : position + len(step)]) == step:
                matched = step
                steps += 1
                choices += len(candidates) > 1
                agreements += candidates[0] == step
                break
        for token in matched:
            game.push(token)
        position += len(matched)
    return {
        "lower_bound": lower,
        "decisions": choices,
        "steps": steps,
        "greedy_agreement": round(agreements / steps, 4) if steps else 1.0,
        "greedy_reach": greedy_reach(start),
    }


#: Steps a greedy player plays at most, in `greedy_reach`.
GREEDY_STEPS = 400


def greedy_reach(start: Game) -> int:
    """Foundation cards a greedy player reaches: always the first candidate step not leading
    back to a position seen before, no backtracking, at most GREEDY_STEPS steps."""
    game = start.copy()
    rules = rules_for(game, shortest=True)
    rules.start()  # the game is a copy: nothing to take back
    seen = {rules.key()}
    for _ in range(GREEDY_STEPS):
        if rules.won():
            break
        for step in rules.moves():
            undo = rules.play(step)
            key = rules.key()
            if key not in seen:
                seen.add(key)
                break
            rules.unplay(undo)
        else:
            break
    return game.foundation_cards
