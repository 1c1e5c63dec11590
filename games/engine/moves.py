"""Move tokens (docs/rules.md, "Move notation").

A move is `SOURCE>DESTINATION`, one token; `U` undoes the last move not yet undone. Which pile
names are valid depends on the game, so games parse tokens (`Game.parse_move`); this module holds
the value type and the generic shape check.

>>> Move.from_text("T3>T5")
Move.from_text('T3>T5')
>>> Move.from_text("T3>T5").source
'T3'
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .errors import MalformedError

UNDO_TEXT = "U"


@dataclass(frozen=True, slots=True)
class Move:
    """One token of a move history: a card move, or the undo `U` (source `U`, no destination)."""

    source: str
    destination: str = ""
    text: str = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        text = self.source if self.source == UNDO_TEXT else f"{self.source}>{self.destination}"
        object.__setattr__(self, "text", text)

    @classmethod
    def from_text(cls, text: str) -> Move:
        """Split a token into source and destination, checking only its shape."""
        if text == UNDO_TEXT:
            return UNDO
        source, sep, destination = text.partition(">")
        if not sep or not source or not destination or ">" in destination:
            raise MalformedError("a move is SOURCE>DESTINATION (such as T3>T5) or U", token=text)
        return cls(source, destination)

    @property
    def is_undo(self) -> bool:
        return self.source == UNDO_TEXT

    def to_text(self) -> str:
        return self.text

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Move.from_text({self.text!r})"


UNDO = Move(UNDO_TEXT)


@dataclass(frozen=True, slots=True)
class LegalMove:
    """A legal card move and what it carries: `card`, the code of the face-up card that leads
    what moves (None when the player may not see it: a Munger draw), and `count`, how many
    cards move (more than one only for a Munger run).

    >>> LegalMove("T2>T5", "9H", 3).to_json()
    {'move': 'T2>T5', 'card': '9H', 'count': 3}
    """

    move: str
    card: str | None
    count: int

    def to_json(self) -> dict[str, Any]:
        """`{"move": ..., "card": ..., "count": ...}`, for the API and the play protocol."""
        return {"move": self.move, "card": self.card, "count": self.count}


def split_moves(moves: str | list[str] | tuple[str, ...]) -> list[str]:
    """A history given as one string of tokens separated by white space, or as a list."""
    if isinstance(moves, str):
        return moves.split()
    return list(moves)
