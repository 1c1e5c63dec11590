"""Munger (docs/rules.md, "Munger"): a one-deck Canfield-family patience with hidden cards.

State: seven tableau columns (lists, bottom to top) with a bitmask per column of the cards still
face down, the reserve and the waste (lists, top last), the stock (a list whose last card is the
next drawn) and, per suit, how many cards are on its foundation.
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
from .cards import KING, RANK, RANKS, RED, SUIT, SUITS, TEXT, Card, rank_word, suit_word
from .errors import MalformedError
from .moves import Move

COLUMNS = 7
COLUMN_NAMES = tuple(f"T{k}" for k in range(1, COLUMNS + 1))
SINGLE_PILES = ("W", "R")  # index 0 is the waste, 1 the reserve
PILE_WORDS = {"W": "waste", "R": "reserve", "S": "stock"}


def _foundation_card(suit: int, count: int) -> int:
    return suit * 13 + count - 1


def _needs(top: int) -> dict[str, str]:
    """The colour and rank letter a column whose top card is `top` (not an Ace) takes
    (rule 8), as a refusal's facts."""
    return {"colour": "black" if RED[top] else "red", "rank": RANKS[RANK[top] - 2]}


def _foundation_takes(card: int, count: int) -> Illegal:
    """Rule 7's refusal of `card` onto its foundation, which holds `count` cards. The reason
    names ranks in words, never a card code: the card the foundation needs may still be face
    down."""
    pile = f"the {suit_word(SUIT[card])} foundation"
    facts = {"card": TEXT[card], "suit": SUITS[SUIT[card]]}
    if count == 0:
        return Illegal(
            f"{TEXT[card]} cannot go to its foundation: {pile} is empty and takes the "
            "Ace first (rule 7)",
            "foundation_empty",
            **facts,
        )
    return Illegal(
        f"{TEXT[card]} cannot go to its foundation: {pile} holds up to the "
        f"{rank_word(count)} and takes the {rank_word(count + 1)} next (rule 7)",
        "foundation_next",
        **facts,
        rank=RANKS[count],
    )


def _column_takes(card: int, top: int) -> Illegal:
    """Rule 8's refusal of `card` onto a column whose top card is `top`."""
    if RANK[top] == 1:
        return Illegal(
            f"{TEXT[card]} cannot go on {TEXT[top]}: nothing goes on an Ace (rule 8)",
            "nothing_on_ace",
            onto=TEXT[top],
        )
    needs = _needs(top)
    return Illegal(
        f"{TEXT[card]} cannot go on {TEXT[top]}: it takes a {needs['colour']} "
        f"{rank_word(RANK[top] - 1)} (rule 8)",
        "column_takes",
        card=TEXT[card],
        onto=TEXT[top],
        **needs,
    )


class Munger(Game):
    """Munger: seven columns half face down, a reserve of seven, one pass through the stock."""

    name: ClassVar[str] = "munger"
    title: ClassVar[str] = "Munger"
    native_title: ClassVar[str] = ""
    EXAMPLE: ClassVar[str] = "T3>T5"
    SOURCES: ClassVar[tuple[str, ...]] = (*COLUMN_NAMES, "R", "W", "S", *(f"F{s}" for s in SUITS))
    DESTINATIONS: ClassVar[tuple[str, ...]] = (*COLUMN_NAMES, "F", "W", "R", "S")

    tableau: list[list[int]]
    hidden: list[int]
    reserve: list[int]
    waste: list[int]
    stock: list[int]
    foundation: list[int]

    # -- construction -------------------------------------------------------------------

    def _setup(self, cards: list[Any]) -> None:
        cards = [int(c) for c in cards]
        # Column k holds deal cards k, 7+k, 14+k, 21+k: down, up, down, up (rule 2).
        self.tableau = [[cards[k], cards[7 + k], cards[14 + k], cards[21 + k]] for k in range(7)]
        self.hidden = [0b0101] * COLUMNS
        self.reserve = cards[28:35]
        self.waste = []
        self.stock = cards[35:][::-1]
        self.foundation = [0, 0, 0, 0]
        self.revealed = self._visible_cards()

    def _copy_from(self, other: Any) -> None:
        self.tableau = [list(col) for col in other.tableau]
        self.hidden = list(other.hidden)
        self.reserve = list(other.reserve)
        self.waste = list(other.waste)
        self.stock = list(other.stock)
        self.foundation = list(other.foundation)

    def _visible_cards(self) -> set[int]:
        seen = set(self.reserve) | set(self.waste)
        for col, hidden in zip(self.tableau, self.hidden, strict=True):
            seen.update(c for i, c in enumerate(col) if not hidden >> i & 1)
        for s, count in enumerate(self.foundation):
            seen.update(_foundation_card(s, r) for r in range(1, count + 1))
        return seen

    # -- rule functions: check, then change; raise Illegal before changing anything -----

    def _draw(self, a: int, b: int) -> Record:
        # Rule 5: one card from the stock onto the waste; one pass, no redeal.
        if not self.stock:
            raise Illegal("the stock is empty, and there is no redeal (rule 5)", "stock_empty")
        card = self.stock.pop()
        self.waste.append(card)
        return (Munger._revert_draw, card)

    def _revert_draw(self, record: Record) -> None:
        self.stock.append(self.waste.pop())

    def _to_foundation(self, card: int) -> None:
        # Rule 7: the next rank up of the card's own suit.
        count = self.foundation[SUIT[card]]
        if count != RANK[card] - 1:
            raise Illegal.later(_foundation_takes, card, count)

    def _on_column(self, card: int, j: int) -> None:
        # Rules 8 and 10: one rank lower and the other colour, or a King on an empty column.
        column = self.tableau[j]
        if not column:
            if RANK[card] != KING:
                raise Illegal(
                    f"T{j + 1} is empty and takes only a King (rule 10)",
                    "empty_takes_king",
                    card=TEXT[card],
                    place=f"T{j + 1}",
                )
            return
        top = column[-1]
        if RANK[top] != RANK[card] + 1 or RED[top] == RED[card]:
            raise Illegal.later(_column_takes, card, top)

    def _single_to_foundation(self, a: int, b: int) -> Record:
        pile = self.waste if a == 0 else self.reserve
        if not pile:
            raise Illegal(
                f"the {PILE_WORDS[SINGLE_PILES[a]]} is empty", "pile_empty", place=SINGLE_PILES[a]
            )
        card = pile[-1]
        self._to_foundation(card)
        pile.pop()
        self.foundation[SUIT[card]] += 1
        return (Munger._revert_single_to_foundation, -1, a, card)

    def _revert_single_to_foundation(self, record: Record) -> None:
        card = record[3]
        self.foundation[SUIT[card]] -= 1
        (self.waste if record[2] == 0 else self.reserve).append(card)

    def _single_to_column(self, a: int, j: int) -> Record:
        pile = self.waste if a == 0 else self.reserve
        if not pile:
            raise Illegal(
                f"the {PILE_WORDS[SINGLE_PILES[a]]} is empty", "pile_empty", place=SINGLE_PILES[a]
            )
        card = pile[-1]
        self._on_column(card, j)
        self.tableau[j].append(pile.pop())
        return (Munger._revert_single_to_column, -1, a, j)

    def _revert_single_to_column(self, record: Record) -> None:
        (self.waste if record[2] == 0 else self.reserve).append(self.tableau[record[3]].pop())

    def _foundation_to_column(self, s: int, j: int) -> Record:
        # Rule 6: a foundation's top card may come back to the tableau.
        count = self.foundation[s]
        if not count:
            raise Illegal(
                f"the {suit_word(s)} foundation is empty", "pile_empty", place=f"F{SUITS[s]}"
            )
        card = _foundation_card(s, count)
        self._on_column(card, j)
        self.foundation[s] = count - 1
        self.tableau[j].append(card)
        return (Munger._revert_foundation_to_column, -1, s, j)

    def _revert_foundation_to_column(self, record: Record) -> None:
        self.tableau[record[3]].pop()
        self.foundation[record[2]] += 1

    def _flip(self, i: int) -> int:
        """Rule 12: a face-down card left on top turns face up; returns it, or -1."""
        n = len(self.tableau[i])
        if n and self.hidden[i] >> (n - 1) & 1:
            self.hidden[i] ^= 1 << (n - 1)
            return self.tableau[i][-1]
        return -1

    def _unflip(self, i: int, card: int) -> None:
        if card >= 0:
            self.hidden[i] |= 1 << (len(self.tableau[i]) - 1)

    def _column_to_foundation(self, i: int, b: int) -> Record:
        column = self.tableau[i]
        if not column:
            raise Illegal(f"T{i + 1} is empty", "pile_empty", place=f"T{i + 1}")
        card = column[-1]
        self._to_foundation(card)
        column.pop()
        self.foundation[SUIT[card]] += 1
        return (Munger._revert_column_to_foundation, self._flip(i), i, card)

    def _revert_column_to_foundation(self, record: Record) -> None:
        i, card = record[2], record[3]
        self._unflip(i, record[1])
        self.foundation[SUIT[card]] -= 1
        self.tableau[i].append(card)

    def _column_to_column(self, i: int, j: int) -> Record:
        # Rules 8-10: the one run of face-up cards whose lowest card fits the destination.
        source = self.tableau[i]
        if not source:
            raise Illegal(f"T{i + 1} is empty", "pile_empty", place=f"T{i + 1}")
        target = self.tableau[j]
        top = source[-1]
        if target:
            dest = target[-1]
            offset = RANK[dest] - 1 - RANK[top]
        else:
            offset = KING - RANK[top]
        n = len(source)
        start = n - 1 - offset
        if offset < 0 or start < 0 or not self._is_run(i, start):
            raise Illegal.later(self._no_run, i, j)
        if target and RED[source[start]] == RED[target[-1]]:
            raise Illegal.later(self._no_run, i, j)
        target.extend(source[start:])
        del source[start:]
        return (Munger._revert_column_to_column, self._flip(i), i, j, n - start)

    def _revert_column_to_column(self, record: Record) -> None:
        i, j, count = record[2], record[3], record[4]
        self._unflip(i, record[1])
        target = self.tableau[j]
        self.tableau[i].extend(target[-count:])
        del target[-count:]

    def _is_run(self, i: int, start: int) -> bool:
        """Cards start..top of column i are face up and each is one lower, other colour."""
        column = self.tableau[i]
        hidden = self.hidden[i]
        if hidden >> start:
            return False
        for k in range(start, len(column) - 1):
            lower, upper = column[k], column[k + 1]
            if RANK[lower] != RANK[upper] + 1 or RED[lower] == RED[upper]:
                return False
        return True

    def _no_run(self, i: int, j: int) -> Illegal:
        target = self.tableau[j]
        if not target:
            return Illegal(
                f"no run of T{i + 1} starts with a King, "
                f"and empty T{j + 1} takes only a King (rule 10)",
                "no_king_run",
                place=f"T{i + 1}",
                to=f"T{j + 1}",
            )
        dest = target[-1]
        if RANK[dest] == 1:
            return Illegal(
                f"nothing goes on {TEXT[dest]}, an Ace (rule 8)", "nothing_on_ace", onto=TEXT[dest]
            )
        needs = _needs(dest)
        return Illegal(
            f"no face-up run of T{i + 1} starts with the "
            f"{needs['colour']} {rank_word(RANK[dest] - 1)} "
            f"that {TEXT[dest]} needs (rules 8 and 9)",
            "no_run",
            place=f"T{i + 1}",
            onto=TEXT[dest],
            **needs,
        )

    # -- what a legal move carries, finishing lines --------------------------------------

    def _carried(self, move: Move, record: Record) -> tuple[int, int]:
        if move.source == "S":
            return -1, 1  # the drawn card was face down until now: never named
        if move.destination == "F":
            return record[3], 1  # a move to a foundation records its card at index 3
        column = self.tableau[int(move.destination[1]) - 1]
        count = record[4] if move.source[0] == "T" else 1
        return column[-count], count

    def _may_finish(self) -> bool:
        # Foundation moves alone never draw and never play a card the player has not seen.
        return not self.stock and not any(self.hidden)

    # -- outcome and invariants ---------------------------------------------------------

    @property
    def foundation_cards(self) -> int:
        f = self.foundation
        return f[0] + f[1] + f[2] + f[3]

    def cards(self) -> list[int]:
        found = [_foundation_card(s, r) for s in range(4) for r in range(1, self.foundation[s] + 1)]
        tableau = [c for col in self.tableau for c in col]
        return tableau + self.reserve + self.waste + self.stock + found

    # -- views and text forms -----------------------------------------------------------

    def view(self, *, full: bool = False) -> dict[str, Any]:
        """What a player may see (`full=True`: everything, for admins and tests).

        Face-down cards and the stock appear as counts and backs; a hidden card's code appears
        only if the player has seen it before (it was turned up, then turned back by an undo).
        """
        known = self.revealed
        tableau = []
        for col, hidden in zip(self.tableau, self.hidden, strict=True):
            pile = []
            for i, card in enumerate(col):
                up = not hidden >> i & 1
                show = up or full or card in known
                pile.append({"card": TEXT[card] if show else None, "face_up": up})
            tableau.append(pile)
        stock_known = []
        for card in reversed(self.stock):
            if not (full or card in known):
                break
            stock_known.append(TEXT[card])
        return {
            "game": self.name,
            "foundations": [
                {
                    "suit": SUITS[s],
                    "top": TEXT[_foundation_card(s, n)] if n else None,
                    "count": n,
                }
                for s, n in enumerate(self.foundation)
            ],
            "tableau": tableau,
            "reserve": [TEXT[c] for c in self.reserve],
            "waste": [TEXT[c] for c in self.waste],
            "stock": {"count": len(self.stock), "known": stock_known},
            "foundation_cards": self.foundation_cards,
        }

    def to_text(self) -> str:
        """`munger; F 3C - AH -; T1 *5D 8S *2H 7C; ...; T7 ...; R ...; W ...; S ...`.

        Piles are listed bottom to top (the last card is the top; for the stock, the next card
        drawn); `*` marks a face-down card; F gives each suit's top card in C D H S order.
        """
        parts = ["munger"]
        parts.append(
            " ".join(
                ["F"]
                + [
                    TEXT[_foundation_card(s, n)] if n else "-"
                    for s, n in enumerate(self.foundation)
                ]
            )
        )
        for k, (col, hidden) in enumerate(zip(self.tableau, self.hidden, strict=True)):
            cards = [("*" if hidden >> i & 1 else "") + TEXT[c] for i, c in enumerate(col)]
            parts.append(" ".join([f"T{k + 1}", *cards]))
        for name, pile in (("R", self.reserve), ("W", self.waste), ("S", self.stock)):
            parts.append(" ".join([name, *(TEXT[c] for c in pile)]))
        return "; ".join(parts)

    @classmethod
    def from_text(cls, text: str) -> Munger:
        segments = position_segments(text, "munger")
        names = ["F", *COLUMN_NAMES, "R", "W", "S"]
        if [seg[0] for seg in segments] != names:
            raise MalformedError(
                "a Munger position lists the piles " + ", ".join(names) + " in that order",
                token=text,
            )
        game = cls()
        foundation_tokens = segments[0][1:]
        if len(foundation_tokens) != 4:
            raise MalformedError("F lists 4 foundation tops, - for an empty one", token=text)
        game.foundation = []
        for s, token in enumerate(foundation_tokens):
            if token == "-":
                game.foundation.append(0)
                continue
            card = Card.from_text(token)
            if SUIT[card] != s:
                raise MalformedError("F lists the foundations in C D H S order", token=token)
            game.foundation.append(RANK[card])
        game.tableau, game.hidden = [], []
        for segment in segments[1:8]:
            col, hidden = [], 0
            for i, token in enumerate(segment[1:]):
                if token.startswith("*"):
                    hidden |= 1 << i
                    token = token[1:]
                col.append(int(Card.from_text(token)))
            if col and hidden >> (len(col) - 1) & 1:
                raise MalformedError(
                    "a column's top card is always face up (rule 12)", token=segment[0]
                )
            game.tableau.append(col)
            game.hidden.append(hidden)
        game.reserve, game.waste, game.stock = (
            [int(Card.from_text(t)) for t in seg[1:]] for seg in segments[8:]
        )
        check_52_cards(game.cards())
        game.revealed = game._visible_cards()
        return game

    def render(self, *, player: bool = False) -> str:
        """The position drawn as text; `player=True` hides what the player may not see."""
        view = self.view(full=not player)
        lines = [f"{self.title}   foundation cards {self.foundation_cards}/52"]
        lines.append("F   " + "  ".join(f["top"] or f"-{f['suit']}" for f in view["foundations"]))
        for k, pile in enumerate(view["tableau"]):
            shown = [
                (e["card"] if e["face_up"] else f"*{e['card']}" if e["card"] else "##")
                for e in pile
            ]
            lines.append(f"T{k + 1}  " + " ".join(shown))
        lines.append("R   " + " ".join(view["reserve"]) + "   (top last)")
        lines.append("W   " + " ".join(view["waste"]))
        stock = view["stock"]
        if player:
            known = f", next: {' '.join(stock['known'])}" if stock["known"] else ""
            lines.append(f"S   {stock['count']} face down{known}")
        else:
            lines.append("S   " + " ".join(stock["known"]) + "   (next first)")
        return "\n".join(lines)


def _rule(source: str, dest: str) -> tuple[Apply, int, int] | Illegal:
    """The rule function of the move `source>dest`, or why no position allows it."""
    if dest in ("R", "S") or (dest == "W" and source != "S"):
        return Illegal(
            f"nothing is ever placed on the {PILE_WORDS[dest]} (rule 11)",
            "never_placed",
            place=dest,
        )
    if source == "S":
        if dest == "W":
            return (Munger._draw, 0, 0)
        return Illegal(
            "the stock deals only to the waste, with S>W (rule 5)", "stock_to_waste_only"
        )
    if source.startswith("F"):
        if dest == "F":
            return Illegal(
                "a foundation card goes back only to the tableau (rule 6)",
                "foundation_to_tableau_only",
            )
        return (Munger._foundation_to_column, SUITS.index(source[1]), int(dest[1]) - 1)
    if source in SINGLE_PILES:
        a = SINGLE_PILES.index(source)
        if dest == "F":
            return (Munger._single_to_foundation, a, 0)
        return (Munger._single_to_column, a, int(dest[1]) - 1)
    i = int(source[1]) - 1
    if dest == "F":
        return (Munger._column_to_foundation, i, 0)
    if dest == source:
        return Illegal("a column cannot move onto itself", "same_pile", place=source)
    return (Munger._column_to_column, i, int(dest[1]) - 1)


build_tables(Munger, _rule)
