"""The rules engine of Patience Daily: pure Python, no Django, no I/O.

Both games of docs/rules.md (Munger and Masterpiece), their deal strings, seeded deals, move
notation, legal moves, play and undo, the player's view and replay verification.

>>> game = new_game("munger", seed=1)
>>> [m.text for m in game.legal_moves()]
['R>F', 'S>W', 'T3>T5', 'T6>T5']
>>> game.push("R>F")
()
>>> game.foundation_cards
1
"""

from .base import BLOCKED, PLAYING, WON, Game
from .cards import CARDS, Card
from .errors import EngineError, IllegalMoveError, MalformedError
from .masterpiece import Masterpiece
from .moves import UNDO, LegalMove, Move
from .munger import Munger
from .registry import GAMES, deal, game_class, new_game
from .replay import ReplayError, ReplayResult, replay, replay_game

__all__ = [
    "BLOCKED",
    "CARDS",
    "GAMES",
    "UNDO",
    "WON",
    "Card",
    "EngineError",
    "Game",
    "IllegalMoveError",
    "LegalMove",
    "MalformedError",
    "Masterpiece",
    "Move",
    "Munger",
    "PLAYING",
    "ReplayError",
    "ReplayResult",
    "deal",
    "game_class",
    "new_game",
    "replay",
    "replay_game",
]
