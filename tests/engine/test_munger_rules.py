"""Munger, rule by rule (docs/rules.md, "Munger", with "Legal moves", "Deal strings" and
"Move notation").

Each numbered rule has a test named after it that shows the rule allowing what it should and
forbidding what it should, on hand-built deals and positions. The tests follow docs/rules.md, not
the engine's code: where they disagree, the test fails.

Positions are written with `position(...)`: the piles a test names, bottom to top (`*` = face
down), and every other card under the reserve's named cards, where it is visible but not
playable. Deals are written with `deal_with({position: card})`.
"""

from __future__ import annotations

import json
import re

import pytest

from games.engine import (
    Card,
    IllegalMoveError,
    MalformedError,
    Munger,
    deal,
    replay,
)
from tests.engine.positions import DECK
from tests.engine.positions import munger_position as position

COLUMNS = tuple(f"T{k}" for k in range(1, 8))
CODE = re.compile(r'"([A2-9TJQK][CDHS])"')


# -- helpers ------------------------------------------------------------------------------------


def deal_with(placed: dict[int, str] | None = None) -> str:
    """A deal string with card `placed[n]` at deal position n (1..52); every other position
    takes the remaining cards in deck order."""
    placed = placed or {}
    rest = iter(c for c in DECK if c not in placed.values())
    return " ".join(placed.get(n) or next(rest) for n in range(1, 53))


def legal(game: Munger) -> list[str]:
    moves = [m.text for m in game.legal_moves()]
    assert moves == sorted(moves), "legal moves are sorted as plain strings"
    assert "U" not in moves, "U is never listed"
    return moves


def codes(cards: tuple[int, ...]) -> list[str]:
    return [Card(c).to_text() for c in cards]


def play(game: Munger, token: str) -> list[str]:
    """Play an allowed move, check that `U` restores the exact position, play it again, and
    return the codes of the cards it turned face up."""
    assert game.is_legal(token), f"{token} should be legal in {game.to_text()}"
    before = game.to_text()
    flipped = game.push(token)
    after = game.to_text()
    assert game.push("U") == ()
    assert game.to_text() == before, f"U after {token} did not restore the position"
    assert game.push(token) == flipped
    assert game.to_text() == after
    return codes(flipped)


def assert_illegal(game: Munger, token: str) -> str:
    """A well-formed move the position forbids: IllegalMoveError naming the token, its index
    in the history and a reason, and nothing changes. Returns the reason."""
    before, moves = game.to_text(), len(game.history)
    assert not game.is_legal(token)
    assert token not in legal(game)
    with pytest.raises(IllegalMoveError) as caught:
        game.push(token)
    error = caught.value
    assert (error.token, error.index) == (token, moves)
    assert isinstance(error.reason, str) and error.reason.strip()
    assert game.to_text() == before
    assert len(game.history) == moves
    return error.reason


def segment(game: Munger, name: str) -> str:
    """One pile's segment of `to_text()`, such as `T1 *5D 8S` or `F - - AH -`."""
    for part in game.to_text().split("; "):
        if part.split()[0] == name:
            return part
    raise KeyError(name)


# -- layout -------------------------------------------------------------------------------------


def test_rule_01_four_foundations_built_up_by_suit() -> None:
    # At the start there are four empty foundations, one per suit, in C D H S order.
    game = Munger.from_deal(deal_with())
    foundations = game.view()["foundations"]
    assert [(f["suit"], f["count"], f["top"]) for f in foundations] == [
        (suit, 0, None) for suit in "CDHS"
    ]

    # Clubs up to 4C: 5C (waste) goes up next, then 6C (T1); AD starts the diamonds.
    game = position(F="4C - - -", W="5C", R="AD", T1="6C")
    assert legal(game) == ["R>F", "W>F"]
    assert_illegal(game, "T1>F")  # 6C would skip 5C
    play(game, "W>F")
    play(game, "T1>F")
    play(game, "R>F")
    assert segment(game, "F") == "F 6C AD - -"
    assert game.foundation_cards == 7

    # Only an Ace starts a foundation.
    game = position(R="2C")
    assert_illegal(game, "R>F")

    # The King ends it: QC then KC, and the clubs foundation is complete.
    game = position(F="QC - - -", W="KC", R="2D")
    play(game, "W>F")
    assert segment(game, "F") == "F KC - - -"
    assert game.view()["foundations"][0] == {"suit": "C", "top": "KC", "count": 13}


def test_rule_02_columns_dealt_down_up_down_up() -> None:
    # The deal in deck order: column Tk holds deal cards k, 7+k, 14+k, 21+k, down up down up;
    # the reserve is cards 29-35 (35 on top), the stock 36-52 (36 drawn first).
    game = Munger.from_deal(deal_with())
    assert game.to_text() == (
        "munger; F - - - -; "
        "T1 *AC 8C *2D 9D; T2 *2C 9C *3D TD; T3 *3C TC *4D JD; T4 *4C JC *5D QD; "
        "T5 *5C QC *6D KD; T6 *6C KC *7D AH; T7 *7C AD *8D 2H; "
        "R 3H 4H 5H 6H 7H 8H 9H; W; "
        "S KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S AS KH QH JH TH"
    )
    # Only face-up tops play: AH (T6 top) may go up; AC (face down in T1) and AD (face up in T7
    # but covered) may not.
    assert legal(game) == ["S>W", "T6>F"]

    # Any deal: the same mapping, 4 cards a column, face down / up / down / up.
    cards = deal("munger", 7).split()
    view = Munger.from_deal(deal("munger", 7)).view(full=True)
    for k in range(1, 8):
        column = view["tableau"][k - 1]
        assert [e["card"] for e in column] == [cards[k - 1 + 7 * p] for p in range(4)]
        assert [e["face_up"] for e in column] == [False, True, False, True]

    # Chosen cards at chosen deal positions land where the mapping says.
    game = Munger.from_deal(deal_with({3: "KS", 10: "QH", 17: "JC", 24: "TD"}))
    assert segment(game, "T3") == "T3 *KS QH *JC TD"


def test_rule_03_reserve_seven_face_up_only_top_playable() -> None:
    # Deal cards 29-35 are the reserve, all visible to the player, card 35 on top.
    dealt = deal_with({29: "KC", 33: "2S", 34: "AH", 35: "AS"})
    game = Munger.from_deal(dealt)
    assert game.view()["reserve"] == dealt.split()[28:35]
    assert game.view()["reserve"][-1] == "AS"
    # The top (AS) plays, then the card under it (AH) is the top and plays.
    assert play(game, "R>F") == []
    assert segment(game, "F") == "F - - - AS"
    play(game, "R>F")
    play(game, "R>F")  # and then 2S on AS
    assert segment(game, "F") == "F - - AH 2S"
    assert len(game.view()["reserve"]) == 4

    # An Ace under the reserve's top (deal card 34) is visible but not playable.
    game = Munger.from_deal(deal_with({34: "AS"}))
    assert "AS" in game.view()["reserve"]
    assert_illegal(game, "R>F")

    # Same in a position: 5D under 9C would fit on 6S, but only 9C, the top, may move (onto TD).
    game = position(R="5D 9C", T1="6S", T2="TD", T3="2H")
    assert legal(game) == ["R>T2"]
    assert_illegal(game, "R>T1")


def test_rule_04_stock_17_face_down_waste_empty_at_start() -> None:
    # Deal card 36 (AS) is the next card drawn, yet the stock is face down: nothing but S>W.
    game = Munger.from_deal(deal_with({36: "AS"}))
    view = game.view()
    assert view["stock"] == {"count": 17, "known": []}
    assert view["waste"] == []
    assert segment(game, "W") == "W"
    assert len(segment(game, "S").split()) == 1 + 17
    for token in ("S>F", "S>T1", "S>T7", "W>F", "W>T1"):
        assert_illegal(game, token)
    assert play(game, "S>W") == ["AS"]
    assert game.view()["waste"] == ["AS"]
    play(game, "W>F")


# -- moves --------------------------------------------------------------------------------------


def test_rule_05_draw_turns_stock_top_onto_waste() -> None:
    # The deal in deck order: the stock is deal cards 36-52 (TH .. KH, AS .. KS), 36 first.
    dealt = deal_with().split()
    game = Munger.from_deal(deal_with())
    for n in range(36, 53):
        assert "S>W" in legal(game)
        assert play(game, "S>W") == [dealt[n - 1]]
        assert game.view()["waste"][-1] == dealt[n - 1]
        assert game.view()["stock"]["count"] == 52 - n
    assert game.view()["waste"] == dealt[35:]


def test_rule_05_one_pass_no_redeal() -> None:
    # The stock is empty and the waste full: there is no redeal, by any move.
    game = position(W="9D 4S 7H", R="2C", T1="QS")
    assert segment(game, "S") == "S"
    assert legal(game) == []
    reason = assert_illegal(game, "S>W")
    assert "stock" in reason.lower()
    for token in ("W>S", "R>S", "T1>S"):
        assert_illegal(game, token)

    # Drawing the last card leaves the stock empty for good (undo aside).
    game = position(S="5C", W="9D", R="2C", T1="QS")
    play(game, "S>W")
    assert game.view()["stock"]["count"] == 0
    assert "S>W" not in legal(game)
    assert_illegal(game, "S>W")


def test_rule_06_playable_cards_include_foundation_tops() -> None:
    # Hearts up to 5H; 5H may come back onto 6S (not 6D); the waste top 5D and the reserve
    # top 5S play, but not AC under the waste top nor AD under the reserve top.
    game = position(F="- - 5H -", T1="*KC 6S", T2="*KD 6D", W="AC 5D", R="AD 5S")
    assert legal(game) == ["FH>T1", "R>T2", "W>T1"]
    assert_illegal(game, "FH>T2")  # red on red (rule 8)
    assert_illegal(game, "W>F")  # 5D is the waste top, and diamonds are empty
    assert_illegal(game, "R>F")  # 5S is the reserve top, and spades are empty
    assert_illegal(game, "FC>T1")  # the clubs foundation is empty
    assert_illegal(game, "FH>F")  # a foundation card goes back only to the tableau
    assert_illegal(game, "FH>W")
    play(game, "FH>T1")
    assert segment(game, "F") == "F - - 4H -"
    assert segment(game, "T1") == "T1 *KC 6S 5H"
    # It is a tableau card now: it may go up again; 4H is the new foundation top.
    assert "T1>F" in legal(game)
    play(game, "T1>F")
    assert segment(game, "F") == "F - - 5H -"


def test_rule_06_foundation_top_may_go_back_onto_a_run() -> None:
    # Spades up to 8S: 8S back onto 9H, then 7H (waste) onto it.
    game = position(F="- - - 8S", T1="9H", W="7H", R="2C")
    assert legal(game) == ["FS>T1"]
    play(game, "FS>T1")
    assert legal(game) == ["T1>F", "W>T1"]


def test_rule_07_foundation_takes_next_rank_of_its_suit() -> None:
    # Clubs up to 2C, diamonds up to AD: 3C (waste), 2D (reserve), AH (T1) go up; 4C (T2)
    # would skip 3C and 2H (T3) needs AH first.
    game = position(F="2C AD - -", W="3C", R="2D", T1="*9S AH", T2="4C", T3="2H")
    assert legal(game) == ["R>F", "T1>F", "W>F"]
    assert_illegal(game, "T2>F")
    assert_illegal(game, "T3>F")
    assert play(game, "T1>F") == ["9S"]
    assert play(game, "T3>F") == []
    play(game, "W>F")
    play(game, "T2>F")
    play(game, "R>F")
    assert segment(game, "F") == "F 4C 2D 2H -"
    # 3H cannot follow 2D: each card goes to its own suit's foundation only.
    game = position(F="- 2D - -", W="3H", R="2C")
    assert_illegal(game, "W>F")


def test_rule_07_refusal_names_no_card_the_player_cannot_see() -> None:
    # Hearts up to 4H; the 5H it needs lies face down under 8C, and 7H waits on the waste.
    # The reason speaks of ranks in words: it must not give away where, or what, 5H is.
    game = position(F="- - 4H -", T1="*5H 8C", W="7H", R="2C")
    reason = assert_illegal(game, "W>F")
    assert reason == (
        "7H cannot go to its foundation: the hearts foundation holds up to the 4 "
        "and takes the 5 next (rule 7)"
    )
    assert "5H" not in reason
    reason = assert_illegal(position(T1="*AD 3D", R="2C"), "T1>F")
    assert reason.endswith("the diamonds foundation is empty and takes the Ace first (rule 7)")


def test_rule_08_tableau_one_lower_opposite_colour() -> None:
    # 9H takes a black 8 (8S from the waste, 8C from the reserve); red 8D, 7S (two lower),
    # TS (higher) and 9C (same rank) may not go on it; others fit elsewhere.
    game = position(T1="9H", T2="8D", T3="7S", T4="TS", T5="9C", W="8S", R="8C")
    assert legal(game) == ["R>T1", "T1>T4", "T2>T5", "T3>T2", "W>T1"]
    assert_illegal(game, "T2>T1")  # same colour
    assert_illegal(game, "T3>T1")  # two ranks lower
    assert_illegal(game, "T4>T1")  # one rank higher
    assert_illegal(game, "T5>T1")  # same rank
    assert_illegal(game, "W>T5")  # 8S on 9C: same colour
    assert_illegal(game, "T1>T3")  # 9H on 7S: higher
    play(game, "W>T1")
    assert segment(game, "T1") == "T1 9H 8S"


def test_rule_08_refusals_say_what_a_column_takes() -> None:
    game = position(T1="AH", T2="9H", T3="2C", W="8D", R="3C")
    assert assert_illegal(game, "W>T2") == "8D cannot go on 9H: it takes a black 8 (rule 8)"
    assert assert_illegal(game, "R>T1") == "3C cannot go on AH: nothing goes on an Ace (rule 8)"
    assert assert_illegal(game, "T3>T1") == "nothing goes on AH, an Ace (rule 8)"


def test_rule_09_runs_move_whole_or_partial() -> None:
    # T1 has the face-up run 9S 8H 7C 6D on a face-down KC: TD takes it whole, 8D takes the
    # partial run 7C 6D; 9D (wants a black 8) takes nothing, since 8H is red.
    game = position(T1="*KC 9S 8H 7C 6D", T2="TD", T3="8D", T4="9D", R="2C")
    assert legal(game) == ["T1>T2", "T1>T3"]
    assert_illegal(game, "T1>T4")

    whole = game.copy()
    assert play(whole, "T1>T2") == ["KC"]
    assert segment(whole, "T1") == "T1 KC"
    assert segment(whole, "T2") == "T2 TD 9S 8H 7C 6D"

    assert play(game, "T1>T3") == []
    assert segment(game, "T1") == "T1 *KC 9S 8H"
    assert segment(game, "T3") == "T3 8D 7C 6D"
    # A partial run of one card: the top alone.
    game = position(T1="*KC 9S 8H 7C 6D", T2="7S", R="2C")
    assert legal(game) == ["T1>T2"]
    play(game, "T1>T2")
    assert segment(game, "T1") == "T1 *KC 9S 8H 7C"


def test_rule_09_unit_must_be_a_face_up_run() -> None:
    # T1: 8C would fit 9D, but a face-down 7D lies in the unit; T3: 9C 7S has a rank gap for TH;
    # T5: JH TD breaks the colours for QS. Nothing at all may move.
    game = position(
        T1="*QH 8C *7D 6S", T2="9D", T3="9C 7S", T4="TH", T5="JH TD", T6="QS", T7="3C", R="2C"
    )
    assert legal(game) == []
    assert_illegal(game, "T1>T2")
    assert_illegal(game, "T3>T4")
    assert_illegal(game, "T5>T6")


def test_rule_10_empty_column_takes_only_a_king_or_king_led_run() -> None:
    # T1 is empty. KH QS JD (on a face-down 5C) may move in; so may KS QH, the whole of T3
    # (pointless, still listed), and KD from the waste. The Queen-led run QC JH, a lone 2D
    # and the reserve's 9C may not.
    game = position(
        T1="",
        T2="*5C KH QS JD",
        T3="KS QH",
        T4="*4C QC JH",
        T5="2D",
        T6="2H",
        T7="3H",
        W="KD",
        R="9C",
    )
    assert legal(game) == ["T2>T1", "T3>T1", "W>T1"]
    reason = assert_illegal(game, "T4>T1")
    assert "King" in reason
    assert_illegal(game, "T5>T1")
    assert_illegal(game, "R>T1")
    assert play(game, "T2>T1") == ["5C"]
    assert segment(game, "T1") == "T1 KH QS JD"
    assert segment(game, "T2") == "T2 5C"
    # A King-led run leaving a column empty may move back: pointless, but legal.
    assert "T1>T2" not in legal(game)  # T2 is not empty: 5C
    game = position(T1="", T2="KS QH", T3="2D", T4="2H", T5="3H", T6="3D", T7="4D", R="9C")
    play(game, "T2>T1")
    assert legal(game) == ["T1>T2"]


def test_rule_10_a_king_from_any_source_fills_an_empty_column() -> None:
    # All seven columns empty: the reserve's KS and the foundation tops KC KD KH may go to any
    # of them; the spades foundation top, QS, may not.
    game = position(F="KC KD KH QS", R="KS")
    expected = ["R>F"] + [f"{src}>{t}" for src in ("FC", "FD", "FH", "R") for t in COLUMNS]
    assert legal(game) == sorted(expected)
    for column in COLUMNS:
        assert_illegal(game, f"FS>{column}")
    play(game, "FD>T4")
    assert segment(game, "T4") == "T4 KD"


def test_rule_11_nothing_placed_on_reserve_waste_or_stock() -> None:
    # Cards everywhere that could move: none may go onto R, W or S.
    game = position(F="AC - - -", T1="2C", T2="*KD 9H", W="4D", R="8S", S="7D")
    sources, piles = ("T1", "W", "R", "FC", "S"), ("R", "W", "S")
    for token in [f"{s}>{p}" for s in sources for p in piles if f"{s}>{p}" != "S>W"]:
        assert_illegal(game, token)
    for token in legal(game):
        assert token == "S>W" or token.split(">")[1] in {"F", *COLUMNS}, token

    # The reserve refills nothing: T1 empties and stays empty; the reserve is untouched.
    reserve = game.view()["reserve"]
    play(game, "T1>F")
    assert segment(game, "T1") == "T1"
    assert game.view()["reserve"] == reserve
    play(game, "R>T2")  # 8S onto 9H: the reserve gives, and is not refilled either
    assert game.view()["reserve"] == reserve[:-1]


def test_rule_11_empty_reserve_gives_nothing() -> None:
    # The reserve is empty (the other cards are in the stock).
    game = position(R="", T1="2C", rest="S")
    assert segment(game, "R") == "R"
    assert_illegal(game, "R>F")
    assert_illegal(game, "R>T1")
    assert legal(game) == ["S>W"]


def test_rule_12_top_face_down_card_turns_up() -> None:
    # AH leaves T1 and 9S turns up (5D stays down under it); 4S 3H leave T2 and QD turns up;
    # AD leaves T4 and 9D was already face up: nothing turns.
    game = position(T1="*5D *9S AH", T2="*QD 4S 3H", T3="5H", T4="*6C 9D AD", R="9C")
    assert legal(game) == ["T1>F", "T2>T3", "T4>F"]
    assert play(game, "T1>F") == ["9S"]
    assert segment(game, "T1") == "T1 *5D 9S"
    assert play(game, "T2>T3") == ["QD"]
    assert segment(game, "T2") == "T2 QD"
    assert play(game, "T4>F") == []
    assert segment(game, "T4") == "T4 *6C 9D"
    # The turn is part of the move: no token of its own, and one U turns the card back down.
    assert " ".join(t for t in game.history if t != "U") == "T1>F T1>F T2>T3 T2>T3 T4>F T4>F"
    game.push("U")
    game.push("U")
    game.push("U")
    assert segment(game, "T1") == "T1 *5D *9S AH"
    # The player saw 9S and QD: they stay known, though face down again (RULES: U).
    view = game.view()
    assert view["tableau"][0][1] == {"card": "9S", "face_up": False}
    assert view["tableau"][0][0] == {"card": None, "face_up": False}


def test_rule_12_flip_when_a_king_run_leaves_for_an_empty_column() -> None:
    # KH QS leaves T2 for the empty T1: 5C under it turns up; 4D, below 5C, stays down.
    game = position(T1="", T2="*4D *5C KH QS", T3="2H", T4="2D", T5="3H", T6="3D", T7="4H", R="9C")
    assert play(game, "T2>T1") == ["5C"]
    assert segment(game, "T2") == "T2 *4D 5C"
    # A partial King-led run (KH QS above a face-up 5C) may go too; nothing turns.
    game = position(T1="", T2="*4D 5C KH QS", T3="2H", T4="2D", T5="3H", T6="3D", T7="4H", R="9C")
    assert legal(game) == ["T2>T1"]
    assert play(game, "T2>T1") == []
    assert segment(game, "T2") == "T2 *4D 5C"


def test_rule_13_won_when_all_52_on_foundations() -> None:
    # 51 cards up, KS on the waste: not yet won; KS may go up, or to any empty column.
    game = position(F="KC KD KH QS", W="KS")
    assert not game.is_won()
    assert game.foundation_cards == 51
    assert "W>F" in legal(game)
    play(game, "W>F")
    assert game.is_won()
    assert game.foundation_cards == 52
    assert game.to_text() == "munger; F KC KD KH KS; T1; T2; T3; T4; T5; T6; T7; R; W; S"
    # A won position is a position like any other: a King may come back (rule 6), and then it
    # is not won until it goes up again.
    assert legal(game) == sorted(f"F{s}>{t}" for s in "CDHS" for t in COLUMNS)
    play(game, "FS>T1")
    assert not game.is_won()
    play(game, "T1>F")
    assert game.is_won()


def test_rule_13_won_by_replay() -> None:
    # A deal that goes up card by card: the stock holds AC..4D in drawing order, the reserve
    # 5D..JD (top first), and each column the next four (top first).
    order = iter(DECK)
    placed = {n: next(order) for n in range(36, 53)}
    placed |= {n: next(order) for n in range(35, 28, -1)}
    for k in range(1, 8):
        placed |= {n: next(order) for n in (21 + k, 14 + k, 7 + k, k)}
    moves = ["S>W", "W>F"] * 17 + ["R>F"] * 7 + [f"T{k}>F" for k in range(1, 8) for _ in "1234"]
    result = replay("munger", deal_with(placed), moves)
    verdict = (result.valid, result.won, result.moves, result.foundation_cards)
    assert verdict == (True, True, 69, 52)
    assert result.error is None
    # One card short is not won.
    result = replay("munger", deal_with(placed), moves[:-1])
    assert (result.valid, result.won, result.foundation_cards) == (True, False, 51)


# -- the player's view --------------------------------------------------------------------------


def test_player_view_hides_face_down_cards_and_stock() -> None:
    dealt = deal("munger", 3).split()
    game = Munger.from_deal(" ".join(dealt))
    face_down = {dealt[n - 1] for n in [*range(1, 8), *range(15, 22), *range(36, 53)]}
    visible = set(dealt) - face_down
    assert len(face_down) == 31 and len(visible) == 21
    shown = json.dumps(game.view())
    assert set(CODE.findall(shown)) == visible
    for card in face_down:
        assert f'"{card}"' not in shown
    assert game.view()["stock"] == {"count": 17, "known": []}
    assert set(CODE.findall(json.dumps(game.view(full=True)))) == set(dealt)

    # After a draw, the drawn card is seen; the 16 left in the stock are not.
    game.push("S>W")
    shown = json.dumps(game.view())
    assert set(CODE.findall(shown)) == visible | {dealt[35]}
    assert set(CODE.findall(json.dumps(game.view(full=True)))) == set(dealt)


# -- undo and notation --------------------------------------------------------------------------


def test_undo_restores_exact_position_after_every_kind_of_move() -> None:
    # A draw, waste to foundation, reserve to column, a run with a turn, column to foundation
    # with a turn, and foundation to column; then U six times brings back the start.
    game = position(
        F="- - - 5S", T1="*KC 6D", T2="*QD 4C 3H", T3="5D", T4="*JS AC", R="2C", S="9C AD"
    )
    start = game.to_text()
    for token in ("S>W", "W>F", "R>T2", "T2>T3", "T4>F", "FS>T1"):
        play(game, token)
    assert segment(game, "T3") == "T3 5D 4C 3H 2C"
    for _ in range(6):
        game.push("U")
    assert game.to_text() == start
    assert game.history[-6:] == ["U"] * 6
    # U counts as a move, and undoing nothing is illegal.
    reason = assert_illegal(game, "U")
    assert "undo" in reason.lower()
    assert not game.can_undo


def test_undo_of_nothing_is_illegal_at_the_start() -> None:
    game = Munger.from_deal(deal_with())
    assert_illegal(game, "U")


@pytest.mark.parametrize(
    "token",
    [
        "Z9>Q",
        "T8>T1",
        "T0>T1",
        "T1-T2",
        "FX>T1",
        "F>T1",
        "t1>t2",
        "u",
        "T1>",
        ">T1",
        "T1>T2>T3",
        " T1>T2",
        "T1>T2 ",
        "W>FC",
        "T1>FH",
        "R>T",
        "S>W>F",
        "",
    ],
)
def test_notation_malformed_tokens_name_the_token(token: str) -> None:
    game = Munger.from_deal(deal_with())
    game.push("S>W")
    before = game.to_text()
    with pytest.raises(MalformedError) as caught:
        game.push(token)
    assert caught.value.token == token
    assert caught.value.index == 1
    assert caught.value.reason
    assert game.to_text() == before
    assert not game.is_legal(token)


def test_notation_well_formed_but_illegal() -> None:
    # The deal in deck order: 9D (T1 top) on TD (T2 top) is red on red.
    game = Munger.from_deal(deal_with())
    assert_illegal(game, "T1>T2")
    assert_illegal(game, "T1>T1")
    assert_illegal(game, "FC>T1")


def test_replay_reports_index_move_and_reason() -> None:
    dealt = deal_with()
    # The third token (index 2) is illegal: 9D on TD, red on red.
    result = replay("munger", dealt, "S>W T6>F T1>T2 S>W")
    assert not result.valid
    assert (result.error.index, result.error.move, result.error.kind) == (2, "T1>T2", "illegal")
    assert result.error.reason
    assert result.moves == 2
    # The game is left before the bad token, where the same push gives the same reason.
    with pytest.raises(IllegalMoveError) as caught:
        result.game.push("T1>T2")
    assert (caught.value.index, caught.value.reason) == (2, result.error.reason)

    # U counts in the index; a malformed token is reported as such.
    result = replay("munger", dealt, "S>W U S>W Z9>Q T6>F")
    assert (result.error.index, result.error.move, result.error.kind) == (3, "Z9>Q", "malformed")
    assert result.error.reason
    assert result.moves == 3

    # Undo beyond the start: the third token.
    result = replay("munger", dealt, ["S>W", "U", "U"])
    assert (result.error.index, result.error.move, result.error.kind) == (2, "U", "illegal")

    # A good history: valid, with U counted.
    result = replay("munger", dealt, "S>W U T6>F")
    assert (result.valid, result.moves, result.foundation_cards) == (True, 3, 1)
