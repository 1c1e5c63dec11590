"""Hand-built deals shared by the engine tests: won games whose winning line is known."""

from __future__ import annotations

from games.engine.cards import TEXT

#: Every card in foundation order for building up: AC 2C .. KC AD .. KS.
UP_ORDER = [TEXT[i] for i in range(52)]


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
