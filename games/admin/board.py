"""A position drawn for the admin: the engine's full view turned into piles of cards that the
`admin/games/board.html` template lays out, and the step-by-step replay of a move list.

Admins see everything: Munger's face-down cards are drawn face down, with their code on the
back. Players never get this drawing: it shows the cards they may not see.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from games.engine import Game, game_class, replay
from games.engine.cards import SYMBOLS, Card, card_name


def card(code: str, *, face_down: bool = False, free: bool = False) -> dict[str, Any]:
    """One card as the template draws it: `10♠`, red or black, face up or down."""
    c = Card.from_text(code)
    return {
        "code": code,
        "label": c.pretty(),
        "symbol": SYMBOLS[c.suit],
        "red": c.is_red,
        "face_down": face_down,
        "free": free,
        "name": card_name(c),
    }


def pile(name: str, title: str, cards: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    return {"pile": name, "title": title, "cards": cards, **extra}


def board(game: Game) -> dict[str, Any]:
    """The whole position of `game`, every card shown (`view(full=True)`), drawn by the
    game's entry in `DRAWINGS`."""
    try:
        drawing = DRAWINGS[game.name]
    except KeyError:
        raise LookupError(f"the admin cannot draw {game.name!r}: add it to DRAWINGS") from None
    return drawing.draw(game.view(full=True))


def _foundation(f: dict[str, Any], name: str) -> dict[str, Any]:
    top = [card(f["top"])] if f["top"] else []
    return pile(
        name,
        f"Foundation {SYMBOLS[f['suit']]}",
        top,
        count=f["count"],
        symbol=SYMBOLS[f["suit"]],
        red=f["suit"] in "DH",
    )


def _munger(view: dict[str, Any]) -> dict[str, Any]:
    tableau = []
    for k, column in enumerate(view["tableau"], start=1):
        cards = [card(e["card"], face_down=not e["face_up"]) for e in column]
        tableau.append(pile(f"T{k}", f"T{k}", cards))
    reserve = [card(code) for code in view["reserve"]]
    if reserve:
        reserve[-1]["free"] = True
    waste = [card(code) for code in view["waste"]]
    if waste:
        waste[-1]["free"] = True
    stock = [card(code, face_down=True) for code in view["stock"]["known"]]
    return {
        "game": "munger",
        "foundations": [_foundation(f, "F" + f["suit"]) for f in view["foundations"]],
        "tableau": tableau,
        "reserve": pile("R", "Reserve", reserve),
        "waste": pile("W", "Waste", waste),
        "stock": pile("S", "Stock", stock, count=view["stock"]["count"]),
        "foundation_cards": view["foundation_cards"],
    }


def _row(name: str, codes: list[str]) -> dict[str, Any]:
    # Rows are listed from the centre outwards: the last card is the free one.
    cards = [card(code, free=i == len(codes) - 1) for i, code in enumerate(codes)]
    return pile(name, name, cards)


def _masterpiece(view: dict[str, Any]) -> dict[str, Any]:
    main, aux = view["main_rows"], view["auxiliary_rows"]
    rows = [
        {
            "left": _row(f"M{i + 1}", main[i]),
            "foundation": _foundation(f, "F" + f["suit"]),
            "right": _row(f"M{i + 5}", main[i + 4]),
        }
        for i, f in enumerate(view["foundations"])
    ]
    cellar = [card(view["cellar"], free=True)] if view["cellar"] else []
    return {
        "game": "masterpiece",
        "direction": view["direction"],
        "rows": rows,
        "auxiliary": {
            "left": _row("A1", aux[0]),
            "cellar": pile("C", "Cellar", cellar),
            "right": _row("A2", aux[1]),
        },
        "foundation_cards": view["foundation_cards"],
    }


def _munger_piles(drawn: dict[str, Any]) -> list[dict[str, Any]]:
    return [
        *drawn["foundations"],
        *drawn["tableau"],
        drawn["reserve"],
        drawn["waste"],
        drawn["stock"],
    ]


def _masterpiece_piles(drawn: dict[str, Any]) -> list[dict[str, Any]]:
    piles = []
    for row in drawn["rows"]:
        piles += [row["left"], row["foundation"], row["right"]]
    aux = drawn["auxiliary"]
    return [*piles, aux["left"], aux["cellar"], aux["right"]]


@dataclass(frozen=True)
class Drawing:
    """How the admin draws one game: its full view as piles (`draw`, for the template
    `admin/games/board_<game>.html` part of `board.html`), and every pile of a drawing, in
    order (`piles`)."""

    draw: Callable[[dict[str, Any]], dict[str, Any]]
    piles: Callable[[dict[str, Any]], list[dict[str, Any]]]


#: Each game's drawing, by game name: a game the admin cannot draw is an error, never a
#: drawing of another game.
DRAWINGS: dict[str, Drawing] = {
    "munger": Drawing(_munger, _munger_piles),
    "masterpiece": Drawing(_masterpiece, _masterpiece_piles),
}


def _piles(drawn: dict[str, Any]) -> list[dict[str, Any]]:
    return DRAWINGS[drawn["game"]].piles(drawn)


def locations(drawn: dict[str, Any]) -> dict[str, str]:
    """Where each drawn card lies: card code -> pile name (cards under a foundation's top card
    are not drawn, so not listed)."""
    return {c["code"]: p["pile"] for p in _piles(drawn) for c in p["cards"]}


def mark(drawn: dict[str, Any], *, moved: set[str], revealed: set[str], piles: set[str]) -> None:
    """Flag the cards a move carried and turned up, and the piles it touched."""
    for p in _piles(drawn):
        p["touched"] = p["pile"] in piles
        for c in p["cards"]:
            c["moved"] = c["code"] in moved
            c["revealed"] = c["code"] in revealed and c["code"] not in moved


@dataclass
class ReplayStep:
    """The position after the first `step` tokens of a move list, and what the last one did."""

    step: int
    total: int
    moves: list[str]
    board: dict[str, Any]
    move: str | None = None
    moved: list[str] = field(default_factory=list)
    revealed: list[str] = field(default_factory=list)
    error: str | None = None
    won: bool = False
    foundation_cards: int = 0

    @property
    def description(self) -> str:
        """What the step's move did, in cards: `moved 9♥ 8♠; turned up 4♦`."""
        if self.move is None:
            return "The deal, before any move."
        parts = ["undo"] if self.move == "U" else []
        if self.moved:
            parts.append("moved " + " ".join(Card.from_text(c).pretty() for c in self.moved))
        if self.revealed:
            parts.append("turned up " + " ".join(Card.from_text(c).pretty() for c in self.revealed))
        return "; ".join(parts) if parts else "no card moved"


def replay_step(game: str, deal: str, moves: Sequence[str], step: int) -> ReplayStep:
    """Replay `moves` from `deal` up to `step` (clamped to 0..len(moves)).

    >>> from games.engine import deal
    >>> replay_step("munger", deal("munger", 1), ["R>F", "S>W"], 2).description
    'moved K♠'
    """
    moves = list(moves)
    total = len(moves)
    step = max(0, min(step, total))
    if step == 0:
        start = game_class(game).from_deal(deal)
        return ReplayStep(0, total, moves, board(start), foundation_cards=start.foundation_cards)
    verdict = replay(game, deal, moves[: step - 1])
    position = verdict.game
    assert position is not None
    if not verdict.valid:  # a stored history that no longer replays: show where it breaks
        drawn = board(position)
        error = verdict.error
        return ReplayStep(
            step,
            total,
            moves,
            drawn,
            error=(
                f"Move {error.index} ({error.move}) does not replay: {error.reason}"
                if error
                else "This history does not replay."
            ),
            foundation_cards=position.foundation_cards,
        )
    before = board(position)
    token = moves[step - 1]
    try:
        turned = position.push(token)
    except ValueError as exc:  # the engine's errors are ValueErrors
        return ReplayStep(
            step,
            total,
            moves,
            before,
            move=token,
            error=f"Move {step - 1} ({token}) does not replay: {exc}",
            foundation_cards=position.foundation_cards,
        )
    after = board(position)
    was, now = locations(before), locations(after)
    moved = [code for code, where in now.items() if code in was and was[code] != where]
    revealed = [Card(c).to_text() for c in turned]
    touched = {now[c] for c in moved} | {was[c] for c in moved}
    if token != "U":
        source, _, destination = token.partition(">")
        touched |= {source, destination}
    mark(after, moved=set(moved), revealed=set(revealed), piles=touched)
    return ReplayStep(
        step,
        total,
        moves,
        after,
        move=token,
        moved=moved,
        revealed=[c for c in revealed if c not in moved],
        won=position.is_won(),
        foundation_cards=position.foundation_cards,
    )
