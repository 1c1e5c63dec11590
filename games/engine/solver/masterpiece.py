"""Masterpiece for the solver: an exact search over the open layout.

A step of the search is a tuple of move tokens (here always one) played through the engine's
rule functions.

Dominances used (docs/solver.md has the proofs):

- Safe foundation moves (`_safe`): once the building direction is fixed, a card that can go to
  its foundation from a main row or the cellar goes at once, without branching, when no card of
  its suit still to come after it lies in an auxiliary row.
- Of several empty main rows only the first is offered, and a lone card never moves from one
  main row into an empty one (the position would be the same up to the order of the rows).
"""

from __future__ import annotations

from typing import Any

from ..base import Game
from ..cards import KING, RANK, SUIT
from ..masterpiece import Masterpiece
from .rules import SolverRules
from .search import Step

ROW = (*(f"M{k}" for k in range(1, 9)), "A1", "A2")
MAIN = range(8)
AUX = (8, 9)


class MasterpieceRules(SolverRules):
    """Solver view of a Masterpiece game, played in place on an engine object."""

    game: Masterpiece

    GAME = Masterpiece
    #: Plain A* (weight 1) usually finishes here, proving the par optimal.
    PAR_PLAN = (("best_first", 2.0, 0.4), ("best_first", 1.0, 1.0))
    DIFFICULTY_CUTS = (0.478, 0.517, 0.544, 0.588)
    CANDIDATE_SECONDS = 2.0
    SIMPLE_BOUND = 48  # 48 cards up

    def __init__(self, game: Masterpiece, *, plain: bool = False, ordered: bool = False) -> None:
        """`plain=True` turns every dominance off (for the tests that check them);
        `ordered=True` sorts the moves by the lower bound of where they lead (one move of
        look-ahead), which finds a first line fast and short, at twice the cost per position."""
        super().__init__(game)
        self.plain = plain
        self.ordered = ordered

    @classmethod
    def for_search(cls, game: Game, *, shortest: bool, plain: bool = False) -> MasterpieceRules:
        """Deciding orders the steps by one move of look-ahead (`ordered`); the par search,
        whose own bound does that job, does not."""
        assert isinstance(game, Masterpiece)
        return cls(game, plain=plain, ordered=not shortest)

    def _fits_foundation(self, card: int) -> bool:
        g = self.game
        rank = RANK[card]
        count = g.foundation[SUIT[card]]
        if g.direction == 0:
            return rank == 2 or rank == KING
        if count == 13:
            return False
        return rank == (count + 1 if g.direction > 0 else 14 - count)

    def _safe(self, card: int) -> bool:
        """No card of this suit still to come after `card` waits in an auxiliary row."""
        g = self.game
        suit, rank = SUIT[card], RANK[card]
        up = g.direction > 0
        for r in AUX:
            for other in g.rows[r]:
                if SUIT[other] == suit and (RANK[other] > rank if up else RANK[other] < rank):
                    return False
        return True

    def _auto(self, tokens: list[str], records: list[Any]) -> None:
        g = self.game
        if g.direction == 0 or self.plain:
            return
        decode = self.decode
        rows = g.rows
        moved = True
        while moved:
            moved = False
            for r in MAIN:
                row = rows[r]
                if row and self._fits_foundation(row[-1]) and self._safe(row[-1]):
                    token = ROW[r] + ">F"
                    op = decode[token]
                    records.append(op[0](g, op[1], op[2]))
                    tokens.append(token)
                    moved = True
            cellar = g.cellar
            if (
                cellar >= 0
                and (not rows[8] or not rows[9])
                and self._fits_foundation(cellar)
                and self._safe(cellar)
            ):
                op = decode["C>F"]
                records.append(op[0](g, op[1], op[2]))
                tokens.append("C>F")
                moved = True

    # -- search interface -----------------------------------------------------------------

    def lower_bound(self) -> int:
        """One move per card off the foundations, plus one more for every card that must
        step aside first: an auxiliary-row card (it never goes straight up), and a card lying
        further out than a card of its suit that must reach the foundation before it. With
        the direction open, the smaller of the two bounds."""
        g = self.game
        f = g.foundation
        base = 52 - (f[0] + f[1] + f[2] + f[3]) + len(g.rows[8]) + len(g.rows[9])
        if g.direction >= 0:
            up = base + _blocked(g.rows, 1)
            if g.direction > 0:
                return up
        down = base + _blocked(g.rows, -1)
        return down if g.direction < 0 else min(up, down)

    def key(self) -> bytes:
        g = self.game
        rows = g.rows
        main = sorted(bytes(rows[r]) + b"\xff" for r in MAIN)
        aux = sorted(bytes(rows[r]) + b"\xfe" for r in AUX)
        tail = bytes((g.cellar & 0xFF, g.direction & 0xFF, *g.foundation))
        return b"".join((*main, *aux, tail))

    def moves(self) -> list[Step]:
        moves = self._moves()
        if not self.ordered:
            return moves
        scored = []
        for index, move in enumerate(moves):
            undo = self.play(move)
            scored.append((self.lower_bound() - len(undo[0]), index, move))
            self.unplay(undo)
        scored.sort()
        return [move for _, _, move in scored]

    def _moves(self) -> list[Step]:
        g = self.game
        rows = g.rows
        to_foundation: list[Step] = []
        from_aux: list[Step] = []
        empty_row: list[Step] = []
        builds: list[Step] = []
        into_empty: list[Step] = []
        cellar_moves: list[Step] = []

        first_empty = -1
        for r in MAIN:
            if not rows[r]:
                first_empty = r
                break
        # Free cards of main rows by suit and rank, for builds.
        tops: dict[int, int] = {}
        for r in MAIN:
            if rows[r]:
                tops[rows[r][-1]] = r

        cellar = g.cellar
        cellar_free = cellar >= 0 and (not rows[8] or not rows[9])

        for r in range(10):
            row = rows[r]
            if not row:
                continue
            card = row[-1]
            name = ROW[r]
            is_aux = r >= 8
            if not is_aux and self._fits_foundation(card):
                to_foundation.append((name + ">F",))
            out = from_aux if is_aux else (empty_row if len(row) == 1 else builds)
            for neighbour in (card - 1, card + 1):
                if neighbour in tops and SUIT[neighbour] == SUIT[card]:
                    target = tops[neighbour]
                    if target != r:
                        out.append((f"{name}>{ROW[target]}",))
            if first_empty >= 0 and (is_aux or len(row) > 1):
                (from_aux if is_aux else into_empty).append((f"{name}>{ROW[first_empty]}",))
            if self.plain:  # every empty main row, and lone cards too
                for e in MAIN:
                    if (
                        not rows[e]
                        and e != r
                        and not (e == first_empty and (is_aux or len(row) > 1))
                    ):
                        into_empty.append((f"{name}>{ROW[e]}",))
            if cellar < 0:
                cellar_moves.append((name + ">C",))

        if cellar_free:
            if self._fits_foundation(cellar):
                to_foundation.append(("C>F",))
            for neighbour in (cellar - 1, cellar + 1):
                if neighbour in tops and SUIT[neighbour] == SUIT[cellar]:
                    builds.append((f"C>{ROW[tops[neighbour]]}",))
            for e in MAIN:
                if not rows[e] and (e == first_empty or self.plain):
                    into_empty.append((f"C>{ROW[e]}",))

        return to_foundation + from_aux + empty_row + builds + into_empty + cellar_moves


def _blocked(rows: list[list[int]], direction: int) -> int:
    """Main-row cards lying over a card of their suit that goes up before them."""
    count = 0
    for r in MAIN:
        seen = [0, 0, 0, 0]  # per suit, the earliest-due rank below, as a due position
        for card in rows[r]:
            due = RANK[card] if direction > 0 else 15 - RANK[card]
            s = SUIT[card]
            if seen[s] and seen[s] < due:
                count += 1
            elif not seen[s] or due < seen[s]:
                seen[s] = due
    return count
