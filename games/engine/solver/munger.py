"""Munger for the solver: move generation with full knowledge of the deal, and dominances.

A step of the search is a tuple of move tokens (docs/rules.md, "Move notation") played through
the engine's own rule functions, so the solver can never play a move the rules forbid; the
certificate is replayed all the same.

Two modes. `shortest=True` (the par search) keeps only dominances that never lengthen the
shortest win; `shortest=False` (deciding winnability) adds ones that keep winnability but may
cost moves. docs/solver.md proves each:

- Safe foundation moves, both modes (`_safe`): a card of rank r that can go up goes up at once
  when both foundations of the other colour hold at least r - 1 cards and the other one of its
  colour at least r - 2. Such a card is never pulled back down either, and a stock move never
  buries one under the waste.
- Reversible foundation moves, deciding only (`_reversible`): a column's top card that can go up
  and lies on a card it fits (or is a lone King) goes up at once, since one pull-down brings it
  back. A pulled-down card is then offered only together with the moves that cover it.
- Stock moves are "draw k cards, then play the card now on top of the waste" (k >= 0), one
  step: draws commute with every move that does not touch the waste.
- A King-led run at the bottom of a column never moves to another empty column, and of several
  empty columns only the first is offered (the position would be the same but for the order of
  the columns).
- Part of a run moves only when the card it uncovers can then go to its foundation
  (`plain=True` offers every part, among other things; the tests compare the verdicts).
"""

from __future__ import annotations

from typing import Any

from ..base import Game
from ..cards import KING, RANK, RED, SUIT
from ..munger import Munger
from .rules import SolverRules
from .search import Step

OTHER_COLOUR = ((1, 2), (0, 3), (0, 3), (1, 2))  # per suit C D H S: the red or black pair
SAME_COLOUR = (3, 2, 1, 0)  # the other suit of the same colour
COLUMN = tuple(f"T{k}" for k in range(1, 8))
TO_FOUNDATION = tuple(f"{p}>F" for p in COLUMN)
SUIT_SOURCE = ("FC", "FD", "FH", "FS")
AUTO_TOKENS = (*TO_FOUNDATION, "R>F", "W>F")
DRAW = "S>W"


def _hidden_bytes(mask: int) -> bytes:
    """A column's face-down mask, closed by a byte no card has, so columns stay apart."""
    return mask.to_bytes(3, "little") + b"\xff"


HIDDEN_BYTES = tuple(_hidden_bytes(mask) for mask in range(64))


def _fits(card: int, on: int) -> bool:
    return RANK[on] == RANK[card] + 1 and RED[on] != RED[card]


class MungerRules(SolverRules):
    """Solver view of a Munger game (full knowledge), played in place on an engine object."""

    game: Munger

    GAME = Munger
    #: Measured on seeds 1..200: branch and bound after a quick weighted A* gives the shortest
    #: pars.
    PAR_PLAN = (("best_first", 2.0, 0.4), ("branch_and_bound", 1.0, 1.0))
    DIFFICULTY_CUTS = (0.524, 0.583, 0.639, 0.674)
    CANDIDATE_SECONDS = 10.0
    SIMPLE_BOUND = 69  # 52 cards up and 17 draws

    def __init__(self, game: Munger, *, shortest: bool = False, plain: bool = False) -> None:
        """`plain=True` turns every dominance off (for the tests that check them): no forced
        moves, every part of every run, every empty column, every pull-down on its own."""
        super().__init__(game)
        self.shortest = shortest or plain
        self.plain = plain

    @classmethod
    def for_search(cls, game: Game, *, shortest: bool, plain: bool = False) -> MungerRules:
        assert isinstance(game, Munger)
        return cls(game, shortest=shortest, plain=plain)

    # -- dominance ------------------------------------------------------------------------

    def _safe(self, card: int) -> bool:
        if self.plain:
            return False
        rank = RANK[card]
        if rank <= 1:
            return True
        f = self.game.foundation
        a, b = OTHER_COLOUR[SUIT[card]]
        return f[a] >= rank - 1 and f[b] >= rank - 1 and f[SAME_COLOUR[SUIT[card]]] >= rank - 2

    def _reversible(self, i: int) -> bool:
        """Column i's top card could come straight back from its foundation to where it is."""
        column = self.game.tableau[i]
        n = len(column)
        if n == 1:
            return RANK[column[0]] == KING
        return not self.game.hidden[i] >> (n - 2) & 1 and _fits(column[-1], column[-2])

    def _auto(self, tokens: list[str], records: list[Any]) -> None:
        """Play forced foundation moves from the available cards until none is left."""
        g = self.game
        f = g.foundation
        decode = self.decode
        piles = (*g.tableau, g.reserve, g.waste)
        reversible = not self.shortest
        moved = True
        while moved:
            moved = False
            for i, pile in enumerate(piles):
                if pile:
                    card = pile[-1]
                    if f[SUIT[card]] == RANK[card] - 1 and (
                        self._safe(card) or (reversible and i < 7 and self._reversible(i))
                    ):
                        token = AUTO_TOKENS[i]
                        op = decode[token]
                        records.append(op[0](g, op[1], op[2]))
                        tokens.append(token)
                        moved = True

    # -- search interface -----------------------------------------------------------------

    def lower_bound(self) -> int:
        """One move per card off the foundations and per stock card (its draw), one more per
        reserve or waste card lying over a lower card of its suit (it must step aside first),
        and one more per column holding such a card."""
        g = self.game
        f = g.foundation
        bound = 52 - (f[0] + f[1] + f[2] + f[3]) + len(g.stock)
        for column in g.tableau:
            if _blocked(column):
                bound += 1
        return bound + _blocked(g.reserve) + _blocked(g.waste)

    def key(self) -> bytes:
        """Columns sorted (the rules treat them alike), then foundations, the reserve and stock
        sizes (their order is fixed), and the waste."""
        g = self.game
        columns = [
            bytes(column) + (HIDDEN_BYTES[hidden] if hidden < 64 else _hidden_bytes(hidden))
            for column, hidden in zip(g.tableau, g.hidden, strict=True)
        ]
        columns.sort()
        columns.append(bytes(g.foundation))
        columns.append(bytes((len(g.reserve), len(g.stock))))
        columns.append(bytes(g.waste))
        return b"".join(columns)

    def moves(self) -> list[Step]:
        """Candidate steps, best first: to a foundation, uncovering a card that can go up,
        revealing a face-down card, emptying a column, the rest; stock moves last; pulling a
        foundation card down last of all."""
        g = self.game
        tableau, hidden, f = g.tableau, g.hidden, g.foundation
        to_foundation: list[Step] = []
        uncover_for_foundation: list[Step] = []
        reveal: list[Step] = []
        empty_column: list[Step] = []
        rest: list[Step] = []
        stock: list[Step] = []
        stock_to_foundation: list[Step] = []
        pull: list[Step] = []

        first_empty = -1
        for j, column in enumerate(tableau):
            if not column:
                first_empty = j
                break

        for i, column in enumerate(tableau):
            if column:
                card = column[-1]
                if f[SUIT[card]] == RANK[card] - 1:
                    to_foundation.append((TO_FOUNDATION[i],))
        for pile, name in ((g.reserve, "R"), (g.waste, "W")):
            if pile:
                card = pile[-1]
                if f[SUIT[card]] == RANK[card] - 1:
                    to_foundation.append((name + ">F",))

        # Column to column: the run that fits, whole or (when it pays) in part.
        for i, column in enumerate(tableau):
            n = len(column)
            if not n:
                continue
            mask = hidden[i]
            start = _run_start(column, mask)
            top_rank = RANK[column[-1]]
            for j, target in enumerate(tableau):
                if j == i:
                    continue
                if target:
                    dest = target[-1]
                    p = n - 1 - (RANK[dest] - 1 - top_rank)
                    if p < start or p >= n or RED[column[p]] == RED[dest]:
                        continue
                else:
                    if RANK[column[start]] != KING:
                        continue
                    if not self.plain and (j != first_empty or start == 0):
                        continue
                    p = start
                token = (f"{COLUMN[i]}>{COLUMN[j]}",)
                if p > start:
                    under = column[p - 1]
                    if f[SUIT[under]] == RANK[under] - 1:
                        uncover_for_foundation.append(token)
                    elif self.plain:
                        rest.append(token)
                elif p == 0:
                    empty_column.append(token)
                elif mask >> (p - 1) & 1:
                    reveal.append(token)
                else:
                    rest.append(token)

        for pile, name in ((g.reserve, "R"), (g.waste, "W")):
            if pile:
                self._onto_columns(pile[-1], (name + ">",), first_empty, rest)

        # Draw k cards, then play the new waste top; never bury a card that is safe to go up.
        draws: Step = ()
        for k in range(1, len(g.stock) + 1):
            draws += (DRAW,)
            card = g.stock[-k]
            up = f[SUIT[card]] == RANK[card] - 1
            if up:
                stock_to_foundation.append((*draws, "W>F"))
            self._onto_columns(card, (*draws, "W>"), first_empty, stock)
            if up and self._safe(card):
                break

        # Foundation tops back down, unless safe (they would only come back up).
        for s in range(4):
            count = f[s]
            if count:
                card = s * 13 + count - 1
                if self._safe(card):
                    continue
                head = (SUIT_SOURCE[s] + ">",)
                if self.shortest:
                    self._onto_columns(card, head, first_empty, pull)
                else:
                    composites: list[Step] = []
                    for move in self._onto_columns(card, head, first_empty, []):
                        self._cover(card, move, composites, {s})
                    pull.extend(m for m in composites if self.playable(m))

        return (
            to_foundation
            + uncover_for_foundation
            + reveal
            + empty_column
            + rest
            + stock_to_foundation
            + stock
            + pull
        )

    def _onto_columns(
        self, card: int, prefix: Step, first_empty: int, out: list[Step]
    ) -> list[Step]:
        """Moves ending with the last token of `prefix` (`X>`) completed by each column the
        card fits on."""
        head, last = prefix[:-1], prefix[-1]
        rank, red = RANK[card], RED[card]
        for j, target in enumerate(self.game.tableau):
            if target:
                dest = target[-1]
                if RANK[dest] == rank + 1 and RED[dest] != red:
                    out.append((*head, last + COLUMN[j]))
            elif rank == KING and (j == first_empty or self.plain):
                out.append((*head, last + COLUMN[j]))
        return out

    def _cover(self, card: int, move: Step, out: list[Step], pulled: set[int]) -> None:
        """After `move` pulls `card` down onto a column, the moves that then cover it.

        In deciding mode an uncovered pulled card would go straight back up, so a pull-down is
        offered only with what makes it stay: a card put on it (a run from a column, the
        reserve or waste top, a stock card, or another foundation card, itself covered in turn),
        or the card under it on its foundation pulled down too, and covered in turn.
        """
        g = self.game
        j = int(move[-1][-1]) - 1
        column = COLUMN[j]
        below = card - 1  # the same suit's next card down its foundation
        if RANK[card] > 1 and g.foundation[SUIT[card]] == RANK[below] and not self._safe(below):
            for chained in self._onto_columns(below, (SUIT_SOURCE[SUIT[card]] + ">",), -1, []):
                if chained[-1][-2:] != column:
                    self._cover(below, (*move, *chained), out, pulled)
        if RANK[card] == 1:
            return
        for i, source in enumerate(g.tableau):
            if i == j or not source:
                continue
            start = _run_start(source, g.hidden[i])
            for p in range(start, len(source)):
                if _fits(source[p], card):
                    out.append((*move, f"{COLUMN[i]}>{column}"))
        for pile, name in ((g.reserve, "R"), (g.waste, "W")):
            if pile and _fits(pile[-1], card):
                out.append((*move, f"{name}>{column}"))
        draws: Step = ()
        for k in range(1, len(g.stock) + 1):
            draws += (DRAW,)
            if _fits(g.stock[-k], card):
                out.append((*move, *draws, f"W>{column}"))
        for s in range(4):
            count = g.foundation[s]
            if count and s not in pulled:
                under = s * 13 + count - 1
                if _fits(under, card) and not self._safe(under):
                    self._cover(under, (*move, f"{SUIT_SOURCE[s]}>{column}"), out, pulled | {s})


def _run_start(column: list[int], mask: int) -> int:
    """Index of the lowest card of the face-up run on top of a non-empty column."""
    start = len(column) - 1
    while start > 0 and not mask >> (start - 1) & 1:
        lower, upper = column[start - 1], column[start]
        if RANK[lower] != RANK[upper] + 1 or RED[lower] == RED[upper]:
            break
        start -= 1
    return start


def _blocked(pile: list[int]) -> int:
    """Cards lying over a lower card of their own suit in the same pile."""
    lowest = [14, 14, 14, 14]
    count = 0
    for card in pile:
        s, r = SUIT[card], RANK[card]
        if r > lowest[s]:
            count += 1
        elif r < lowest[s]:
            lowest[s] = r
    return count
