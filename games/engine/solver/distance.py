"""Distance to a win from any position, hints, and the move-by-move check of a history
(docs/solver.md, "Distance and hints").

A position is given as a deal and a move history (tokens of docs/rules.md, `U` included), as
the service stores an attempt. The solver knows the whole deal, Munger's face-down cards and
stock included; `hint` answers with a move token or an undo count only, so nothing it returns
names a card the player has not seen.

- `distance`: the fewest moves left to win, exact when the search finishes, else proven bounds;
  the next move of a shortest line (or of a winning line); or "no win from here".
- `hint`: a move that keeps a win within reach, or the fewest undos after which a win exists.
- `history_upper`: the bounds a won history gives each of its positions (the move-by-move
  analysis of a game, `analysis.analyse`, and the fair-play measure walk them).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..base import Game
from ..moves import UNDO_TEXT, split_moves
from ..registry import game_class
from .registry import rules_for
from .rules import DECIDE, EXACT
from .search import SOLVED, UNSOLVABLE, Budget, best_first, decide

#: What `distance` and `Hint` answer.
EXACT_DISTANCE = "exact"  # `distance` is the fewest moves left
BOUNDS = "bounds"  # lower <= fewest moves left <= upper (upper None: no line known)
NO_WIN = "no_win"  # no line from here wins
WON = "won"  # the position is won
MOVE = "move"  # hint: play `move`
UNDO = "undo"  # hint: undo `undo` moves, then a win exists
UNKNOWN = "unknown"  # a budget ran out first


@dataclass
class Distance:
    """How far a position is from a win. `next_move` is the first move of the line found: a
    shortest one when `status` is exact, else a winning one (None without a line). `line` is
    that whole line: for the server's own checks, never for players (in Munger it follows the
    face-down cards)."""

    status: str
    distance: int | None = None
    lower: int | None = None
    upper: int | None = None
    next_move: str | None = None
    line: list[str] = field(default_factory=list, repr=False)
    stats: dict[str, Any] = field(default_factory=dict)


@dataclass
class Hint:
    """A hint for a player: `status` move (play `move`), undo (take back `undo` moves: then a win
    exists again), won, or unknown (the budget ran out). `line`, with a move, is the whole
    winning line it starts: for the server's own memory of lines, never for players (in Munger
    it follows the face-down cards); `to_json` carries nothing else."""

    status: str
    move: str | None = None
    undo: int | None = None
    line: list[str] = field(default_factory=list, repr=False)

    def to_json(self) -> dict[str, Any]:
        return {"status": self.status, "move": self.move, "undo": self.undo}


def position(game: str, deal_string: str, history: str | Sequence[str]) -> Game:
    """The position a history reaches from a deal (`U` undoes); a malformed or illegal token
    raises the engine's `MalformedError` or `IllegalMoveError`, naming it."""
    start = game_class(game).from_deal(deal_string)
    for token in split_moves(history) if isinstance(history, str) else history:
        start.push(token)
    return start


def _budget(
    time_limit: float | None, node_limit: int | None, table_limit: int, cpu: bool = False
) -> Budget:
    return Budget(time_limit, node_limit, table_limit, cpu)


def distance_of(
    game: Game,
    *,
    time_limit: float | None = 10.0,
    node_limit: int | None = None,
    table_limit: int = 3_000_000,
    known_upper: int | None = None,
    cpu: bool = False,
) -> Distance:
    """`distance` for an engine position (the game object is not changed); with `cpu`, the
    time limit counts CPU seconds of the process rather than the wall clock's.

    Deciding comes first (a third of the time): it finds a winning line, an upper bound, or
    proves that none exists. Exact A* then looks for shorter lines with what is left; when it
    finishes the best line is a shortest one.
    """
    now = time.process_time if cpu else time.perf_counter
    clock = now()
    if game.is_won():
        return Distance(WON, 0, 0, 0)
    share = None if time_limit is None else time_limit / 3
    decided = decide(rules_for(game, DECIDE), _budget(share, node_limit, table_limit, cpu))
    stats: dict[str, Any] = {"nodes_decide": decided.nodes}
    if decided.status == UNSOLVABLE:
        return Distance(NO_WIN, stats=stats)
    line = decided.line if decided.status == SOLVED else []
    upper = len(line) if line else known_upper
    if line and known_upper is not None and known_upper < len(line):
        upper = known_upper
    left = None if time_limit is None else max(0.0, time_limit - (now() - clock))
    exact = best_first(
        rules_for(game, EXACT), _budget(left, node_limit, table_limit, cpu), weight=1, upper=upper
    )
    stats["nodes_exact"] = exact.nodes
    stats["seconds"] = round(now() - clock, 4)
    if exact.line:
        line = exact.line
    if exact.exhausted:
        if line and (upper is None or len(line) <= upper):
            return Distance(EXACT_DISTANCE, len(line), len(line), len(line), line[0], line, stats)
        if exact.status == UNSOLVABLE:
            return Distance(NO_WIN, stats=stats)
        # Nothing is shorter than the caller's known line (`known_upper`, shorter than any line
        # deciding found): its length is the distance, though no line of it is at hand here.
        return Distance(EXACT_DISTANCE, upper, upper, upper, None, [], stats)
    lower = exact.lower_bound
    return Distance(
        BOUNDS,
        None,
        lower,
        len(line) if line else upper,
        line[0] if line else None,
        line,
        stats,
    )


def distance(
    game: str,
    deal_string: str,
    history: str | Sequence[str] = (),
    *,
    time_limit: float | None = 10.0,
    node_limit: int | None = None,
    table_limit: int = 3_000_000,
) -> Distance:
    """The fewest moves left to win from the position `history` reaches from the deal: exact,
    or proven bounds when the budget runs out, with the next move of a shortest (or winning)
    line; or "no win from here".

    >>> from games.engine import deal
    >>> d = distance("masterpiece", deal("masterpiece", 1), time_limit=30)
    >>> d.status, d.distance == len(d.line), d.next_move == d.line[0]
    ('exact', True, True)
    """
    return distance_of(
        position(game, deal_string, history),
        time_limit=time_limit,
        node_limit=node_limit,
        table_limit=table_limit,
    )


def hint(
    game: str,
    deal_string: str,
    history: str | Sequence[str] = (),
    *,
    time_limit: float | None = 1.0,
    table_limit: int = 3_000_000,
) -> Hint:
    """A move that keeps a win within reach from the position `history` reaches, or, when no
    win exists from there, the fewest moves to undo before one does again.

    Winnable positions along a history form its beginning (a position that reaches a winnable
    one is winnable), so the undo count is found by bisection: a few decisions, not one per
    move. Only a move token or a count is returned: nothing names a card the player has not
    seen.
    """
    clock = time.perf_counter()
    here = position(game, deal_string, history)
    if here.is_won():
        return Hint(WON)

    def left() -> float | None:
        if time_limit is None:
            return None
        return max(0.0, time_limit - (time.perf_counter() - clock))

    decided = decide(rules_for(here, DECIDE), Budget(left(), None, table_limit))
    if decided.status == SOLVED:
        return Hint(MOVE, move=decided.line[0], line=list(decided.line))
    if decided.status != UNSOLVABLE:
        return Hint(UNKNOWN)
    # Undo k moves for k = 1.. until a win exists: lost at `lost`, winnable at `winnable`.
    earlier = [here]
    game_copy = here.copy()
    while game_copy.can_undo:
        game_copy.push(UNDO_TEXT)
        earlier.append(game_copy.copy())
    lost, winnable = 0, len(earlier)  # earlier[-1] is the deal's start position
    while winnable - lost > 1:
        probe = (lost + winnable) // 2
        verdict = decide(rules_for(earlier[probe], DECIDE), Budget(left(), None, table_limit))
        if verdict.status == SOLVED:
            winnable = probe
        elif verdict.status == UNSOLVABLE:
            lost = probe
        else:
            return Hint(UNKNOWN)
    if winnable == len(earlier):
        return Hint(UNKNOWN)  # not even the start position wins
    return Hint(UNDO, undo=winnable)


def history_upper(tokens: Sequence[str], keys: Sequence[Any], won: bool) -> dict[Any, int]:
    """For a history that ends won, the fewest card moves the history itself takes from each
    of its positions (by key: `keys[i]` is the position after `i` tokens) to the win: an upper
    bound on each one's distance. Empty for a history not won."""
    upper: dict[Any, int] = {}
    if not won:
        return upper
    upper[keys[-1]] = 0
    changed = True
    while changed:
        changed = False
        for i in range(len(tokens) - 1, -1, -1):
            after = upper.get(keys[i + 1])
            if (
                tokens[i] != UNDO_TEXT
                and after is not None
                and after + 1 < upper.get(keys[i], after + 2)
            ):
                upper[keys[i]] = after + 1
                changed = True
    return upper
