"""Distance to a win from any position, hints, and the move-by-move check of a history
(docs/solver.md, "Distance and hints").

A position is given as a deal and a move history (tokens of docs/rules.md, `U` included), as
the service stores an attempt. The solver knows the whole deal, Munger's face-down cards and
stock included; `hint` answers with a move token or an undo count only, so nothing it returns
names a card the player has not seen.

- `distance`: the fewest moves left to win, exact when the search finishes, else proven bounds;
  the next move of a shortest line (or of a winning line); or "no win from here".
- `hint`: a move that keeps a win within reach, or the fewest undos after which a win exists.
- `distance_profile`: for each move of a history, the distance before and after, and whether
  the move brought the win exactly one move closer.
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
from .search import SOLVED, UNSOLVABLE, Budget, best_first, bounded, decide

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


@dataclass
class MoveCheck:
    """One move of a history in `distance_profile`: its index and token, the distance before
    and after it (None where unknown), and `closer`: whether it brought the win exactly one
    move closer (None where unknown)."""

    index: int
    move: str
    before: int | None
    after: int | None
    closer: bool | None


def position(game: str, deal_string: str, history: str | Sequence[str]) -> Game:
    """The position a history reaches from a deal (`U` undoes); a malformed or illegal token
    raises the engine's `MalformedError` or `IllegalMoveError`, naming it."""
    start = game_class(game).from_deal(deal_string)
    for token in split_moves(history) if isinstance(history, str) else history:
        start.push(token)
    return start


def _budget(time_limit: float | None, node_limit: int | None, table_limit: int) -> Budget:
    return Budget(time_limit, node_limit, table_limit)


def distance_of(
    game: Game,
    *,
    time_limit: float | None = 10.0,
    node_limit: int | None = None,
    table_limit: int = 3_000_000,
    known_upper: int | None = None,
) -> Distance:
    """`distance` for an engine position (the game object is not changed).

    Deciding comes first (a third of the time): it finds a winning line, an upper bound, or
    proves that none exists. Exact A* then looks for shorter lines with what is left; when it
    finishes the best line is a shortest one.
    """
    clock = time.perf_counter()
    if game.is_won():
        return Distance(WON, 0, 0, 0)
    share = None if time_limit is None else time_limit / 3
    decided = decide(rules_for(game, DECIDE), _budget(share, node_limit, table_limit))
    stats: dict[str, Any] = {"nodes_decide": decided.nodes}
    if decided.status == UNSOLVABLE:
        return Distance(NO_WIN, stats=stats)
    line = decided.line if decided.status == SOLVED else []
    upper = len(line) if line else known_upper
    if line and known_upper is not None and known_upper < len(line):
        upper = known_upper
    left = None if time_limit is None else max(0.0, time_limit - (time.perf_counter() - clock))
    exact = best_first(
        rules_for(game, EXACT), _budget(left, node_limit, table_limit), weight=1, upper=upper
    )
    stats["nodes_exact"] = exact.nodes
    stats["seconds"] = round(time.perf_counter() - clock, 4)
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


def distance_profile(
    game: str,
    deal_string: str,
    history: str | Sequence[str],
    *,
    time_limit: float | None = 60.0,
    start_distance: int | None = None,
    table_limit: int = 3_000_000,
) -> list[MoveCheck]:
    """For each move of a history, the distance before and after it and whether it brought the
    win exactly one move closer (the fair-play check's input).

    The history itself bounds the distances from above: from each position its own remaining
    moves win (undos aside), so `upper` comes from a walk back from the end. A move can never
    bring the win more than one move closer, so from a known distance d before a move the
    distance after it is at least d - 1. Where the two bounds meet, as they do all along a
    shortest line, the move costs no search at all. Elsewhere a search for a line of at most
    d - 1 moves settles it (found: closer), and the limits d, d + 1, ... follow until a line is
    found, which gives the exact distance again. `start_distance`, a proven par, saves the first
    search. Budget: `time_limit` seconds in all, shared among the moves still to settle; a move
    whose search runs out gets None, and the walk goes on from the next distance it can find.
    """
    clock = time.perf_counter()
    tokens = list(split_moves(history) if isinstance(history, str) else history)
    start = game_class(game).from_deal(deal_string)
    rules = rules_for(start, EXACT)
    games = [start.copy()]
    for token in tokens:
        games.append(games[-1].copy())
        games[-1].push(token)
    keys = [rules.key(rules.state_of(g)) for g in games]
    upper = history_upper(tokens, keys, games[-1].is_won())
    known: dict[Any, int] = {}  # exact distances by position key
    # Moves along the history's own shortest way to the end usually cost no search: the time
    # goes to the others.
    unsettled = 1 + sum(
        1
        for i, token in enumerate(tokens)
        if token == UNDO_TEXT
        or keys[i + 1] not in upper
        or upper[keys[i + 1]] != upper.get(keys[i], -1) - 1
    )

    def share() -> float | None:
        if time_limit is None:
            return None
        left = time_limit - (time.perf_counter() - clock)
        return max(0.0, left / max(1, unsettled))

    d: int | None = start_distance
    if d is None:
        found = distance_of(
            games[0], time_limit=share(), table_limit=table_limit, known_upper=upper.get(keys[0])
        )
        d = found.distance if found.status in (EXACT_DISTANCE, WON) else None
    if d is not None:
        known[keys[0]] = d
    checks = []
    for index, token in enumerate(tokens):
        before = d
        here, key = games[index + 1], keys[index + 1]
        after = known.get(key)
        if after is None:
            high = upper.get(key)
            if before is not None and token != UNDO_TEXT and high == before - 1:
                after = high  # it can drop by one at most, and the history shows it did
            else:
                after = _distance_after(here, before, high, share(), table_limit)
            if after is not None:
                known[key] = after
        if token == UNDO_TEXT or upper.get(key, -2) != upper.get(keys[index], -1) - 1:
            unsettled = max(1, unsettled - 1)
        # An undo is a move of the history too (it counts as one): it brings the win one move
        # closer when it takes back a move that had put it one further away.
        closer = None if before is None or after is None else after == before - 1
        checks.append(MoveCheck(index, token, before, after, closer))
        d = after
    return checks


def _distance_after(
    game: Game, before: int | None, upper: int | None, time_limit: float | None, table_limit: int
) -> int | None:
    """The exact distance of `game`, knowing that of the position one move earlier (`before`,
    None if unknown) and a winning line's length from here (`upper`, None if unknown); None if
    the budget runs out."""
    if game.is_won():
        return 0
    clock = time.perf_counter()
    if before is None:
        found = distance_of(game, time_limit=time_limit, table_limit=table_limit, known_upper=upper)
        return found.distance if found.status == EXACT_DISTANCE else None
    rules = rules_for(game, EXACT)
    limit = max(0, before - 1)  # a move never brings the win more than one move closer
    while upper is None or limit < upper:
        left = None if time_limit is None else time_limit - (time.perf_counter() - clock)
        if left is not None and left <= 0:
            return None
        outcome = bounded(rules, Budget(left, None, table_limit), limit)
        if outcome.status == SOLVED:
            return len(outcome.line)
        if not outcome.exhausted:
            return None
        if upper is None and limit > before + 60:
            return None  # far from the history: give up rather than search for ever
        limit += 1
    return upper
