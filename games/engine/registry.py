"""The table of games: every game class registered once, looked up by its name."""

from __future__ import annotations

from .base import Game
from .errors import MalformedError
from .masterpiece import Masterpiece
from .munger import Munger

GAMES: dict[str, type[Game]] = {cls.name: cls for cls in (Munger, Masterpiece)}


def game_class(name: str) -> type[Game]:
    """The class of game `name`; `MalformedError` for an unknown name."""
    try:
        return GAMES[name]
    except (KeyError, TypeError):
        raise MalformedError(f"unknown game {name!r}: the games are {', '.join(GAMES)}") from None


def deal(game: str, seed: int) -> str:
    """The deal string of `seed` for `game` (pure; pinned by golden tests and docs/deals.md).

    >>> deal("munger", 1)[:29]
    '7D 9C 4D 8H 8D 5S JD 6D 9S JC'
    """
    return game_class(game).deal_for_seed(seed)


def new_game(game: str, *, deal: str | None = None, seed: int | None = None) -> Game:
    """The starting position of a deal string or a seed (exactly one of them)."""
    cls = game_class(game)
    if (deal is None) == (seed is None):
        raise MalformedError("give either a deal string or a seed")
    if deal is not None:
        return cls.from_deal(deal)
    assert seed is not None
    return cls.from_seed(seed)
