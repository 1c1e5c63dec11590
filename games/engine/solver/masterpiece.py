"""Masterpiece for the solver: an exact search over the open layout (docs/solver.md).

The state is a pair of immutable byte strings, like Munger's:

- `rows`: ten `bytes`, the main rows M1..M8 then the auxiliary rows A1, A2, each from the centre
  outwards (the last card is the free one);
- `tail`: the four foundation counts (C D H S, the Ace included), the building direction (0 not
  fixed yet, 1 up, 2 down) and the cellar (0 when empty, else the card's number plus one).

Every step moves one card. Dominances (docs/solver.md has the proofs), in every mode but
`plain`:

- Safe foundation moves: once the building direction is fixed, a card that can go to its
  foundation from a main row or the cellar goes at once, without branching, when no card of its
  suit still to come after it lies in an auxiliary row. They never lengthen the shortest win.
- Of several empty main rows only the first is offered, and a lone card never moves from one
  main row into an empty one (the position would be the same up to the order of the rows).
"""

from __future__ import annotations

from ..base import Game
from ..cards import KING, RANK, SUIT
from ..masterpiece import AUX, MAIN_ROWS, Masterpiece
from .rules import DECIDE, PLAIN, Child, SolverRules, Step

#: Indices into the tail.
DIRECTION, CELLAR = 4, 5
UP, DOWN = 1, 2
ROWS = MAIN_ROWS + len(AUX)
MAIN = range(MAIN_ROWS)
#: A state: (rows, tail).
State = tuple[tuple[bytes, ...], bytes]

# Step kinds, the fields after the kind:
MF = 0  # (MF, r): the free card of main row r to its foundation
CF = 1  # (CF,): the cellar card to its foundation
RM = 2  # (RM, r, j): the free card of row r (main or auxiliary) onto main row j
CM = 3  # (CM, j): the cellar card onto main row j
RC = 4  # (RC, r): the free card of row r into the cellar

BYTE = tuple(bytes((b,)) for b in range(256))
ROW = (*(f"M{k}" for k in range(1, 9)), "A1", "A2")
TOKEN_MF = tuple(f"{name}>F" for name in ROW)
TOKEN_RM = tuple(tuple(f"{a}>{b}" for b in ROW) for a in ROW)
TOKEN_CM = tuple(f"C>{name}" for name in ROW)
TOKEN_RC = tuple(f"{name}>C" for name in ROW)


def next_rank(count: int, direction: int) -> int:
    """The rank a foundation of `count` cards takes next once the direction is fixed (0 when
    complete)."""
    if count == 13:
        return 0
    return count + 1 if direction == UP else 14 - count


def _neighbours(card: int) -> tuple[int, ...]:
    """The cards of the same suit one rank lower and higher (rule 5)."""
    rank = RANK[card]
    return tuple(n for n, r in ((card - 1, rank - 1), (card + 1, rank + 1)) if 2 <= r <= KING)


#: NEIGHBOURS[c]: the cards a card c may be built on (same suit, one rank apart; no Aces).
NEIGHBOURS = tuple(_neighbours(c) for c in range(52))


class MasterpieceRules(SolverRules):
    """The solver's view of a Masterpiece position."""

    GAME = Masterpiece
    DIFFICULTY_CUTS = (0.478, 0.517, 0.544, 0.588)
    CANDIDATE_SECONDS = 2.0
    PAR_SECONDS = 60.0
    SIMPLE_BOUND = 48  # 48 cards up

    def __init__(self, game: Game, mode: str = DECIDE) -> None:
        super().__init__(game, mode)
        assert isinstance(game, Masterpiece)
        self.game = game
        self.autos = mode != PLAIN
        self.symmetric = mode != PLAIN
        self.ordered = mode == DECIDE

    # -- the state ------------------------------------------------------------------------

    def state_of(self, game: Masterpiece) -> State:
        rows = tuple(bytes(row) for row in game.rows)
        direction = {0: 0, 1: UP, -1: DOWN}[game.direction]
        tail = bytes((*game.foundation, direction, game.cellar + 1))
        return rows, tail

    def root(self) -> tuple[State, list[str]]:
        rows, tail = self.state_of(self.game)
        tokens: list[str] = []
        rows, tail, _ = self._settle(rows, tail, tokens)
        return (rows, tail), tokens

    def key(self, state: State) -> bytes:
        """Main rows sorted, auxiliary rows sorted (each kind is interchangeable), then the
        tail (foundations, direction, cellar)."""
        rows, tail = state
        main = sorted(rows[:8])
        aux = sorted(rows[8:])
        return b"\xff".join([*main, b"", *aux, tail])

    def won(self, state: State) -> bool:
        tail = state[1]
        return tail[0] + tail[1] + tail[2] + tail[3] == 52

    def lower_bound(self, state: State) -> int:
        """One move per card off the foundations, plus one more for every card that must
        step aside first: an auxiliary-row card (it never goes straight up), and a main-row
        card lying further out than a card of its suit that must reach the foundation before
        it. With the direction open, the smaller of the two bounds."""
        rows, tail = state
        base = 52 - (tail[0] + tail[1] + tail[2] + tail[3]) + len(rows[8]) + len(rows[9])
        direction = tail[DIRECTION]
        if direction == UP:
            return base + _blocked(rows, UP)
        if direction == DOWN:
            return base + _blocked(rows, DOWN)
        return base + min(_blocked(rows, UP), _blocked(rows, DOWN))

    # -- foundations ------------------------------------------------------------------------

    @staticmethod
    def _fits_foundation(card: int, tail: bytes) -> bool:
        direction = tail[DIRECTION]
        rank = RANK[card]
        if direction == 0:
            return rank == 2 or rank == KING
        return rank == next_rank(tail[SUIT[card]], direction)

    @staticmethod
    def _up(card: int, tail: bytes) -> bytes:
        """The tail after `card` goes to its foundation (fixing the direction if open)."""
        s = SUIT[card]
        direction = tail[DIRECTION] or (UP if RANK[card] == 2 else DOWN)
        return (
            tail[:s] + BYTE[tail[s] + 1] + tail[s + 1 : DIRECTION] + BYTE[direction] + tail[CELLAR:]
        )

    @staticmethod
    def _safe(card: int, rows: tuple[bytes, ...], direction: int) -> bool:
        """No card of this suit still to come after `card` waits in an auxiliary row."""
        suit, rank = SUIT[card], RANK[card]
        for r in AUX:
            for other in rows[r]:
                if SUIT[other] == suit and (
                    RANK[other] > rank if direction == UP else RANK[other] < rank
                ):
                    return False
        return True

    def safe_moves(self, state: State) -> list[str]:
        """The free main-row cards and the cellar card (while an auxiliary row is empty) that
        go up safely (`_safe`), once the direction is fixed."""
        rows, tail = state
        direction = tail[DIRECTION]
        if not direction:
            return []
        ups = [(TOKEN_MF[r], rows[r][-1]) for r in MAIN if rows[r]]
        if tail[CELLAR] and (not rows[8] or not rows[9]):
            ups.append(("C>F", tail[CELLAR] - 1))
        return sorted(
            token
            for token, card in ups
            if RANK[card] == next_rank(tail[SUIT[card]], direction)
            and self._safe(card, rows, direction)
        )

    def _settle(
        self, rows: tuple[bytes, ...], tail: bytes, tokens: list[str] | None
    ) -> tuple[tuple[bytes, ...], bytes, int]:
        """Play the safe foundation moves until none is left; their count (and tokens)."""
        direction = tail[DIRECTION]
        if not self.autos or not direction:
            return rows, tail, 0
        count = 0
        moved = True
        while moved:
            moved = False
            for r in MAIN:
                row = rows[r]
                if not row:
                    continue
                card = row[-1]
                if RANK[card] == next_rank(tail[SUIT[card]], direction) and self._safe(
                    card, rows, direction
                ):
                    rows = (*rows[:r], row[:-1], *rows[r + 1 :])
                    tail = self._up(card, tail)
                    count += 1
                    moved = True
                    if tokens is not None:
                        tokens.append(TOKEN_MF[r])
            cellar = tail[CELLAR] - 1
            if (
                cellar >= 0
                and (not rows[8] or not rows[9])
                and RANK[cellar] == next_rank(tail[SUIT[cellar]], direction)
                and self._safe(cellar, rows, direction)
            ):
                tail = self._up(cellar, tail)[:CELLAR] + b"\x00"
                count += 1
                moved = True
                if tokens is not None:
                    tokens.append("C>F")
        return rows, tail, count

    # -- steps ----------------------------------------------------------------------------

    def _apply(
        self, rows: tuple[bytes, ...], tail: bytes, step: Step
    ) -> tuple[tuple[bytes, ...], bytes]:
        kind = step[0]
        if kind == MF:
            r = step[1]
            card = rows[r][-1]
            return (*rows[:r], rows[r][:-1], *rows[r + 1 :]), self._up(card, tail)
        if kind == RM:
            r, j = step[1], step[2]
            card = rows[r][-1]
            new = list(rows)
            new[r] = rows[r][:-1]
            new[j] = rows[j] + BYTE[card]
            return tuple(new), tail
        if kind == RC:
            r = step[1]
            card = rows[r][-1]
            return (*rows[:r], rows[r][:-1], *rows[r + 1 :]), tail[:CELLAR] + BYTE[card + 1]
        cellar = tail[CELLAR] - 1
        if kind == CF:
            return rows, self._up(cellar, tail)[:CELLAR] + b"\x00"
        assert kind == CM
        j = step[1]
        return (*rows[:j], rows[j] + BYTE[cellar], *rows[j + 1 :]), tail[:CELLAR] + b"\x00"

    def play(self, state: State, step: Step) -> State:
        rows, tail = self._apply(state[0], state[1], step)
        rows, tail, _ = self._settle(rows, tail, None)
        return rows, tail

    def step_tokens(self, state: State, step: Step) -> list[str]:
        kind = step[0]
        if kind == MF:
            return [TOKEN_MF[step[1]]]
        if kind == CF:
            return ["C>F"]
        if kind == RM:
            return [TOKEN_RM[step[1]][step[2]]]
        if kind == CM:
            return [TOKEN_CM[step[1]]]
        return [TOKEN_RC[step[1]]]

    def tokens(self, state: State, step: Step) -> list[str]:
        tokens = self.step_tokens(state, step)
        rows, tail = self._apply(state[0], state[1], step)
        self._settle(rows, tail, tokens)
        return tokens

    def children(self, state: State) -> list[Child]:
        """The candidate steps with the states they lead to. When deciding, they are sorted by
        the lower bound of where they lead (one move of look-ahead; stable, so `steps`'s order
        breaks ties), which finds a first line fast and short."""
        rows, tail = state
        out = []
        settle = self._settle
        apply = self._apply
        for step in self.steps(state):
            new_rows, new_tail = apply(rows, tail, step)
            new_rows, new_tail, forced = settle(new_rows, new_tail, None)
            out.append((step, (new_rows, new_tail), 1 + forced))
        if self.ordered and len(out) > 1:
            bound = self.lower_bound
            out.sort(key=lambda child: bound(child[1]) - child[2])
        return out

    def steps(self, state: State) -> list[Step]:
        """Candidate steps: to a foundation, from an auxiliary row, emptying a main row,
        builds, into an empty main row, the cellar last."""
        rows, tail = state
        plain = not self.symmetric
        to_foundation: list[Step] = []
        from_aux: list[Step] = []
        empty_row: list[Step] = []
        builds: list[Step] = []
        into_empty: list[Step] = []
        cellar_moves: list[Step] = []

        empties = [r for r in MAIN if not rows[r]]
        first_empty = empties[0] if empties else -1
        tops: dict[int, int] = {}
        for r in MAIN:
            if rows[r]:
                tops[rows[r][-1]] = r
        cellar = tail[CELLAR] - 1
        cellar_free = cellar >= 0 and (not rows[8] or not rows[9])

        for r in range(ROWS):
            row = rows[r]
            if not row:
                continue
            card = row[-1]
            is_aux = r >= 8
            if not is_aux and self._fits_foundation(card, tail):
                to_foundation.append((MF, r))
            out = from_aux if is_aux else (empty_row if len(row) == 1 else builds)
            for neighbour in NEIGHBOURS[card]:
                target = tops.get(neighbour)
                if target is not None and target != r:
                    out.append((RM, r, target))
            if first_empty >= 0 and (is_aux or len(row) > 1):
                (from_aux if is_aux else into_empty).append((RM, r, first_empty))
            if plain:  # every empty main row, and lone cards too
                for e in empties:
                    if e != r and not (e == first_empty and (is_aux or len(row) > 1)):
                        into_empty.append((RM, r, e))
            if cellar < 0:
                cellar_moves.append((RC, r))

        if cellar_free:
            if self._fits_foundation(cellar, tail):
                to_foundation.append((CF,))
            for neighbour in NEIGHBOURS[cellar]:
                target = tops.get(neighbour)
                if target is not None:
                    builds.append((CM, target))
            for e in empties if plain else empties[:1]:
                into_empty.append((CM, e))

        return to_foundation + from_aux + empty_row + builds + into_empty + cellar_moves


def _blocked(rows: tuple[bytes, ...], direction: int) -> int:
    """Main-row cards lying over a card of their suit that goes up before them."""
    count = 0
    for r in MAIN:
        seen = [0, 0, 0, 0]  # per suit, the earliest-due rank below, as a due position
        for card in rows[r]:
            due = RANK[card] if direction == UP else 15 - RANK[card]
            s = SUIT[card]
            if seen[s] and seen[s] < due:
                count += 1
            elif not seen[s] or due < seen[s]:
                seen[s] = due
    return count
