"""Cards and their two-character codes (docs/rules.md, "Cards").

A card is an `int` from 0 to 51 (`suit * 13 + rank - 1`, suits in the order C D H S), wrapped in
the `Card` class so that it prints as its code. The engine's hot paths index the tables below
with plain ints; `Card` exists for the public API and for readable reprs.

>>> Card.from_text("TS")
Card.from_text('TS')
>>> Card.from_text("TS").rank, Card.from_text("TS").suit
(10, 'S')
"""

from __future__ import annotations

from typing import Final

from .errors import MalformedError

RANKS: Final = "A23456789TJQK"
SUITS: Final = "CDHS"
RED_SUITS: Final = frozenset("DH")
KING: Final = 13
SUIT_NAMES: Final = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
#: The words for ranks in messages meant for people: Ace, 2 .. 10, Jack, Queen, King.
RANK_NAMES: Final = {
    1: "Ace",
    **{r: str(r) for r in range(2, 11)},
    11: "Jack",
    12: "Queen",
    13: "King",
}
SYMBOLS: Final = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}

#: Per card index: rank 1..13, suit index 0..3, True when red, the text code.
RANK: Final[tuple[int, ...]] = tuple(i % 13 + 1 for i in range(52))
SUIT: Final[tuple[int, ...]] = tuple(i // 13 for i in range(52))
RED: Final[tuple[bool, ...]] = tuple(SUITS[i // 13] in RED_SUITS for i in range(52))
TEXT: Final[tuple[str, ...]] = tuple(RANKS[i % 13] + SUITS[i // 13] for i in range(52))


class Card(int):
    """One of the 52 cards, an int 0..51 that reads and writes its two-character code."""

    __slots__ = ()

    @classmethod
    def of(cls, rank: int, suit: str | int) -> Card:
        """The card of `rank` (1..13) and `suit` (a letter of CDHS or its index)."""
        s = SUITS.index(suit) if isinstance(suit, str) else suit
        if not (1 <= rank <= 13 and 0 <= s <= 3):
            raise MalformedError(f"no card has rank {rank} and suit {suit!r}")
        return CARDS[s * 13 + rank - 1]

    @classmethod
    def from_text(cls, text: str) -> Card:
        """Parse a code such as `TS`; anything else raises `MalformedError` naming it."""
        card = _BY_TEXT.get(text)
        if card is None:
            raise MalformedError(_why_not_a_card(text), token=text)
        return card

    def to_text(self) -> str:
        return TEXT[self]

    @property
    def rank(self) -> int:
        return RANK[self]

    @property
    def suit(self) -> str:
        return SUITS[SUIT[self]]

    @property
    def is_red(self) -> bool:
        return RED[self]

    def pretty(self) -> str:
        """Display form, such as `10♠`; never used for interchange."""
        rank = "10" if RANK[self] == 10 else RANKS[RANK[self] - 1]
        return rank + SYMBOLS[self.suit]

    def __str__(self) -> str:
        return TEXT[self]

    def __repr__(self) -> str:
        return f"Card.from_text({TEXT[self]!r})"


CARDS: Final[tuple[Card, ...]] = tuple(Card(i) for i in range(52))
_BY_TEXT: Final[dict[str, Card]] = {TEXT[i]: CARDS[i] for i in range(52)}


def _why_not_a_card(text: str) -> str:
    if len(text) != 2:
        return "a card is two characters, a rank of A23456789TJQK then a suit of CDHS"
    if text.upper() in _BY_TEXT:
        return "card codes are upper case"
    if text[0] not in RANKS:
        return f"{text[0]!r} is not a rank (A23456789TJQK)"
    return f"{text[1]!r} is not a suit (CDHS)"


def rank_word(rank: int) -> str:
    """A rank (1..13) in words: `Ace`, `2` .. `10`, `Jack`, `Queen`, `King`."""
    return RANK_NAMES[rank]


def suit_word(suit: int) -> str:
    """A suit index (0..3, in the order C D H S) in words: `clubs` .. `spades`."""
    return SUIT_NAMES[SUITS[suit]]


def card_name(card: int) -> str:
    """`Queen of spades` for QS: for messages meant for people.

    >>> card_name(Card.from_text("QS"))
    'Queen of spades'
    """
    return f"{rank_word(RANK[card])} of {suit_word(SUIT[card])}"
