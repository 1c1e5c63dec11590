"""The engine's two kinds of error: malformed input and illegal moves.

Malformed means the text itself is wrong (an unknown card code, a deal with 51 cards, a move
token naming no pile of the game). Illegal means the text is well formed but the rules forbid it
in the position at hand. Both carry the offending token, its index in the move history when
there is one, and a reason a person understands.
"""

from __future__ import annotations


class EngineError(ValueError):
    """Base class of every error the engine raises on bad input."""

    kind = "error"

    def __init__(self, reason: str, *, token: str | None = None, index: int | None = None):
        self.reason = reason
        self.token = token
        self.index = index
        super().__init__(self._message())

    def _message(self) -> str:
        parts = []
        if self.index is not None:
            parts.append(f"move {self.index}")
        if self.token is not None:
            parts.append(repr(self.token))
        where = " ".join(parts)
        return f"{where}: {self.reason}" if where else self.reason


class MalformedError(EngineError):
    """Text that is not of the expected form: a card, a deal, a move token, a position."""

    kind = "malformed"


class IllegalMoveError(EngineError):
    """A well-formed move that the rules do not allow in the current position."""

    kind = "illegal"
