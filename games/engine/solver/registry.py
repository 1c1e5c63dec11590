"""The solver rules of each game, by game name: the one place a game joins the solver."""

from __future__ import annotations

from ..base import Game
from ..errors import MalformedError
from .masterpiece import MasterpieceRules
from .munger import MungerRules
from .rules import DECIDE, SolverRules

#: The solver rules class of each game, by game name.
RULES: dict[str, type[SolverRules]] = {
    rules.GAME.name: rules for rules in (MungerRules, MasterpieceRules)
}


def rules_class(game: str) -> type[SolverRules]:
    """The solver rules class of game `game`; `MalformedError` for a game with no solver."""
    try:
        return RULES[game]
    except (KeyError, TypeError):
        known = ", ".join(RULES)
        raise MalformedError(f"no solver for game {game!r}: the games are {known}") from None


def rules_for(game: Game, mode: str = DECIDE) -> SolverRules:
    """The solver rules of the position `game` holds, in `mode` (`rules.DECIDE`, `EXACT` or
    `PLAIN`). The game object is read, never changed."""
    return rules_class(game.name)(game, mode)


def candidate_seconds(game: str) -> float:
    """Seconds the scheduler gives the solver to decide a new candidate deal of `game`.

    >>> candidate_seconds("munger"), candidate_seconds("masterpiece")
    (10.0, 2.0)
    """
    return rules_class(game).CANDIDATE_SECONDS
