"""Masterpiece, «Шедевр» (docs/rules.md, "Masterpiece"): an open patience built on four Aces.

State: ten rows as lists from the centre outwards (the last card is the free one): indices 0-7
are the main rows M1..M8, 8 and 9 the auxiliary rows A1 and A2; the cellar (a card or -1); per
suit, how many cards its foundation holds (the Ace counts); the order of the four Aces; and the
building direction, 0 until the first card beyond an Ace fixes it to +1 (up) or -1 (down).
"""

from __future__ import annotations

from typing import Any, ClassVar

from .base import (
    Apply,
    Game,
    Illegal,
    Record,
    build_tables,
    check_52_cards,
    position_segments,
)
from .cards import KING, RANK, RANKS, SUIT, SUITS, TEXT, Card, rank_word
from .errors import MalformedError
from .moves import Move

MAIN_ROWS = 8
ROW_NAMES = (*(f"M{k}" for k in range(1, MAIN_ROWS + 1)), "A1", "A2")
AUX = (8, 9)
#: The building direction in words, once fixed (rule 9); 0, not yet fixed, has no entry, so
#: each use says how it shows an open direction (`-` in position text, null in the view).
DIRECTION_WORDS = {1: "up", -1: "down"}


def _foundation_top(suit: int, count: int, direction: int) -> int:
    """The top card of a foundation holding `count` cards (the Ace included)."""
    if count == 1:
        return suit * 13
    rank = count if direction > 0 else 15 - count
    return suit * 13 + rank - 1


def _next_rank(count: int, direction: int) -> int:
    """The rank a foundation of `count` cards takes next (0 when complete)."""
    if count == 13:
        return 0
    return count + 1 if direction > 0 else 14 - count


def _row_takes(card: int, top: int) -> Illegal:
    """Rule 5's refusal of `card` onto a row whose top card is `top`."""
    # Aces never lie in a row, and nothing is above a King.
    ranks = [r for r in (RANK[top] - 1, RANK[top] + 1) if 2 <= r <= KING]
    words = " or ".join(rank_word(r) for r in ranks)
    return Illegal(
        f"{TEXT[card]} cannot go on {TEXT[top]}: it takes the {words} of its own suit (rule 5)",
        "row_takes",
        card=TEXT[card],
        onto=TEXT[top],
        ranks=[RANKS[r - 1] for r in ranks],
    )


def _foundation_takes(card: int, need: int, direction: int) -> Illegal:
    """Rule 9's refusal of `card` onto its foundation, which takes rank `need` next (0: none)."""
    way = DIRECTION_WORDS[direction]
    wants = f"the {rank_word(need)}" if need else "nothing more"
    return Illegal(
        f"{TEXT[card]} cannot go to its foundation: building {way}, it takes {wants} (rule 9)",
        "foundation_next",
        card=TEXT[card],
        suit=SUITS[SUIT[card]],
        rank=RANKS[need - 1] if need else None,
        direction=way,
    )


class Masterpiece(Game):
    """Masterpiece, «Шедевр»: an open layout around four Aces, a cellar for one card."""

    name: ClassVar[str] = "masterpiece"
    title: ClassVar[str] = "Masterpiece"
    native_title: ClassVar[str] = "Шедевр"
    EXAMPLE: ClassVar[str] = "M3>M5"
    SOURCES: ClassVar[tuple[str, ...]] = (*ROW_NAMES, "C")
    DESTINATIONS: ClassVar[tuple[str, ...]] = (*ROW_NAMES, "C", "F")

    rows: list[list[int]]
    cellar: int
    foundation: list[int]
    order: tuple[int, ...]
    direction: int

    # -- construction -------------------------------------------------------------------

    @classmethod
    def layout_deck(cls, deck: list[Any]) -> list[Any]:
        """The Aces in the order they appear, then the other 48 cards in order (docs/deals.md)."""
        aces = [c for c in deck if RANK[c] == 1]
        return aces + [c for c in deck if RANK[c] != 1]

    @classmethod
    def check_deal(cls, cards: list[Any]) -> None:
        for card in cards[:4]:
            if RANK[card] != 1:
                raise MalformedError(
                    "a Masterpiece deal starts with the four Aces", token=TEXT[card]
                )

    def _setup(self, cards: list[Any]) -> None:
        cards = [int(c) for c in cards]
        self.order = tuple(SUIT[c] for c in cards[:4])
        self.foundation = [1, 1, 1, 1]
        self.direction = 0
        self.rows = [cards[4 + 5 * k : 9 + 5 * k] for k in range(MAIN_ROWS)]
        self.rows += [cards[44:48], cards[48:52]]
        self.cellar = -1
        self.revealed = set(range(52))

    def _copy_from(self, other: Any) -> None:
        self.rows = [list(row) for row in other.rows]
        self.cellar = other.cellar
        self.foundation = list(other.foundation)
        self.order = other.order
        self.direction = other.direction

    # -- rule functions: check, then change; raise Illegal before changing anything -----

    def _free(self, r: int) -> int:
        row = self.rows[r]
        if not row:
            raise Illegal(f"{ROW_NAMES[r]} is empty", "pile_empty", place=ROW_NAMES[r])
        return row[-1]

    def _onto_main(self, card: int, j: int) -> None:
        # Rule 5: same suit, one rank higher or lower; rule 6: an empty main row takes any card.
        row = self.rows[j]
        if row:
            top = row[-1]
            if SUIT[top] != SUIT[card] or abs(RANK[top] - RANK[card]) != 1:
                raise Illegal.later(_row_takes, card, top)

    def _cellar_may_leave(self) -> int:
        # Rule 8: only while at least one auxiliary row is empty.
        if self.cellar < 0:
            raise Illegal("the cellar is empty", "pile_empty", place="C")
        if self.rows[8] and self.rows[9]:
            raise Illegal(
                "the cellar card may leave only once an auxiliary row is empty (rule 8)",
                "cellar_locked",
                card=TEXT[self.cellar],
            )
        return self.cellar

    def _to_foundation(self, card: int) -> int:
        """Rule 9; returns the direction after the move."""
        count = self.foundation[SUIT[card]]
        rank = RANK[card]
        if self.direction == 0:
            if rank == 2:
                return 1
            if rank == KING:
                return -1
            raise Illegal(
                f"{TEXT[card]} cannot start a foundation: the first card must be a 2 "
                "(building up) or a King (building down) (rule 9)",
                "foundation_start",
                card=TEXT[card],
            )
        need = _next_rank(count, self.direction)
        if rank != need:
            raise Illegal.later(_foundation_takes, card, need, self.direction)
        return self.direction

    def _row_to_main(self, r: int, j: int) -> Record:
        card = self._free(r)
        self._onto_main(card, j)
        self.rows[j].append(self.rows[r].pop())
        return (Masterpiece._revert_row_to_main, -1, r, j)

    def _revert_row_to_main(self, record: Record) -> None:
        self.rows[record[2]].append(self.rows[record[3]].pop())

    def _cellar_to_main(self, a: int, j: int) -> Record:
        card = self._cellar_may_leave()
        self._onto_main(card, j)
        self.rows[j].append(card)
        self.cellar = -1
        return (Masterpiece._revert_cellar_to_main, -1, j)

    def _revert_cellar_to_main(self, record: Record) -> None:
        self.cellar = self.rows[record[2]].pop()

    def _row_to_cellar(self, r: int, b: int) -> Record:
        # Rule 7: any free card into an empty cellar.
        if self.cellar >= 0:
            raise Illegal(
                f"the cellar already holds {TEXT[self.cellar]} (rule 7)",
                "cellar_full",
                card=TEXT[self.cellar],
            )
        self.cellar = self._free(r)
        self.rows[r].pop()
        return (Masterpiece._revert_row_to_cellar, -1, r)

    def _revert_row_to_cellar(self, record: Record) -> None:
        self.rows[record[2]].append(self.cellar)
        self.cellar = -1

    def _main_to_foundation(self, r: int, b: int) -> Record:
        card = self._free(r)
        direction = self._to_foundation(card)
        self.rows[r].pop()
        self.foundation[SUIT[card]] += 1
        old, self.direction = self.direction, direction
        return (Masterpiece._revert_main_to_foundation, -1, r, card, old)

    def _revert_main_to_foundation(self, record: Record) -> None:
        card = record[3]
        self.foundation[SUIT[card]] -= 1
        self.direction = record[4]
        self.rows[record[2]].append(card)

    def _cellar_to_foundation(self, a: int, b: int) -> Record:
        card = self._cellar_may_leave()
        direction = self._to_foundation(card)
        self.cellar = -1
        self.foundation[SUIT[card]] += 1
        old, self.direction = self.direction, direction
        return (Masterpiece._revert_cellar_to_foundation, -1, -1, card, old)

    def _revert_cellar_to_foundation(self, record: Record) -> None:
        card = record[3]
        self.foundation[SUIT[card]] -= 1
        self.direction = record[4]
        self.cellar = card

    # -- what a legal move carries, finishing lines --------------------------------------

    def _carried(self, move: Move, record: Record) -> tuple[int, int]:
        destination = move.destination
        if destination == "F":
            return record[3], 1  # a move to a foundation records its card at index 3
        if destination == "C":
            return self.cellar, 1
        return self.rows[ROW_NAMES.index(destination)][-1], 1

    def _may_finish(self) -> bool:
        # Auxiliary-row cards never go straight to a foundation (rule 10).
        return not self.rows[8] and not self.rows[9]

    # -- outcome and invariants ---------------------------------------------------------

    @property
    def foundation_cards(self) -> int:
        f = self.foundation
        return f[0] + f[1] + f[2] + f[3]

    def _foundation_cards_of(self, s: int) -> list[int]:
        count = self.foundation[s]
        ranks = [1] + (
            list(range(2, count + 1)) if self.direction > 0 else list(range(13, 14 - count, -1))
        )
        return [s * 13 + r - 1 for r in ranks[:count]]

    def cards(self) -> list[int]:
        cards = [c for row in self.rows for c in row]
        if self.cellar >= 0:
            cards.append(self.cellar)
        for s in range(4):
            cards += self._foundation_cards_of(s)
        return cards

    # -- views and text forms -----------------------------------------------------------

    def view(self, *, full: bool = False) -> dict[str, Any]:
        """Everything is visible in Masterpiece; rows are listed from the centre outwards."""
        return {
            "game": self.name,
            "foundations": [
                {
                    "suit": SUITS[s],
                    "top": TEXT[_foundation_top(s, self.foundation[s], self.direction)],
                    "count": self.foundation[s],
                }
                for s in self.order
            ],
            "direction": DIRECTION_WORDS.get(self.direction),
            "main_rows": [[TEXT[c] for c in row] for row in self.rows[:MAIN_ROWS]],
            "auxiliary_rows": [[TEXT[c] for c in row] for row in self.rows[MAIN_ROWS:]],
            "cellar": TEXT[self.cellar] if self.cellar >= 0 else None,
            "foundation_cards": self.foundation_cards,
        }

    def to_text(self) -> str:
        """`masterpiece; F AC 5S AD AH; D up; M1 ...; ...; M8 ...; A1 ...; A2 ...; C 5H`.

        F gives the foundations' top cards, top to bottom as dealt; D the direction (`-` until
        fixed); rows go from the centre outwards, so the last card is the free one; C is the
        cellar (its name alone when empty).
        """
        d = self.direction
        parts = [
            "masterpiece",
            " ".join(["F"] + [TEXT[_foundation_top(s, self.foundation[s], d)] for s in self.order]),
            f"D {DIRECTION_WORDS.get(d, '-')}",
        ]
        for name, row in zip(ROW_NAMES, self.rows, strict=True):
            parts.append(" ".join([name, *(TEXT[c] for c in row)]))
        parts.append("C" + (" " + TEXT[self.cellar] if self.cellar >= 0 else ""))
        return "; ".join(parts)

    @classmethod
    def from_text(cls, text: str) -> Masterpiece:
        segments = position_segments(text, "masterpiece")
        names = ["F", "D", *ROW_NAMES, "C"]
        if [seg[0] for seg in segments] != names:
            raise MalformedError(
                "a Masterpiece position lists " + ", ".join(names) + " in that order", token=text
            )
        game = cls()
        tops = [Card.from_text(t) for t in segments[0][1:]]
        if len(tops) != 4 or sorted(SUIT[c] for c in tops) != [0, 1, 2, 3]:
            raise MalformedError("F lists one top card for each of the four suits", token=text)
        words = {"-": 0, **{w: d for d, w in DIRECTION_WORDS.items()}}
        if len(segments[1]) != 2 or segments[1][1] not in words:
            raise MalformedError("D is -, up or down", token=" ".join(segments[1]))
        game.direction = words[segments[1][1]]
        game.order = tuple(SUIT[c] for c in tops)
        game.foundation = [0, 0, 0, 0]
        for card in tops:
            rank = RANK[card]
            if rank != 1 and game.direction == 0:
                raise MalformedError(
                    "a foundation beyond its Ace needs D up or down", token=TEXT[card]
                )
            count = 1 if rank == 1 else rank if game.direction > 0 else 15 - rank
            game.foundation[SUIT[card]] = count
        if game.direction and game.foundation == [1, 1, 1, 1]:
            raise MalformedError("the direction is fixed only once a foundation grows (D -)")
        game.rows = [[int(Card.from_text(t)) for t in seg[1:]] for seg in segments[2:12]]
        cellar = segments[12][1:]
        if len(cellar) > 1:
            raise MalformedError("the cellar holds one card at most", token=" ".join(cellar))
        game.cellar = int(Card.from_text(cellar[0])) if cellar else -1
        for row_card in (c for row in game.rows for c in row):
            if RANK[row_card] == 1:
                raise MalformedError("the Aces are the foundations' bases", token=TEXT[row_card])
        check_52_cards(game.cards())
        game.revealed = set(range(52))
        return game

    def render(self, *, player: bool = False) -> str:
        """The layout as dealt: left rows show their free card leftmost, right rows rightmost."""
        rows = [[TEXT[c] for c in row] for row in self.rows]
        width = 14

        def left(cards: list[str]) -> str:
            return " ".join(reversed(cards)).rjust(width)

        way = DIRECTION_WORDS.get(self.direction, "not fixed")
        lines = [f"{self.title}   foundation cards {self.foundation_cards}/52   building {way}"]
        for k, s in enumerate(self.order):
            top = TEXT[_foundation_top(s, self.foundation[s], self.direction)]
            lines.append(
                f"M{k + 1} {left(rows[k])}  [{top}]  {' '.join(rows[k + 4]).ljust(width)} M{k + 5}"
            )
        cellar = TEXT[self.cellar] if self.cellar >= 0 else "--"
        lines.append(f"A1 {left(rows[8])}  ({cellar})  {' '.join(rows[9]).ljust(width)} A2")
        return "\n".join(lines)


def _rule(source: str, dest: str) -> tuple[Apply, int, int] | Illegal:
    """The rule function of the move `source>dest`, or why no position allows it."""
    r = ROW_NAMES.index(source) if source != "C" else -1
    if dest in ("A1", "A2"):
        return Illegal(
            "nothing is ever placed on an auxiliary row (rules 5 and 6)", "never_placed", place=dest
        )
    if source == dest:
        return Illegal(f"{source} cannot move onto itself", "same_pile", place=source)
    if dest == "C":
        return (Masterpiece._row_to_cellar, r, 0)
    if dest == "F":
        if source == "C":
            return (Masterpiece._cellar_to_foundation, 0, 0)
        if r in AUX:
            return Illegal(
                "an auxiliary row's card reaches a foundation only through a main row or the "
                "cellar (rule 10)",
                "aux_to_foundation",
                place=source,
            )
        return (Masterpiece._main_to_foundation, r, 0)
    j = ROW_NAMES.index(dest)
    if source == "C":
        return (Masterpiece._cellar_to_main, 0, j)
    return (Masterpiece._row_to_main, r, j)


build_tables(Masterpiece, _rule)
