"""Replay verification: the server's check of every result.

Given a deal and a move history, replay plays each token in turn, checking only the move
played, and answers with a `ReplayResult`: valid with the outcome, or the index, token and
reason of the first bad token. It never answers with a bare bool.

>>> r = replay("munger", deal("munger", 1), "S>W U")
>>> r.valid, r.moves, r.won
(True, 2, False)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from .base import Game
from .errors import EngineError
from .moves import split_moves
from .registry import deal, game_class

__all__ = ["ReplayError", "ReplayResult", "deal", "replay", "replay_game"]


@dataclass(frozen=True, slots=True)
class ReplayError:
    """The first bad token: its index (None when the request itself was malformed)."""

    index: int | None
    move: str
    reason: str
    kind: str  # "malformed" or "illegal"

    def to_json(self) -> dict[str, Any]:
        return {"index": self.index, "move": self.move, "reason": self.reason}


@dataclass(frozen=True, slots=True)
class ReplayResult:
    """The verdict on a history. After an error, `moves`, `won` and `foundation_cards`
    describe the position before the bad token, which `game` holds."""

    valid: bool
    won: bool
    moves: int
    foundation_cards: int
    error: ReplayError | None = None
    game: Game | None = field(default=None, compare=False, repr=False)

    def to_json(self) -> dict[str, Any]:
        """The verdict in the command line's JSON form, with the legal moves after it."""
        return {
            "valid": self.valid,
            "won": self.won,
            "moves": self.moves,
            "foundation_cards": self.foundation_cards,
            "legal": [m.text for m in self.game.legal_moves()] if self.game is not None else [],
            "error": self.error.to_json() if self.error else None,
        }

    @classmethod
    def malformed_request(cls, reason: str) -> ReplayResult:
        """The verdict on a request that names no game or deal to replay on."""
        return cls(False, False, 0, 0, ReplayError(None, "", reason, "malformed"))


def replay_game(game: Game, moves: str | Sequence[str]) -> ReplayResult:
    """Play `moves` on `game` (changed in place) and judge them."""
    push = game.push
    tokens = split_moves(moves) if isinstance(moves, str) else moves
    for token in tokens:
        try:
            push(token)
        except EngineError as exc:
            error = ReplayError(exc.index, str(exc.token), exc.reason, exc.kind)
            return ReplayResult(
                False, game.is_won(), len(game.history), game.foundation_cards, error, game
            )
    return ReplayResult(True, game.is_won(), len(game.history), game.foundation_cards, None, game)


def replay(game: str, deal_string: str, moves: str | Sequence[str]) -> ReplayResult:
    """Replay `moves` from the deal. A malformed game name or deal raises `MalformedError`
    (the request is wrong, not the history); every problem in the history is in the result."""
    return replay_game(game_class(game).from_deal(deal_string), moves)
