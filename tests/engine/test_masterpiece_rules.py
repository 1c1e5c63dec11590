"""Masterpiece («Шедевр»), rule by rule: docs/rules.md, "Masterpiece", rules 1 to 11.

Each rule has a test (or a small group) named after it that shows what the rule allows and what it
forbids, on hand-built positions: deal strings built with `deal_string` and position texts built
with `position`. Where it makes the point the whole legal list is asserted: docs/rules.md, "Legal
moves", says it is complete, sorted as plain strings and includes pointless moves, so
`assert_legal_exactly` also checks that every other well-formed token is refused and changes
nothing, and that every listed move can be played and undone back to the exact same position.
The last tests cover "Deal strings" (the layout of a seed) and "Move notation" (malformed vs
illegal tokens, `U`).
"""

from __future__ import annotations

import pytest

from games.engine import (
    Card,
    IllegalMoveError,
    MalformedError,
    Masterpiece,
    deal,
    replay,
)
from games.engine.deals import shuffled_deck
from tests.engine.positions import masterpiece_position as position
from tests.engine.positions import masterpiece_won_in_56

# -- pile names (docs/rules.md, "Move notation") and helpers -----------------------------------

MAIN = [f"M{k}" for k in range(1, 9)]
AUX = ["A1", "A2"]
ROWS = [*MAIN, *AUX]
SOURCES = [*ROWS, "C"]  # F is a destination only
DESTINATIONS = [*ROWS, "C", "F"]
WELL_FORMED = [f"{s}>{d}" for s in SOURCES for d in DESTINATIONS]
NON_ACES = [rank + suit for suit in "CDHS" for rank in "23456789TJQK"]
TO_CELLAR = ["A1>C", "A2>C", *(f"{m}>C" for m in MAIN)]  # every row's free card into the cellar


def deal_string(aces: str = "AC AD AH AS", **rows: str) -> str:
    """A 52-card deal: the four Aces (foundations 1..4), then M1..M8 (5 cards each) and A1, A2
    (4 each), every row written from the centre outwards as a deal lists it. A row written short
    is padded at its centre end with the unused cards in deck order, so the cards written are the
    outermost ones and the last is the row's free card."""
    given = {name: rows.pop(name, "").split() for name in ROWS}
    assert not rows, f"no such rows: {sorted(rows)}"
    written = [card for cards in given.values() for card in cards]
    spare = iter([card for card in NON_ACES if card not in written])
    cards = aces.split()
    for name in ROWS:
        size = 4 if name in AUX else 5
        cards += [next(spare) for _ in range(size - len(given[name]))] + given[name]
    assert len(cards) == len(set(cards)) == 52
    return " ".join(cards)


def legal(game: Masterpiece) -> list[str]:
    return [move.text for move in game.legal_moves()]


def assert_illegal(game: Masterpiece, token: str) -> str:
    """`token` is refused with an IllegalMoveError naming it, and nothing changes."""
    before, history = game.to_text(), list(game.history)
    assert not game.is_legal(token)
    with pytest.raises(IllegalMoveError) as info:
        game.push(token)
    error = info.value
    assert (error.token, error.index) == (token, len(history))
    assert error.reason
    assert game.to_text() == before and game.history == history
    return error.reason


def assert_legal_exactly(game: Masterpiece, expected: list[str]) -> None:
    """The legal list is exactly `expected`; each listed move plays and undoes to the same
    position; every other well-formed token is illegal and changes nothing."""
    assert legal(game) == expected
    assert expected == sorted(expected)
    before = game.to_text()
    for token in WELL_FORMED:
        probe = game.copy()
        if token in expected:
            assert probe.is_legal(token)
            probe.push(token)
            assert probe.to_text() != before
            probe.push("U")
            assert probe.to_text() == before
        else:
            assert_illegal(probe, token)
    assert game.to_text() == before


def rows_of(game: Masterpiece) -> dict[str, list[str]]:
    view = game.view()
    return dict(zip(ROWS, view["main_rows"] + view["auxiliary_rows"], strict=True))


# -- the positions ----------------------------------------------------------------------------

# The standard deck in order after the Aces: rows can be read off the deal string.
ORDERED_DEAL = "AD AS AC AH " + " ".join(NON_ACES)

# Late game, foundations built up to the 6s; the cellar holds 7C (it would fit on the foundation,
# on 8C in M2, or in the empty M1), but both auxiliary rows still hold cards: the cellar is locked.
LOCKED = position(
    F="6C 6D 6H 6S",
    D="up",
    C="7C",
    M2="QH 7D TS 8C",
    M3="9D",
    M4="9C TC 7S JC",
    M5="QC 8D 8S KC",
    M6="TD QD JD",
    M7="7H 8H 9H",
    M8="TH JH 9S",
    A1="KD",
    A2="JS QS KS KH",
)
# The same, with A1 emptied (KD went under 9D in M3): the cellar may leave.
OPEN_A1 = LOCKED.replace("; M3 9D;", "; M3 KD 9D;").replace("; A1 KD;", "; A1;")
# The same, with A2 emptied (its cards went under 9D in M3): the cellar may leave.
OPEN_A2 = LOCKED.replace("; M3 9D;", "; M3 JS QS KS KH 9D;").replace("; A2 JS QS KS KH;", "; A2;")
# The same as LOCKED, but 7C is the lone card of A1 and the cellar is empty (KD went into M5).
SEVEN_IN_A1 = (
    LOCKED.replace("; M5 QC 8D 8S KC;", "; M5 QC 8D 8S KD KC;")
    .replace("; A1 KD;", "; A1 7C;")
    .replace("; C 7C", "; C")
)


def test_hand_built_positions_hold_the_52_cards_and_round_trip() -> None:
    for text in (LOCKED, OPEN_A1, OPEN_A2, SEVEN_IN_A1):
        game = Masterpiece.from_text(text)
        assert game.to_text() == text
        assert sorted(game.cards()) == list(range(52))


# -- Layout -----------------------------------------------------------------------------------


def test_rule_01_aces_are_foundation_bases() -> None:
    # A new deal: the four Aces are the four foundations, in the order the deal lists them.
    game = Masterpiece.from_deal(ORDERED_DEAL)
    foundations = game.view()["foundations"]
    assert [(f["suit"], f["top"], f["count"]) for f in foundations] == [
        ("D", "AD", 1),
        ("S", "AS", 1),
        ("C", "AC", 1),
        ("H", "AH", 1),
    ]
    assert game.to_text().startswith("masterpiece; F AD AS AC AH; D -; ")
    assert game.foundation_cards == 4
    assert not game.is_won()
    # No Ace is ever left in a row: none of the 48 cards in the rows is an Ace.
    assert all(card[0] != "A" for cards in rows_of(game).values() for card in cards)


def test_rule_01_a_deal_must_start_with_the_four_aces() -> None:
    # Swap the fourth Ace with the first row card: "AD AS AC 2C AH ...": malformed, naming 2C.
    cards = ORDERED_DEAL.split()
    cards[3], cards[4] = cards[4], cards[3]
    with pytest.raises(MalformedError) as info:
        Masterpiece.from_deal(" ".join(cards))
    assert info.value.token == "2C"
    # A position text with an Ace in a row is malformed too.
    with pytest.raises(MalformedError):
        Masterpiece.from_text(LOCKED.replace("F 6C", "F 2C").replace("; A1 KD;", "; A1 KD AC;"))


def test_rule_02_eight_main_rows_of_five_listed_from_the_centre_outwards() -> None:
    # Cards 5-44 are M1..M8, five each, from the centre outwards; cards 45-52 are A1 and A2.
    game = Masterpiece.from_deal(ORDERED_DEAL)
    assert game.to_text() == (
        "masterpiece; F AD AS AC AH; D -; "
        "M1 2C 3C 4C 5C 6C; M2 7C 8C 9C TC JC; M3 QC KC 2D 3D 4D; M4 5D 6D 7D 8D 9D; "
        "M5 TD JD QD KD 2H; M6 3H 4H 5H 6H 7H; M7 8H 9H TH JH QH; M8 KH 2S 3S 4S 5S; "
        "A1 6S 7S 8S 9S; A2 TS JS QS KS; C"
    )
    rows = rows_of(game)
    assert [len(rows[m]) for m in MAIN] == [5] * 8
    assert rows["M1"] == ["2C", "3C", "4C", "5C", "6C"]
    assert rows["M8"] == ["KH", "2S", "3S", "4S", "5S"]
    # M1..M4 lie left of Aces 1..4, M5..M8 right of them.
    lines = game.render().splitlines()
    for k, ace in enumerate(["AD", "AS", "AC", "AH"], start=1):
        assert lines[k].startswith(f"M{k} ") and f"[{ace}]" in lines[k]
        assert lines[k].rstrip().endswith(f"M{k + 4}")


def test_rule_03_empty_cellar_between_two_auxiliary_rows_of_four() -> None:
    game = Masterpiece.from_deal(ORDERED_DEAL)
    rows = rows_of(game)
    assert rows["A1"] == ["6S", "7S", "8S", "9S"]
    assert rows["A2"] == ["TS", "JS", "QS", "KS"]
    assert game.view()["cellar"] is None
    assert game.to_text().endswith("; A1 6S 7S 8S 9S; A2 TS JS QS KS; C")
    # The cellar starts empty, so it has nothing to give: C>anything is illegal.
    for destination in DESTINATIONS:
        assert_illegal(game, f"C>{destination}")


def test_rule_04_only_the_outermost_card_of_a_row_is_free() -> None:
    # Free cards: 6C JC 4D 9D 2H 7H QH 5S (main), 9S KS (auxiliary); no two of them build, the
    # 2H may start the foundations (rule 9), the KS may not (it is on an auxiliary row, rule 10).
    # Inner cards (5C under 6C, TC under JC, ...) would build but are not free.
    game = Masterpiece.from_deal(ORDERED_DEAL)
    assert_legal_exactly(
        game,
        [
            "A1>C",
            "A2>C",
            "M1>C",
            "M2>C",
            "M3>C",
            "M4>C",
            "M5>C",
            "M5>F",
            "M6>C",
            "M7>C",
            "M8>C",
        ],
    )
    # M1>C takes the outermost card, 6C; 5C becomes M1's free card.
    game.push("M1>C")
    assert game.view()["cellar"] == "6C"
    assert rows_of(game)["M1"] == ["2C", "3C", "4C", "5C"]
    # 5C could go on 6C, but 6C is in the locked cellar; the cellar is full: only 2H>F remains.
    assert_legal_exactly(game, ["M5>F"])


# -- Moves ------------------------------------------------------------------------------------

# Free cards: M1 7C, M2 6C, M3 8C, M4 6H, M5 JD, M6 9D, M7 4S, M8 JS, A1 5H, A2 QS.
BUILD_DEAL = deal_string(
    M1="7C", M2="6C", M3="8C", M4="6H", M5="JD", M6="9D", M7="4S", M8="JS", A1="5H", A2="QS"
)


def test_rule_05_build_same_suit_up_or_down() -> None:
    # 7C takes 6C (down) and 8C (up) and goes on either; 5H (A1) goes on 6H, QS (A2) on JS.
    game = Masterpiece.from_deal(BUILD_DEAL)
    assert_legal_exactly(
        game,
        [
            "A1>C",
            "A1>M4",
            "A2>C",
            "A2>M8",
            "M1>C",
            "M1>M2",
            "M1>M3",
            "M2>C",
            "M2>M1",
            "M3>C",
            "M3>M1",
            "M4>C",
            "M5>C",
            "M6>C",
            "M7>C",
            "M8>C",
        ],
    )
    assert_illegal(game, "M2>M3")  # 6C on 8C: two ranks apart
    assert_illegal(game, "M6>M5")  # 9D on JD: two ranks apart
    assert_illegal(game, "M4>M1")  # 6H on 7C: one rank apart, other suit
    assert_illegal(game, "A1>M1")  # 5H on 7C
    reason = assert_illegal(game, "M4>M1")
    assert reason == "6H cannot go on 7C: it takes the 6 or 8 of its own suit (rule 5)"
    game.push("M2>M1")
    assert rows_of(game)["M1"][-2:] == ["7C", "6C"]


def test_rule_05_up_and_down_may_mix() -> None:
    # On main rows both ways are open in one game, on one row, and whatever the foundations do.
    game = Masterpiece.from_deal(BUILD_DEAL)
    game.push("M2>M1")  # 6C on 7C: down
    game.push("A2>M8")  # QS on JS: up
    game.push("M1>C")  # 6C into the cellar: 7C is free again
    game.push("M3>M1")  # 8C on 7C: up, on the row just built down
    assert rows_of(game)["M1"][-2:] == ["7C", "8C"]
    assert rows_of(game)["M8"][-2:] == ["JS", "QS"]
    assert "; D -; " in game.to_text()  # building on main rows fixes no direction
    # Foundations fixed up: a main row still takes a card one lower (7C from A1 on 8C in M2).
    up = Masterpiece.from_text(SEVEN_IN_A1)
    up.push("A1>M2")  # 7C on 8C: down, while the foundations go up
    assert rows_of(up)["M2"][-2:] == ["8C", "7C"]


def test_rule_05_a_king_takes_only_the_queen() -> None:
    rest = " ".join(c for c in NON_ACES if c not in ("JC", "KC"))
    game = Masterpiece.from_text(position(M1="KC", M2="JC", M3=rest))
    reason = assert_illegal(game, "M2>M1")
    assert reason == "JC cannot go on KC: it takes the Queen of its own suit (rule 5)"


def test_rule_05_nothing_is_ever_placed_on_an_auxiliary_row() -> None:
    # JS (M8) would fit QS (A2) by suit and rank, but an auxiliary row takes nothing, ever.
    game = Masterpiece.from_deal(BUILD_DEAL)
    for source in SOURCES:
        for aux in AUX:
            assert_illegal(game, f"{source}>{aux}")
    assert not [m for m in legal(game) if m.endswith(("A1", "A2"))]


def test_rule_06_emptied_main_row_takes_any_free_card() -> None:
    # M1 is empty: every free card of a main row (8C, 9D, JC, KC, JD, 9H, 9S) or of an auxiliary
    # row (KD, KH) may go there, including M3's lone 9D (pointless, still listed); the cellar's
    # 7C may not, as both auxiliary rows hold cards (rule 8).
    game = Masterpiece.from_text(LOCKED)
    assert_legal_exactly(
        game,
        ["A1>M1", "A2>M1", "M2>M1", "M3>M1", "M4>M1", "M5>M1", "M6>M1", "M7>M1", "M8>M1"],
    )
    game.push("A2>M1")  # a King from an auxiliary row
    assert rows_of(game)["M1"] == ["KH"] and rows_of(game)["A2"] == ["JS", "QS", "KS"]
    # Once filled, M1 is an ordinary main row again: JC, 9D ... no longer fit on KH.
    assert_illegal(game, "M4>M1")
    # With A2 empty, the cellar card is a permitted free card and may fill M1 too.
    opened = Masterpiece.from_text(OPEN_A2)
    assert "C>M1" in legal(opened)
    opened.push("C>M1")
    assert rows_of(opened)["M1"] == ["7C"] and opened.view()["cellar"] is None


def test_rule_06_emptied_auxiliary_row_is_never_refilled() -> None:
    # A2 is empty: no card goes there, not from a main row, A1 or the cellar.
    game = Masterpiece.from_text(OPEN_A2)
    for source in SOURCES:
        assert_illegal(game, f"{source}>A2")
    # A1 empties when its lone KD goes to M1: KD may not even go back.
    locked = Masterpiece.from_text(LOCKED)
    locked.push("A1>M1")
    assert rows_of(locked)["A1"] == []
    assert_illegal(locked, "M1>A1")
    assert not [m for m in legal(locked) if m.endswith(("A1", "A2"))]


# Free cards without any build or foundation move; A1 is KH QH JH 7C from the centre outwards.
CELLAR_DEAL = deal_string(
    M1="5C",
    M2="9C",
    M3="5D",
    M4="9D",
    M5="5H",
    M6="9H",
    M7="5S",
    M8="9S",
    A1="KH QH JH 7C",
    A2="7D",
)


def test_rule_07_cellar_takes_any_free_card_when_empty() -> None:
    # Nothing builds: the only moves are the ten free cards into the empty cellar.
    game = Masterpiece.from_deal(CELLAR_DEAL)
    assert_legal_exactly(game, TO_CELLAR)
    game.push("M1>C")  # from a main row
    assert game.view()["cellar"] == "5C"
    game.push("U")
    game.push("A1>C")  # from an auxiliary row
    assert game.view()["cellar"] == "7C" and rows_of(game)["A1"] == ["KH", "QH", "JH"]
    # Any free card, whatever it is: ORDERED_DEAL's 2H (which could start a foundation) and KS.
    ordered = Masterpiece.from_deal(ORDERED_DEAL)
    assert {"M5>C", "A2>C"} <= set(legal(ordered))


def test_rule_07_cellar_holds_only_one_card() -> None:
    # The cellar holds 7C (locked: both auxiliary rows hold cards) and JH is A1's free card now:
    # no free card may join 7C, so nothing at all can move.
    game = Masterpiece.from_deal(CELLAR_DEAL)
    game.push("A1>C")
    assert_legal_exactly(game, [])
    for token in TO_CELLAR:
        assert_illegal(game, token)


@pytest.mark.parametrize("text", [OPEN_A1, OPEN_A2], ids=["A1 empty", "A2 empty"])
def test_rule_08_cellar_out_only_with_an_empty_auxiliary_row(text: str) -> None:
    # Both auxiliary rows hold cards: 7C stays in the cellar although it fits the foundation,
    # 8C in M2 and the empty M1.
    locked = Masterpiece.from_text(LOCKED)
    for token in ("C>F", "C>M1", "C>M2"):
        assert_illegal(locked, token)
    assert not [m for m in legal(locked) if m.startswith("C>")]
    # Either auxiliary row empty: 7C goes wherever a free card may (rules 5, 6 and 9).
    game = Masterpiece.from_text(text)
    other_aux = "A2>M1" if text == OPEN_A1 else "A1>M1"
    assert_legal_exactly(
        game,
        sorted([other_aux, "C>F", "C>M1", "C>M2", *(f"{m}>M1" for m in MAIN[1:])]),
    )


def test_rule_08_emptying_an_auxiliary_row_unlocks_the_cellar() -> None:
    # LOCKED: A1's lone KD goes to M1, A1 is empty, and 7C may leave (to the foundation or 8C).
    game = Masterpiece.from_text(LOCKED)
    game.push("A1>M1")
    assert_legal_exactly(game, ["C>F", "C>M2"])
    game.push("C>F")
    assert game.to_text() == position(
        F="7C 6D 6H 6S",
        D="up",
        M1="KD",
        M2="QH 7D TS 8C",
        M3="9D",
        M4="9C TC 7S JC",
        M5="QC 8D 8S KC",
        M6="TD QD JD",
        M7="7H 8H 9H",
        M8="TH JH 9S",
        A2="JS QS KS KH",
    )
    # The emptied cellar takes any free card again.
    assert {"A2>C", "M1>C", "M2>C"} <= set(legal(game))
    game.push("U")
    game.push("U")
    assert game.to_text() == LOCKED


# Free cards: M1 2C (3C under it), M2 KD (QD under it), M3 2H, M4 KS, M5 9C, M6 5D, M7 9H, M8 5S,
# A1 7C, A2 7H: two 2s and two Kings may start the foundations.
FIRST_CARD_DEAL = deal_string(
    M1="3C 2C",
    M2="QD KD",
    M3="2H",
    M4="KS",
    M5="9C",
    M6="5D",
    M7="9H",
    M8="5S",
    A1="7C",
    A2="7H",
)


def test_rule_09_first_foundation_card_fixes_direction() -> None:
    # Unset: a 2 or a King may start; 5D or 9C may not.
    game = Masterpiece.from_deal(FIRST_CARD_DEAL)
    start = game.to_text()
    assert "; D -; " in start and game.view()["direction"] is None
    assert_legal_exactly(game, sorted([*TO_CELLAR, "M1>F", "M2>F", "M3>F", "M4>F"]))
    assert_illegal(game, "M6>F")  # 5D
    assert_illegal(game, "M5>F")  # 9C
    # 2C first: up for all four. 3C (now free) and 2H follow; the Kings are refused.
    game.push("M1>F")
    assert game.view()["direction"] == "up"
    assert game.to_text().startswith("masterpiece; F 2C AD AH AS; D up; ")
    assert_legal_exactly(game, sorted([*TO_CELLAR, "M1>F", "M3>F"]))
    assert_illegal(game, "M2>F")  # KD
    assert_illegal(game, "M4>F")  # KS
    game.push("M1>F")  # 3C
    assert game.to_text().startswith("masterpiece; F 3C AD AH AS; D up; ")
    game.push("M3>F")  # 2H on its Ace, in the same direction
    assert game.foundation_cards == 7


def test_rule_09_a_king_first_means_down() -> None:
    # KD first: down for all four. QD (now free) and KS follow; the 2s are refused.
    game = Masterpiece.from_deal(FIRST_CARD_DEAL)
    game.push("M2>F")
    assert game.view()["direction"] == "down"
    assert game.to_text().startswith("masterpiece; F AC KD AH AS; D down; ")
    assert_legal_exactly(game, sorted([*TO_CELLAR, "M2>F", "M4>F"]))
    assert_illegal(game, "M1>F")  # 2C
    assert_illegal(game, "M3>F")  # 2H
    game.push("M2>F")  # QD
    game.push("M4>F")  # KS
    assert game.to_text().startswith("masterpiece; F AC QD AH KS; D down; ")


def test_rule_09_undoing_the_first_foundation_card_unsets_the_direction() -> None:
    # After 2C (up) and its undo, a King may start again, and then fixes down.
    game = Masterpiece.from_deal(FIRST_CARD_DEAL)
    start = game.to_text()
    game.push("M1>F")
    game.push("U")
    assert game.to_text() == start
    assert game.view()["direction"] is None and game.foundation_cards == 4
    assert_legal_exactly(game, sorted([*TO_CELLAR, "M1>F", "M2>F", "M3>F", "M4>F"]))
    game.push("M2>F")
    assert game.view()["direction"] == "down"


def test_rule_09_foundation_cards_never_leave() -> None:
    # F names no source pile: F>M1 is malformed, and no legal move starts from a foundation.
    game = Masterpiece.from_deal(FIRST_CARD_DEAL)
    game.push("M1>F")
    for token in ("F>M1", "F>C", "FC>M1", "F>F"):
        with pytest.raises(MalformedError) as info:
            game.push(token)
        assert info.value.token == token
    assert all(m.split(">")[0] in SOURCES for m in legal(game))
    # Other moves never take a card back off a foundation; only U does.
    for token in ("M5>C", "U", "M6>C"):
        game.push(token)
        assert game.foundation_cards == 5
    assert game.to_text().startswith("masterpiece; F 2C AD AH AS; D up; ")


# Free cards: A1 2C and A2 KD (either could start a foundation), M1 3C and M2 QD beside them.
AUX_DEAL = deal_string(
    M1="3C", M2="QD", M3="5D", M4="9D", M5="5H", M6="9H", M7="5S", M8="9S", A1="2C", A2="KD"
)


def test_rule_10_auxiliary_cards_never_straight_to_foundation() -> None:
    # 2C and KD on the auxiliary rows may not start the foundations; they may go on 3C and QD.
    game = Masterpiece.from_deal(AUX_DEAL)
    assert_legal_exactly(game, sorted([*TO_CELLAR, "A1>M1", "A2>M2"]))
    assert_illegal(game, "A1>F")
    assert_illegal(game, "A2>F")
    # Once on a main row they may: 2C starts the foundations up, KD would start them down.
    game.push("A1>M1")
    assert game.is_legal("M1>F")
    game.push("U")
    game.push("A2>M2")
    game.push("M2>F")
    assert game.view()["direction"] == "down"
    # Foundations already going up: 7C on A1 is the next club but may not go straight there.
    up = Masterpiece.from_text(SEVEN_IN_A1)
    assert_illegal(up, "A1>F")
    assert [m for m in legal(up) if m.startswith("A1>")] == ["A1>C", "A1>M1", "A1>M2"]


@pytest.mark.parametrize(
    ("route", "then"),
    [("A1>M2", "M2>F"), ("A1>M1", "M1>F"), ("A1>C", "C>F")],
    ids=["onto a main row's card", "into an empty main row", "through the cellar"],
)
def test_rule_10_auxiliary_card_reaches_foundation_through_main_row_or_cellar(
    route: str, then: str
) -> None:
    # 7C is A1's lone card; by the cellar it works because A1 is then empty (rule 8).
    game = Masterpiece.from_text(SEVEN_IN_A1)
    game.push(route)
    game.push(then)
    assert game.to_text().startswith("masterpiece; F 7C 6D 6H 6S; D up; ")
    assert game.foundation_cards == 25


def test_rule_10_through_the_cellar_needs_an_empty_auxiliary_row() -> None:
    # LOCKED's cellar 7C came from somewhere; while A1 (KD) and A2 hold cards it stays there.
    game = Masterpiece.from_text(LOCKED)
    assert_illegal(game, "C>F")


def test_rule_11_won_when_all_52_on_foundations() -> None:
    # Up: 51 cards on the foundations, KS alone in M1. Not won yet; every move of KS is listed,
    # even the pointless ones into the empty main rows.
    game = Masterpiece.from_text(position(F="KC KD KH QS", D="up", M1="KS"))
    assert not game.is_won() and game.foundation_cards == 51
    assert_legal_exactly(game, ["M1>C", "M1>F", *(f"M1>{m}" for m in MAIN[1:])])
    game.push("M1>F")
    assert game.is_won() and game.foundation_cards == 52
    assert game.to_text() == position(F="KC KD KH KS", D="up")
    assert_legal_exactly(game, [])
    game.push("U")
    assert not game.is_won() and game.foundation_cards == 51
    # Down: 2S in the cellar, both auxiliary rows empty, so it may leave and finish.
    down = Masterpiece.from_text(position(F="2C 2D 2H 3S", D="down", C="2S"))
    assert not down.is_won()
    assert_legal_exactly(down, ["C>F", *(f"C>{m}" for m in MAIN)])
    down.push("C>F")
    assert down.is_won() and down.to_text() == position(F="2C 2D 2H 2S", D="down")


def test_rule_11_a_whole_game_replayed_is_won_only_at_the_last_card() -> None:
    # Each suit 2-6 and 7-J on main rows, Queens and Kings on the auxiliary rows: 56 moves.
    deal_string_, moves = masterpiece_won_in_56()
    done = replay("masterpiece", deal_string_, moves)
    assert (done.valid, done.won, done.moves, done.foundation_cards) == (True, True, 56, 52)
    almost = replay("masterpiece", deal_string_, moves[:-1])
    assert (almost.valid, almost.won, almost.foundation_cards) == (True, False, 51)


# -- Deal strings -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "token"),
    [
        (ORDERED_DEAL.replace("5S", "5s"), "5s"),  # lower case
        (ORDERED_DEAL.replace("5S", "TC"), "TC"),  # a card twice (and 5S missing)
        (ORDERED_DEAL.replace(" 5S", ""), None),  # 51 cards
        (ORDERED_DEAL.replace(" ", "  ", 1), None),  # not single spaces
    ],
)
def test_malformed_deal_strings_are_refused(text: str, token: str | None) -> None:
    with pytest.raises(MalformedError) as info:
        Masterpiece.from_deal(text)
    if token is not None:
        assert info.value.token == token


def test_seed_layout_takes_the_aces_in_deck_order_then_the_rest() -> None:
    # A deck of our own, KS QS .. AS KH .. AC: its Aces come AS AH AD AC.
    deck = [Card.from_text(rank + suit) for suit in "SHDC" for rank in "KQJT98765432A"]
    laid = " ".join(str(card) for card in Masterpiece.layout_deck(deck))
    expected = "AS AH AD AC " + " ".join(rank + suit for suit in "SHDC" for rank in "KQJT98765432")
    assert laid == expected
    game = Masterpiece.from_deal(laid)
    assert game.to_text().startswith("masterpiece; F AS AH AD AC; D -; M1 KS QS JS TS 9S; ")
    # Seeds: the documented shuffle, then the same layout rule.
    for seed in (0, 1, 42, 2**64 - 1):
        shuffled = [str(card) for card in shuffled_deck(seed)]
        aces = [card for card in shuffled if card[0] == "A"]
        rest = [card for card in shuffled if card[0] != "A"]
        assert deal("masterpiece", seed) == " ".join(aces + rest)
        assert Masterpiece.deal_for_seed(seed) == deal("masterpiece", seed)
        Masterpiece.from_deal(deal("masterpiece", seed))


# -- Move notation and undo -------------------------------------------------------------------

MALFORMED = [
    "M9>M1",
    "F>M1",
    "M1>T1",
    "Z9>Q",
    "m1>m2",
    "M0>C",
    "A3>M1",
    "C>A3",
    "M1",
    "M1>",
    ">M1",
    "M1>>M2",
    "M1>M2>M3",
    "M1-M2",
    "M1 >M2",
    "u",
    "",
]


@pytest.mark.parametrize("token", MALFORMED)
def test_notation_malformed_tokens_name_the_token_and_change_nothing(token: str) -> None:
    game = Masterpiece.from_deal(ORDERED_DEAL)
    game.push("M1>C")  # so the index the error names is 1
    before = game.to_text()
    assert not game.is_legal(token)
    with pytest.raises(MalformedError) as info:
        game.push(token)
    assert (info.value.token, info.value.index) == (token, 1)
    assert info.value.reason
    assert game.to_text() == before and game.history == ["M1>C"]


@pytest.mark.parametrize(
    "token", ["M1>A1", "A2>A1", "C>A2", "A1>F", "A2>F", "M1>M1", "A1>A1", "C>C", "C>M1", "U"]
)
def test_notation_well_formed_but_illegal_tokens_raise_illegal_move_error(token: str) -> None:
    # A new deal: nothing on auxiliary rows, no auxiliary card to a foundation, no move onto
    # itself, an empty cellar has nothing to give, nothing to undo.
    game = Masterpiece.from_deal(ORDERED_DEAL)
    assert_illegal(game, token)


def test_replay_names_the_first_bad_token_its_index_and_kind() -> None:
    malformed = replay("masterpiece", ORDERED_DEAL, "M1>C M9>M1")
    assert not malformed.valid and malformed.moves == 1
    error = malformed.error
    assert error is not None
    assert (error.index, error.move, error.kind) == (1, "M9>M1", "malformed") and error.reason
    illegal = replay("masterpiece", ORDERED_DEAL, "A1>F")
    assert illegal.error is not None
    assert (illegal.error.index, illegal.error.move, illegal.error.kind) == (0, "A1>F", "illegal")
    # U undoes the last move not yet undone; a second U has nothing left to undo.
    twice = replay("masterpiece", ORDERED_DEAL, "M1>C U U")
    assert twice.error is not None
    assert (twice.error.index, twice.error.move, twice.error.kind) == (2, "U", "illegal")


def test_undo_restores_each_position_exactly_and_counts_as_a_move() -> None:
    game = Masterpiece.from_deal(FIRST_CARD_DEAL)
    assert not game.is_legal("U")
    snapshots = []
    # 2C and 3C up, 2H, 7C into the cellar: each undo gives back the position before its move.
    for token in ("M1>F", "M1>F", "M3>F", "A1>C"):
        snapshots.append(game.to_text())
        game.push(token)
        assert game.is_legal("U") and "U" not in legal(game)
    while snapshots:
        game.push("U")
        assert game.to_text() == snapshots.pop()
    assert "; D -; " in game.to_text() and game.foundation_cards == 4
    assert game.history == ["M1>F", "M1>F", "M3>F", "A1>C", "U", "U", "U", "U"]
    assert_illegal(game, "U")
