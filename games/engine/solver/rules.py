"""What the two games' solver rules share: playing token moves in place on an engine object,
with the forced moves after each, and taking them back."""

from __future__ import annotations

from typing import Any

from ..base import Game, Illegal

Move = tuple[str, ...]
Undo = tuple[Move, list[Any]]


class SolverRules:
    """Base of `MungerRules` and `MasterpieceRules`: subclasses generate moves and say which
    foundation moves are forced (`_auto`)."""

    #: The par search steps: (method, weight, share of the remaining par time), in turn.
    PAR_PLAN: tuple[tuple[str, float, float], ...] = ()

    def __init__(self, game: Game) -> None:
        self.game: Any = game
        self.decode = type(game).DECODE

    def _auto(self, tokens: list[str], records: list[Any]) -> None:
        """Play the forced moves of the position, appending their tokens and undo records."""

    def _apply(self, token: str) -> Any:
        op = self.decode[token]
        return op[0](self.game, op[1], op[2])

    def start(self) -> Undo:
        """The forced moves of the start position, like `play` of an empty move."""
        return self.play(())

    def play(self, move: Move) -> Undo:
        """Play a move and the forced moves after it; return the tokens and undo records."""
        game, decode = self.game, self.decode
        records = []
        for token in move:  # the hottest loop of the solver: no call per token beyond the rule
            op = decode[token]
            records.append(op[0](game, op[1], op[2]))
        tokens = list(move)
        self._auto(tokens, records)
        return tuple(tokens), records

    def unplay(self, undo: Undo) -> None:
        game = self.game
        for record in reversed(undo[1]):
            record[0](game, record)

    def playable(self, move: Move) -> bool:
        """Whether every token of a composite move is legal in turn (then taken back)."""
        records = []
        try:
            for token in move:
                records.append(self._apply(token))
            return True
        except Illegal:
            return False
        finally:
            for record in reversed(records):
                record[0](self.game, record)

    def won(self) -> bool:
        f = self.game.foundation
        return bool(f[0] + f[1] + f[2] + f[3] == 52)
