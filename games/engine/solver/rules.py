"""What the games' solver rules share: playing steps in place on an engine object, with the
forced moves after each, and taking them back; and the class data that is each game's whole
registration with the solver (par plan, difficulty cut points, budgets)."""

from __future__ import annotations

from typing import Any, ClassVar

from ..base import Game, Illegal
from .search import Step

#: What `play` returns and `unplay` takes: the tokens played (the step and the forced moves
#: after it) and their undo records.
Undo = tuple[Step, list[Any]]


class SolverRules:
    """Base of `MungerRules` and `MasterpieceRules`: subclasses generate steps, say which
    foundation moves are forced (`_auto`), and set the class data below.

    A new game's solver is one subclass listed in `games.engine.solver.RULES`.
    """

    #: The engine class of the game these rules solve.
    GAME: ClassVar[type[Game]]
    #: The par search steps: (method, weight, share of the remaining par time), in turn.
    PAR_PLAN: ClassVar[tuple[tuple[str, float, float], ...]] = ()
    #: Difficulty score cut points between levels 1|2, 2|3, 3|4 and 4|5 (docs/solver.md,
    #: "Difficulty"): the quintiles of the scores of the winnable deals among seeds 1..200,
    #: from `benchmarks/solve.py GAME --seeds 1..200 --calibrate` (default par time).
    DIFFICULTY_CUTS: ClassVar[tuple[float, float, float, float]]
    #: Seconds the scheduler gives the solver to decide a new candidate deal.
    CANDIDATE_SECONDS: ClassVar[float]
    #: The simple lower bound of a deal's moves that the par targets are measured against
    #: (one move per card to go up, and per stock card for its draw).
    SIMPLE_BOUND: ClassVar[int]

    def __init__(self, game: Game) -> None:
        self.game: Any = game
        self.decode = type(game).DECODE

    @classmethod
    def for_search(cls, game: Game, *, shortest: bool, plain: bool = False) -> SolverRules:
        """The rules for deciding a deal (`shortest=False`) or for the par search, played in
        place on `game`; `plain=True` turns every dominance off."""
        raise NotImplementedError

    def _auto(self, tokens: list[str], records: list[Any]) -> None:
        """Play the forced moves of the position, appending their tokens and undo records."""

    def _apply(self, token: str) -> Any:
        op = self.decode[token]
        return op[0](self.game, op[1], op[2])

    def start(self) -> Undo:
        """The forced moves of the start position, like `play` of an empty step."""
        return self.play(())

    def play(self, step: Step) -> Undo:
        """Play a step and the forced moves after it; return the tokens and undo records."""
        game, decode = self.game, self.decode
        records = []
        for token in step:  # the hottest loop of the solver: no call per token beyond the rule
            op = decode[token]
            records.append(op[0](game, op[1], op[2]))
        tokens = list(step)
        self._auto(tokens, records)
        return tuple(tokens), records

    def unplay(self, undo: Undo) -> None:
        """Take back what `play` (or `start`) returned, in reverse order."""
        game = self.game
        for record in reversed(undo[1]):
            record[0](game, record)

    def playable(self, step: Step) -> bool:
        """Whether every token of a step is legal in turn (then taken back)."""
        records = []
        try:
            for token in step:
                records.append(self._apply(token))
            return True
        except Illegal:
            return False
        finally:
            for record in reversed(records):
                record[0](self.game, record)

    def won(self) -> bool:
        """All 52 cards on the foundations."""
        f = self.game.foundation
        return bool(f[0] + f[1] + f[2] + f[3] == 52)
