"""The engine's two kinds of error: malformed input and illegal moves.

Malformed means the text itself is wrong (an unknown card code, a deal with 51 cards, a move
token naming no pile of the game). Illegal means the text is well formed but the rules forbid it
in the position at hand. Both carry the offending token, its index in the move history when
there is one, and a reason a person understands. An illegal move also carries a stable `code`
(one of `REFUSALS`) and its `facts`, from which a page builds a sentence in its own language.
"""

from __future__ import annotations

from typing import Any

#: Every code of a refused move, with the facts it carries. Facts name cards by code ("7H"),
#: piles by name ("T3", "W", "FH", "C"), ranks by their letter ("A", "T", "K"), colours as
#: "red"/"black" and directions as "up"/"down"; never a card the player has not seen.
REFUSALS: dict[str, tuple[str, ...]] = {
    "stock_empty": (),
    "pile_empty": ("place",),
    "foundation_empty": ("card", "suit"),
    "foundation_next": ("card", "suit", "rank"),
    "foundation_start": ("card",),
    "column_takes": ("card", "onto", "colour", "rank"),
    "nothing_on_ace": ("onto",),
    "empty_takes_king": ("card", "place"),
    "no_run": ("place", "onto", "colour", "rank"),
    "no_king_run": ("place", "to"),
    "row_takes": ("card", "onto", "ranks"),
    "cellar_full": ("card",),
    "cellar_locked": ("card",),
    "aux_to_foundation": ("place",),
    "never_placed": ("place",),
    "stock_to_waste_only": (),
    "foundation_to_tableau_only": (),
    "same_pile": ("place",),
    "nothing_to_undo": (),
}


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
    """A well-formed move that the rules do not allow in the current position: its `code` (a
    key of `REFUSALS`) and `facts` say why, as data; `reason` says it in English."""

    kind = "illegal"

    def __init__(
        self,
        reason: str,
        *,
        code: str,
        facts: dict[str, Any] | None = None,
        token: str | None = None,
        index: int | None = None,
    ):
        self.code = code
        self.facts = dict(facts or {})
        super().__init__(reason, token=token, index=index)
