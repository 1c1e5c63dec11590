"""What both games share: the move history, undo, legal-move listing and replay of tokens.

A game object is a position plus its history, like a chess board with its move stack. Each game
subclass describes its piles and rules; this base class runs them. Moves are decoded once per
token into `(apply, a, b)` through a per-class table, so checking a played move costs one table
look-up and one call: replay never lists all legal moves.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, ClassVar, TypeVar

from .cards import CARDS, TEXT, Card
from .deals import check_seed, format_deal, parse_deal_cards, shuffled_deck
from .errors import IllegalMoveError, MalformedError
from .moves import UNDO, UNDO_TEXT, LegalMove, Move

# The card numbers a deal given as a sequence must hold, each once.
ALL_CARDS = frozenset(range(52))

G = TypeVar("G", bound="Game")

#: What `Game.outcome` answers: all 52 cards are up; no card move is legal (only `U` may be);
#: or neither.
WON = "won"
BLOCKED = "blocked"
PLAYING = "playing"

#: An undo record: `(revert, revealed_card_or_-1, ...)`; `revert(game, record)` restores.
#: A move to a foundation keeps the card it moved at index 3 (`_carried` reads it there).
Record = tuple[Any, ...]
Apply = Callable[[Any, int, int], Record]


class Illegal(Exception):
    """Raised inside a rule function with the reason, its code (`errors.REFUSALS`) and facts;
    `Game.push` turns it into `IllegalMoveError` with the token and its index.

    A refusal whose words take work to build is raised as `Illegal.later(explain, *args)`:
    `explain(*args)` returns the whole refusal, and is only called when someone reads it (a
    played move refused), never while legal moves are listed, where a refusal only says "not
    this one". It is called before the position changes, so it may read the position."""

    _explain: tuple[Callable[..., Illegal], tuple[Any, ...]] | None = None

    def __init__(self, reason: str, code: str, **facts: Any):
        self.reason = reason
        self.code = code
        self.facts = facts

    @classmethod
    def later(cls, explain: Callable[..., Illegal], *args: Any) -> Illegal:
        refusal = cls.__new__(cls)
        refusal._explain = (explain, args)
        return refusal

    def explained(self) -> Illegal:
        """This refusal with its reason, code and facts."""
        if self._explain is None:
            return self
        explain, args = self._explain
        return explain(*args)


def never(refusal: Illegal) -> Apply:
    """A rule function for a well-formed move that no position allows: it raises `refusal`
    (a fresh copy each time)."""
    reason, code, facts = refusal.reason, refusal.code, refusal.facts

    def apply(game: Any, a: int, b: int) -> Record:
        raise Illegal(reason, code, **facts)

    return apply


class Game:
    """A position of one game and the history that led to it.

    Subclasses set the class data below and implement the pile state, `_setup`, `cards`,
    `view`, `to_text`/`from_text` and `render`.
    """

    #: The game's name in deal strings, the API and the database (`munger`).
    name: ClassVar[str]
    #: The name shown to players, and the game's name in its own language where that differs
    #: ("" when it does not: Munger; «Шедевр» for Masterpiece).
    title: ClassVar[str]
    native_title: ClassVar[str]
    #: A well-formed card move of the game, for the message of a malformed token.
    EXAMPLE: ClassVar[str]
    #: Source and destination pile names that make a well-formed token.
    SOURCES: ClassVar[tuple[str, ...]]
    DESTINATIONS: ClassVar[tuple[str, ...]]
    #: token -> (apply, a, b), built by the subclass for every well-formed card move.
    DECODE: ClassVar[dict[str, tuple[Apply, int, int]]]
    #: The card moves that may be legal somewhere, sorted by text: what `legal_moves` tries.
    CANDIDATES: ClassVar[tuple[Move, ...]]
    #: Those of the candidates whose destination is a foundation, in the same order.
    FOUNDATION_MOVES: ClassVar[tuple[Move, ...]]
    MOVES: ClassVar[dict[str, Move]]

    history: list[str]
    revealed: set[int]
    #: The 52 cards of the deal this game started from (None for a position read from text).
    deal_cards: tuple[Card, ...] | None = None
    _records: list[Record]

    # -- construction -------------------------------------------------------------------

    def __init__(self) -> None:
        self.history = []
        self._records = []
        self.revealed = set()

    @classmethod
    def from_deal(cls: type[G], deal: str | Iterable[int]) -> G:
        """The starting position of a deal string (or a sequence of 52 cards)."""
        cards = parse_deal_cards(deal) if isinstance(deal, str) else list(deal)
        if (
            len(cards) != 52
            or not all(isinstance(c, int) and not isinstance(c, bool) for c in cards)
            or set(cards) != ALL_CARDS
        ):
            raise MalformedError("a deal has each of the 52 cards once")
        cls.check_deal(cards)
        game = cls()
        game._setup(cards)
        game.deal_cards = tuple(CARDS[c] for c in cards)
        return game

    @classmethod
    def from_seed(cls: type[G], seed: int) -> G:
        """The starting position of the deal of `seed` (docs/deals.md)."""
        return cls.from_deal(cls.deal_for_seed(seed))

    @classmethod
    def deal_for_seed(cls, seed: int) -> str:
        """The deal string of `seed` (docs/deals.md)."""
        return format_deal(cls.layout_deck(shuffled_deck(check_seed(seed))))

    @classmethod
    def layout_deck(cls, deck: list[Any]) -> list[Any]:
        """The deal order of a shuffled deck; the identity unless a game says otherwise."""
        return deck

    @classmethod
    def check_deal(cls, cards: list[Any]) -> None:
        """Raise `MalformedError` if the game cannot lay out these 52 cards."""

    def _setup(self, cards: list[Any]) -> None:
        raise NotImplementedError

    def copy(self: G) -> G:
        """An independent copy: position, history and what the player has seen."""
        other = type(self).__new__(type(self))
        other._copy_from(self)
        other.history = list(self.history)
        other._records = list(self._records)
        other.revealed = set(self.revealed)
        other.deal_cards = self.deal_cards
        return other

    def _copy_from(self, other: Any) -> None:
        raise NotImplementedError

    # -- moves --------------------------------------------------------------------------

    @classmethod
    def parse_move(cls, text: str) -> Move:
        """The `Move` of a token of this game; `MalformedError` names what is wrong."""
        move = cls.MOVES.get(text)
        if move is not None:
            return move
        if text == UNDO_TEXT:
            return UNDO
        raise cls._malformed(text)

    @classmethod
    def _malformed(cls, text: object, index: int | None = None) -> MalformedError:
        if not isinstance(text, str):
            return MalformedError("a move is a string", token=repr(text), index=index)
        try:
            shape = Move.from_text(text)
        except MalformedError:
            shape = None
        if shape is None or shape.is_undo:
            reason = "a move is SOURCE>DESTINATION (such as " + cls.EXAMPLE + ") or U"
        elif shape.source not in cls.SOURCES:
            reason = (
                f"{shape.source!r} is not a source pile of {cls.title} ({' '.join(cls.SOURCES)})"
            )
        elif shape.destination not in cls.DESTINATIONS:
            reason = (
                f"{shape.destination!r} is not a destination pile of {cls.title} "
                f"({' '.join(cls.DESTINATIONS)})"
            )
        else:  # pragma: no cover - every pair of known piles is in DECODE
            reason = "not a move of " + cls.title
        return MalformedError(reason, token=text, index=index)

    def push(self, move: Move | str) -> tuple[int, ...]:
        """Play one token (a card move or `U`), after checking it against the position.

        Returns the cards this move turned face up (Munger's draws and flips), possibly none.
        Raises `MalformedError` or `IllegalMoveError`, both naming the token and its index in
        the history, and then changes nothing.
        """
        if type(move) is str:
            text = move
        elif isinstance(move, Move):
            text = move.text
        else:
            raise self._malformed(move, len(self.history))
        op = self.DECODE.get(text)
        if op is None:
            if text == UNDO_TEXT:
                return self._undo()
            raise self._malformed(text, len(self.history))
        try:
            record = op[0](self, op[1], op[2])
        except Illegal as exc:
            refusal = exc.explained()
            raise IllegalMoveError(
                refusal.reason,
                code=refusal.code,
                facts=refusal.facts,
                token=text,
                index=len(self.history),
            ) from None
        self._records.append(record)
        self.history.append(text)
        card = record[1]
        if card >= 0:
            self.revealed.add(card)
            return (card,)
        return ()

    def _undo(self) -> tuple[int, ...]:
        if not self._records:
            raise IllegalMoveError(
                "there is no move to undo",
                code="nothing_to_undo",
                token=UNDO_TEXT,
                index=len(self.history),
            )
        record = self._records.pop()
        record[0](self, record)
        self.history.append(UNDO_TEXT)
        return ()

    def _try(self, text: str) -> Record | None:
        """Play a well-formed card move if the rules allow it: its undo record (the caller
        takes it back with `record[0](game, record)`), or None, having changed nothing."""
        op = self.DECODE[text]
        try:
            return op[0](self, op[1], op[2])
        except Illegal:
            return None

    def is_legal(self, move: Move | str) -> bool:
        """Whether `move` (a `Move` or a token) may be played now; False for a malformed one."""
        text = move if isinstance(move, str) else move.text
        if text == UNDO_TEXT:
            return bool(self._records)
        if text not in self.DECODE:
            return False
        record = self._try(text)
        if record is None:
            return False
        record[0](self, record)
        return True

    def legal_moves(self) -> list[Move]:
        """Every card move the rules allow now, sorted by text (`U` is never listed)."""
        legal = []
        for move in self.CANDIDATES:
            record = self._try(move.text)
            if record is not None:
                record[0](self, record)
                legal.append(move)
        return legal

    def legal_moves_carrying(self) -> list[LegalMove]:
        """`legal_moves()`, each with what it carries: the face-up card that leads what moves
        and how many cards move. A card the player cannot see is never named: a Munger draw
        carries `card=None`.

        >>> from games.engine import new_game
        >>> [m.to_json() for m in new_game("munger", seed=1).legal_moves_carrying()][:2]
        [{'move': 'R>F', 'card': 'AH', 'count': 1}, {'move': 'S>W', 'card': None, 'count': 1}]
        """
        legal = []
        for move in self.CANDIDATES:
            record = self._try(move.text)
            if record is not None:
                card, count = self._carried(move, record)
                record[0](self, record)
                legal.append(LegalMove(move.text, None if card < 0 else TEXT[card], count))
        return legal

    def last_move_carrying(self) -> LegalMove | None:
        """The last card move of the history with what it carried (as `legal_moves_carrying`
        lists it), or None when the history is empty or ends with an undo.

        >>> from games.engine import new_game
        >>> game = new_game("munger", seed=1)
        >>> game.push("R>F")
        ()
        >>> game.last_move_carrying().to_json()
        {'move': 'R>F', 'card': 'AH', 'count': 1}
        """
        if not self.history or self.history[-1] == UNDO_TEXT or not self._records:
            return None
        text = self.history[-1]
        card, count = self._carried(self.parse_move(text), self._records[-1])
        return LegalMove(text, None if card < 0 else TEXT[card], count)

    def _carried(self, move: Move, record: Record) -> tuple[int, int]:
        """Just after `move` was played (its undo `record` not yet applied): the card that
        leads what moved, or -1 when the player may not see it, and how many cards moved."""
        raise NotImplementedError

    def finishing_line(self) -> list[str] | None:
        """Tokens that take every card still in play to the foundations with foundation moves
        only (destination `F`), or None when there is no such line or the game is already won.

        The line plays, again and again, the first legal move to a foundation (on a copy: this
        game does not change). Should that get stuck, the other first moves are tried too: in
        Masterpiece the first card up fixes the direction (rule 9), so it matters which it is.
        In Munger no line exists while the stock or a face-down card remains (a line must not
        depend on cards the player has not seen).
        """
        if self.is_won() or not self._may_finish():
            return None
        game = self.copy()
        firsts = [m.text for m in self.FOUNDATION_MOVES if game.is_legal(m)]
        for first in firsts:
            line = game._greedy_finish(first)
            if line is not None:
                return line
        return None

    def _may_finish(self) -> bool:
        """False when no finishing line can exist here, whatever the cards (a quick check)."""
        return True

    def _greedy_finish(self, first: str) -> list[str] | None:
        """Play `first`, then the first legal foundation move until won or stuck; take every
        move back again. The line if it wins, else None."""
        records = []
        line = [first]
        record = self._try(first)
        assert record is not None
        records.append(record)
        try:
            while not self.is_won():
                for move in self.FOUNDATION_MOVES:
                    record = self._try(move.text)
                    if record is not None:
                        records.append(record)
                        line.append(move.text)
                        break
                else:
                    return None
            return line
        finally:
            for record in reversed(records):
                record[0](self, record)

    def outcome(self) -> str:
        """`WON` (all 52 cards on the foundations), `BLOCKED` (not won, and no card move is
        legal; `U` may still be) or `PLAYING`. Stops at the first legal card move it finds.

        >>> from games.engine import new_game
        >>> new_game("masterpiece", seed=1).outcome()
        'playing'
        """
        if self.is_won():
            return WON
        for move in self.CANDIDATES:
            record = self._try(move.text)
            if record is not None:
                record[0](self, record)
                return PLAYING
        return BLOCKED

    @property
    def deal(self) -> str | None:
        """The deal string this game started from (None for a position read from text)."""
        return None if self.deal_cards is None else format_deal(self.deal_cards)

    @property
    def can_undo(self) -> bool:
        return bool(self._records)

    # -- outcome ------------------------------------------------------------------------

    @property
    def foundation_cards(self) -> int:
        raise NotImplementedError

    def is_won(self) -> bool:
        return self.foundation_cards == 52

    def cards(self) -> list[int]:
        """Every card in the position, once each (for invariant checks)."""
        raise NotImplementedError

    # -- text forms ---------------------------------------------------------------------

    def to_text(self) -> str:
        raise NotImplementedError

    @classmethod
    def from_text(cls: type[G], text: str) -> G:
        raise NotImplementedError

    def view(self, *, full: bool = False) -> dict[str, Any]:
        raise NotImplementedError

    def render(self, *, player: bool = False) -> str:
        raise NotImplementedError

    def __eq__(self, other: object) -> bool:
        """Positions are equal when their text forms are; history is not compared."""
        if not isinstance(other, Game):
            return NotImplemented
        return type(self) is type(other) and self.to_text() == other.to_text()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"{type(self).__name__}.from_text({self.to_text()!r})"


def build_tables(
    game: type[Game], rule_for: Callable[[str, str], tuple[Apply, int, int] | Illegal]
) -> None:
    """Fill a game class's move tables: `rule_for(source, destination)` gives, for every pair of
    pile names, either the rule function and pile indices of that move or, for a move that no
    position ever allows, its refusal. So a token is malformed exactly when it names no pile
    pair of the game, and well formed but illegal when its rule says no."""
    decode: dict[str, tuple[Apply, int, int]] = {}
    never_legal = set()
    for source in game.SOURCES:
        for destination in game.DESTINATIONS:
            token = f"{source}>{destination}"
            rule = rule_for(source, destination)
            if isinstance(rule, Illegal):
                decode[token] = (never(rule), 0, 0)
                never_legal.add(token)
            else:
                decode[token] = rule
    game.DECODE = decode
    game.MOVES = {token: Move(*token.split(">")) for token in decode}
    game.CANDIDATES = tuple(game.MOVES[t] for t in sorted(decode) if t not in never_legal)
    game.FOUNDATION_MOVES = tuple(m for m in game.CANDIDATES if m.destination == "F")


# -- helpers for the games' text forms and messages --------------------------------------


def position_segments(text: str, game: str) -> list[list[str]]:
    if not isinstance(text, str):
        raise MalformedError("a position is a string")
    segments = [seg.split() for seg in text.split(";")]
    if not segments[0] or segments[0] != [game]:
        raise MalformedError(f"a {game} position starts with '{game};'", token=text[:20])
    if any(not seg for seg in segments[1:]):
        raise MalformedError("a pile segment is empty; write its name alone for an empty pile")
    return segments[1:]


def check_52_cards(cards: list[int]) -> None:
    if len(cards) != 52 or len(set(cards)) != 52:
        seen: set[int] = set()
        for c in cards:
            if c in seen:
                raise MalformedError("this card appears twice in the position", token=TEXT[c])
            seen.add(c)
        raise MalformedError(f"a position holds 52 cards, this one has {len(cards)}")
