"""Hand-built deals and positions shared by the engine tests.

Won games whose winning line is known, and builders of position texts that name only the piles
a test is about (`munger_position`, `masterpiece_position`).
"""

from __future__ import annotations

from games.engine import Munger

RANKS = "A23456789TJQK"
#: The deck in a fixed order: AC 2C .. KC AD .. KD AH .. KH AS .. KS.
DECK = tuple(rank + suit for suit in "CDHS" for rank in RANKS)
#: Every card in foundation order for building up: AC 2C .. KC AD .. KS.
UP_ORDER = list(DECK)
MUNGER_COLUMNS = tuple(f"T{k}" for k in range(1, 8))
MASTERPIECE_ROWS = (*(f"M{k}" for k in range(1, 9)), "A1", "A2")


def on_foundations(tops: str) -> set[str]:
    """The cards on the foundations whose tops are `tops` (C D H S order, `-` for empty)."""
    cards = set()
    for suit, top in zip("CDHS", tops.split(), strict=True):
        if top != "-":
            cards.update(r + suit for r in RANKS[: RANKS.index(top[0]) + 1])
    return cards


def munger_position(
    *, F: str = "- - - -", R: str = "", W: str = "", S: str = "", rest: str = "R", **columns: str
) -> Munger:
    """A Munger position from the piles given (bottom to top; for S the last card is drawn next).

    Every card not named goes, in deck order, to the bottom of pile `rest`: under the reserve's
    named cards by default (visible, not playable), under the stock's with `rest="S"` (drawn
    last), or face down under a column's with `rest="T7"`.
    """
    piles = {name: columns.pop(name, "").split() for name in MUNGER_COLUMNS}
    assert not columns, f"unknown piles {columns}"
    piles.update(R=R.split(), W=W.split(), S=S.split())
    named = {c.lstrip("*") for cards in piles.values() for c in cards} | on_foundations(F)
    leftover = [c for c in DECK if c not in named]
    if rest in MUNGER_COLUMNS:
        leftover = ["*" + c for c in leftover]
    piles[rest] = leftover + piles[rest]
    segments = ["munger", f"F {F}"] + [" ".join([name, *cards]) for name, cards in piles.items()]
    return Munger.from_text("; ".join(segments))


def masterpiece_position(F: str = "AC AD AH AS", D: str = "-", C: str = "", **rows: str) -> str:
    """A Masterpiece position text: foundation tops in dealt order, direction, rows from the
    centre outwards (a row not given is empty), cellar. `Masterpiece.from_text` reads it."""
    segments = ["masterpiece", f"F {F}", f"D {D}"]
    segments += [f"{name} {rows.pop(name, '')}".rstrip() for name in MASTERPIECE_ROWS]
    assert not rows, f"no such rows: {sorted(rows)}"
    segments.append(f"C {C}".rstrip())
    return "; ".join(segments)


def munger_won_in_69() -> tuple[str, list[str]]:
    """A Munger deal that goes out card by card in foundation order, and its 69-move line.

    Column k holds the next four cards to play (the first on top), the reserve the seven after
    them, the stock the last seventeen in drawing order.
    """
    order = UP_ORDER
    deal = [""] * 52
    for k in range(7):
        # Bottom to top: the fourth card to play, the third, the second, the first.
        deal[k], deal[7 + k], deal[14 + k], deal[21 + k] = reversed(order[4 * k : 4 * k + 4])
    for i in range(7):
        deal[28 + i] = order[34 - i]
    deal[35:] = order[35:]
    moves = [f"T{k + 1}>F" for k in range(7) for _ in range(4)] + ["R>F"] * 7
    moves += ["S>W", "W>F"] * 17
    return " ".join(deal), moves


def masterpiece_won_in_56() -> tuple[str, list[str]]:
    """A Masterpiece deal built up suit by suit: rows of 2-6 and 7-J per suit, the Queens and
    Kings on the auxiliary rows; 56 moves win it."""
    deal = ["AC", "AD", "AH", "AS"]
    for suit in "CDHS":
        deal += [f"{r}{suit}" for r in "65432"]  # centre outwards: the 2 is the free card
        deal += [f"{r}{suit}" for r in "JT987"]
    deal += ["KD", "QD", "KC", "QC", "KS", "QS", "KH", "QH"]
    moves = []
    for k in range(8):
        moves += [f"M{k + 1}>F"] * 5
    for aux in ("A1", "A1", "A1", "A1", "A2", "A2", "A2", "A2"):
        moves += [f"{aux}>M1", "M1>F"]
    return " ".join(deal), moves
