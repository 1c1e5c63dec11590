"""The state an attempt answers with: built once, here, for the REST API and the play socket.

`attempt_state` turns an attempt and its engine position into an `AttemptState`; both the REST
views and the WebSocket consumer render it with the same serializer
(`games.api.serializers.AttemptStateSerializer`), so the two can never disagree.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from games.engine import Game, replay
from games.engine.solver import safe_foundation_moves
from games.models import Attempt


@dataclass(frozen=True)
class AttemptState:
    """What a player's screen needs after a start, a move or a look.

    `moves` lists each legal card move with the face-up card that leads what moves and how many
    cards move (`card` is None for a stock draw): a browser can offer exactly what the server
    allows without knowing any rule. `blocked` means no card move is left (only undo or
    resign); `finishable` that every card left can reach the foundations by foundation moves
    alone (`attempt_finish` plays them). `version` is the attempt's next seq: it grows with
    every stored move, so a client that saw version v knows what it missed. `day_over`: a
    ranked attempt whose daily's ranked play ended while it was played (`Attempt.day_over`):
    it takes no more moves (none are listed); the player may go on in practice. `hints_open`:
    hints may be asked for (`Attempt.hints_open`: practice, never while a daily is played for
    rank). `last_move`: the last card move and what it carried, as `moves` lists them (None at
    the start or just after an undo), so that every screen of the attempt can mark where it
    came from and went. `safe_moves`: the listed foundation moves that are safe
    (`games.engine.solver.safe_foundation_moves`: they never cost a win nor lengthen the
    shortest one), which a page's auto-move may play, and only those.
    """

    attempt: Attempt
    view: dict[str, Any]
    legal: list[str]
    moves: list[dict[str, Any]]
    can_undo: bool
    blocked: bool
    finishable: bool
    revealed: list[str] = field(default_factory=list)
    replayed: bool = False
    day_over: bool = False
    hints_open: bool = False
    last_move: dict[str, Any] | None = None
    safe_moves: list[str] = field(default_factory=list)
    #: Renderings already made of this state (games.api.serializers.render_state).
    rendered: dict[str, dict[str, Any]] = field(default_factory=dict, compare=False, repr=False)

    @property
    def version(self) -> int:
        return self.attempt.next_seq


def position(attempt: Attempt, upto: int | None = None) -> Game:
    """The authoritative position: the attempt's deal with its stored history replayed."""
    moves = attempt.moves if upto is None else attempt.moves[:upto]
    result = replay(attempt.game, attempt.deal_string, moves)
    if not result.valid or result.game is None:  # stored histories are always valid
        raise RuntimeError(f"attempt {attempt.pk} holds an invalid history: {result.error}")
    return result.game


def attempt_state(
    attempt: Attempt,
    game: Game | None = None,
    *,
    revealed: list[str] | None = None,
    replayed: bool = False,
) -> AttemptState:
    """The state of `attempt` at `game` (its current position when not given)."""
    game = game if game is not None else position(attempt)
    day_over = attempt.day_over()
    playing = not attempt.is_finished and not day_over
    carrying = [] if day_over else game.legal_moves_carrying()
    last = game.last_move_carrying()
    return AttemptState(
        attempt=attempt,
        view=game.view(),
        legal=[m.move for m in carrying],
        moves=[m.to_json() for m in carrying],
        can_undo=game.can_undo and playing,
        # `outcome()` would try the same moves again: blocked is no card move and not won.
        blocked=playing and not carrying and not game.is_won(),
        finishable=playing and bool(carrying) and game.finishing_line() is not None,
        revealed=revealed or [],
        replayed=replayed,
        day_over=day_over,
        hints_open=attempt.hints_open(),
        last_move=last.to_json() if last is not None else None,
        safe_moves=safe_foundation_moves(game) if playing and carrying else [],
    )
