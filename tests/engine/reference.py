"""An independent reference implementation of Munger and Masterpiece, for differential testing.

Written from the rules alone (docs/rules.md states them), without looking at games/engine. It is
deliberately naive: plain lists, a deep copy of the whole position before every move (that is how
undo works), and the legal-move list recomputed from scratch by trying every source and
destination. Speed does not matter here; being obviously right does.

Public API:

- `reference_legal_moves(game, deal, moves)`: the sorted legal card moves after the history.
- `reference_replay(game, deal, moves)`: the verdict of a history, a dict with the keys
  valid, won, moves, foundation_cards, legal, error_index.
"""

from __future__ import annotations

import copy

RANKS = "A23456789TJQK"
SUITS = "CDHS"
ALL_CARDS = [r + s for s in SUITS for r in RANKS]


def rank(card: str) -> int:
    """A=1, 2=2, ..., T=10, J=11, Q=12, K=13."""
    return RANKS.index(card[0]) + 1


def suit(card: str) -> str:
    return card[1]


def is_red(card: str) -> bool:
    return card[1] in "DH"


def parse_deal(deal: str) -> list[str]:
    cards = deal.split(" ")
    if len(cards) != 52:
        raise ValueError(f"a deal has 52 cards, not {len(cards)}")
    for c in cards:
        if c not in ALL_CARDS:
            raise ValueError(f"bad card {c!r}")
    if sorted(cards) != sorted(ALL_CARDS):
        raise ValueError("a deal holds every card exactly once")
    return cards


# --------------------------------------------------------------------------------------------
# Munger
# --------------------------------------------------------------------------------------------

MUNGER_COLUMNS = [f"T{k}" for k in range(1, 8)]
MUNGER_FOUNDATION_SOURCES = ["FC", "FD", "FH", "FS"]
MUNGER_SOURCES = MUNGER_COLUMNS + ["R", "W", "S"] + MUNGER_FOUNDATION_SOURCES
MUNGER_DESTINATIONS = MUNGER_COLUMNS + ["F", "W"]


def munger_new(deal: str) -> dict:
    cards = parse_deal(deal)
    columns = {}
    for k in range(1, 8):
        # Bottom to top: cards k, 7+k, 14+k, 21+k (1-based), face down/up/down/up.
        columns[f"T{k}"] = [
            {"card": cards[k - 1], "up": False},
            {"card": cards[7 + k - 1], "up": True},
            {"card": cards[14 + k - 1], "up": False},
            {"card": cards[21 + k - 1], "up": True},
        ]
    return {
        "columns": columns,
        "reserve": list(cards[28:35]),  # last element is the top (card 35)
        "stock": list(cards[35:52]),  # first element is drawn first (card 36)
        "waste": [],  # last element is the top
        "foundations": {s: [] for s in SUITS},  # each bottom (Ace) to top
    }


def munger_fits_column(card: str, column: list[dict]) -> bool:
    """Rules 8 and 10: can `card` (alone or as the lowest card of a run) go onto this column?"""
    if not column:
        return rank(card) == 13
    top = column[-1]
    if not top["up"]:
        return False  # never happens after rule 12, but a face-down card takes nothing
    return rank(top["card"]) == rank(card) + 1 and is_red(top["card"]) != is_red(card)


def munger_fits_foundation(card: str, state: dict) -> bool:
    return len(state["foundations"][suit(card)]) == rank(card) - 1


def munger_is_run(entries: list[dict]) -> bool:
    """Rule 9: all face up, each card one lower and of opposite colour to the one below it."""
    for e in entries:
        if not e["up"]:
            return False
    for lower, upper in zip(entries, entries[1:], strict=False):
        if rank(upper["card"]) != rank(lower["card"]) - 1:
            return False
        if is_red(upper["card"]) == is_red(lower["card"]):
            return False
    return True


def munger_single_source_card(state: dict, source: str) -> str | None:
    """The playable card of a one-card source (R, W, a foundation), or None."""
    if source == "R":
        return state["reserve"][-1] if state["reserve"] else None
    if source == "W":
        return state["waste"][-1] if state["waste"] else None
    if source in MUNGER_FOUNDATION_SOURCES:
        pile = state["foundations"][source[1]]
        return pile[-1] if pile else None
    raise AssertionError(source)


def munger_move_is_legal(state: dict, source: str, dest: str) -> bool:
    if source == "S" or dest == "W":
        # Rule 5 is the only move touching the stock; rule 11: nothing else goes on the waste.
        return source == "S" and dest == "W" and len(state["stock"]) > 0
    if source in MUNGER_COLUMNS:
        column = state["columns"][source]
        if not column:
            return False
        if dest == "F":
            top = column[-1]
            return top["up"] and munger_fits_foundation(top["card"], state)
        if dest == source:
            return False
        # Some face-up run ending at the top whose lowest card fits rule 8 or 10.
        return munger_column_unit_start(state, source, dest) is not None
    card = munger_single_source_card(state, source)
    if card is None:
        return False
    if dest == "F":
        if source in MUNGER_FOUNDATION_SOURCES:
            return False  # a foundation card goes back to the tableau, not to a foundation
        return munger_fits_foundation(card, state)
    return munger_fits_column(card, state["columns"][dest])


def munger_column_unit_start(state: dict, source: str, dest: str) -> int | None:
    """Index in `source` of the lowest card of the run that may move onto `dest`, if any."""
    column = state["columns"][source]
    fits = []
    for i in range(len(column)):
        unit = column[i:]
        if munger_is_run(unit) and munger_fits_column(unit[0]["card"], state["columns"][dest]):
            fits.append(i)
    assert len(fits) <= 1, "the rules leave at most one run that fits"
    return fits[0] if fits else None


def munger_apply(state: dict, source: str, dest: str) -> None:
    """Apply a legal move in place, then rule 12 (turn up face-down column tops)."""
    if source == "S":
        state["waste"].append(state["stock"].pop(0))
    elif source in MUNGER_COLUMNS:
        column = state["columns"][source]
        if dest == "F":
            entry = column.pop()
            state["foundations"][suit(entry["card"])].append(entry["card"])
        else:
            i = munger_column_unit_start(state, source, dest)
            unit = column[i:]
            del column[i:]
            state["columns"][dest].extend(unit)
    else:
        if source == "R":
            card = state["reserve"].pop()
        elif source == "W":
            card = state["waste"].pop()
        else:
            card = state["foundations"][source[1]].pop()
        if dest == "F":
            state["foundations"][suit(card)].append(card)
        else:
            state["columns"][dest].append({"card": card, "up": True})
    for column in state["columns"].values():
        if column and not column[-1]["up"]:
            column[-1]["up"] = True


def munger_legal(state: dict) -> list[str]:
    out = []
    for source in MUNGER_SOURCES:
        for dest in MUNGER_DESTINATIONS:
            if munger_move_is_legal(state, source, dest):
                out.append(f"{source}>{dest}")
    return sorted(out)


def munger_foundation_cards(state: dict) -> int:
    return sum(len(p) for p in state["foundations"].values())


def munger_parse(token: str) -> tuple[str, str] | None:
    parts = token.split(">")
    if len(parts) != 2:
        return None
    source, dest = parts
    if source not in MUNGER_SOURCES or dest not in MUNGER_DESTINATIONS:
        return None
    return source, dest


# --------------------------------------------------------------------------------------------
# Masterpiece
# --------------------------------------------------------------------------------------------

MP_MAIN = [f"M{k}" for k in range(1, 9)]
MP_AUX = ["A1", "A2"]
MP_SOURCES = MP_MAIN + MP_AUX + ["C"]
MP_DESTINATIONS = MP_MAIN + ["C", "F"]


def masterpiece_new(deal: str) -> dict:
    cards = parse_deal(deal)
    for c in cards[:4]:
        if c[0] != "A":
            raise ValueError("Masterpiece deal cards 1-4 must be the Aces")
    rows = {}
    for k in range(8):
        # Centre outwards: the last element is the free (outermost) card.
        rows[f"M{k + 1}"] = list(cards[4 + 5 * k : 4 + 5 * k + 5])
    rows["A1"] = list(cards[44:48])
    rows["A2"] = list(cards[48:52])
    return {
        "rows": rows,
        "cellar": None,
        # Foundation i (1..4) in deal order; each a list from the Ace up to the top card.
        "foundations": [[c] for c in cards[:4]],
        "direction": None,  # None until the first card beyond the Aces: "up" or "down"
    }


def masterpiece_free_card(state: dict, source: str) -> str | None:
    if source == "C":
        return state["cellar"]
    row = state["rows"][source]
    return row[-1] if row else None


def masterpiece_foundation_accepts(state: dict, card: str) -> bool:
    for pile in state["foundations"]:
        if suit(pile[0]) != suit(card):
            continue
        top = rank(pile[-1])
        direction = state["direction"]
        if direction is None:
            # Only Aces so far: a 2 starts "up", a King starts "down".
            return rank(card) in (2, 13)
        if direction == "up":
            return rank(card) == top + 1
        # down: A, K, Q, ..., 2
        wanted = 13 if top == 1 else top - 1
        return top != 2 and rank(card) == wanted
    raise AssertionError("every suit has a foundation")


def masterpiece_move_is_legal(state: dict, source: str, dest: str) -> bool:
    if source == dest:
        return False
    card = masterpiece_free_card(state, source)
    if card is None:
        return False
    # Rule 8: the cellar card may leave only while at least one auxiliary row is empty.
    if source == "C" and state["rows"]["A1"] and state["rows"]["A2"]:
        return False
    if dest == "C":
        # Rule 7: into an empty cellar, from a main row or an auxiliary row.
        return state["cellar"] is None and source != "C"
    if dest == "F":
        # Rule 10: auxiliary-row cards never go straight to a foundation.
        if source in MP_AUX:
            return False
        return masterpiece_foundation_accepts(state, card)
    # dest is a main row: rules 5 and 6.
    target_row = state["rows"][dest]
    if not target_row:
        return True
    target = target_row[-1]
    return suit(target) == suit(card) and abs(rank(target) - rank(card)) == 1


def masterpiece_apply(state: dict, source: str, dest: str) -> None:
    if source == "C":
        card = state["cellar"]
        state["cellar"] = None
    else:
        card = state["rows"][source].pop()
    if dest == "C":
        state["cellar"] = card
    elif dest == "F":
        if state["direction"] is None:
            state["direction"] = "up" if rank(card) == 2 else "down"
        for pile in state["foundations"]:
            if suit(pile[0]) == suit(card):
                pile.append(card)
    else:
        state["rows"][dest].append(card)


def masterpiece_legal(state: dict) -> list[str]:
    out = []
    for source in MP_SOURCES:
        for dest in MP_DESTINATIONS:
            if masterpiece_move_is_legal(state, source, dest):
                out.append(f"{source}>{dest}")
    return sorted(out)


def masterpiece_foundation_cards(state: dict) -> int:
    return sum(len(p) for p in state["foundations"])


def masterpiece_parse(token: str) -> tuple[str, str] | None:
    parts = token.split(">")
    if len(parts) != 2:
        return None
    source, dest = parts
    if source not in MP_SOURCES or dest not in MP_DESTINATIONS:
        return None
    return source, dest


# --------------------------------------------------------------------------------------------
# Shared replay
# --------------------------------------------------------------------------------------------

GAMES = {
    "munger": {
        "new": munger_new,
        "legal": munger_legal,
        "is_legal": munger_move_is_legal,
        "apply": munger_apply,
        "foundation_cards": munger_foundation_cards,
        "parse": munger_parse,
    },
    "masterpiece": {
        "new": masterpiece_new,
        "legal": masterpiece_legal,
        "is_legal": masterpiece_move_is_legal,
        "apply": masterpiece_apply,
        "foundation_cards": masterpiece_foundation_cards,
        "parse": masterpiece_parse,
    },
}


class ReferenceGame:
    """A position plus its undo stack, played one token at a time."""

    def __init__(self, game: str, deal: str) -> None:
        self.rules = GAMES[game]
        self.state = self.rules["new"](deal)
        self.undo_stack: list[dict] = []  # the positions before each move not yet undone
        self.moves = 0

    def play(self, token: str) -> bool:
        """Play one token; False (and no change) if it is malformed or illegal."""
        if token == "U":
            if not self.undo_stack:
                return False
            self.state = self.undo_stack.pop()
            self.moves += 1
            return True
        parsed = self.rules["parse"](token)
        if parsed is None or not self.rules["is_legal"](self.state, *parsed):
            return False
        self.undo_stack.append(copy.deepcopy(self.state))
        self.rules["apply"](self.state, *parsed)
        self.moves += 1
        return True

    def legal(self) -> list[str]:
        return self.rules["legal"](self.state)

    def foundation_cards(self) -> int:
        return self.rules["foundation_cards"](self.state)

    def won(self) -> bool:
        return self.foundation_cards() == 52


def reference_verdict_of(g: ReferenceGame, error_index: int | None = None) -> dict:
    """The verdict on the position `g` reached, in `reference_replay`'s form."""
    return {
        "valid": error_index is None,
        "won": g.won(),
        "moves": g.moves,
        "foundation_cards": g.foundation_cards(),
        "legal": g.legal(),
        "error_index": error_index,
    }


def reference_replay(game: str, deal: str, moves: list[str]) -> dict:
    g = ReferenceGame(game, deal)
    error_index = None
    for index, token in enumerate(moves):
        if not g.play(token):
            error_index = index
            break
    return reference_verdict_of(g, error_index)


def reference_legal_moves(game: str, deal: str, moves: list[str]) -> list[str]:
    return reference_replay(game, deal, moves)["legal"]
