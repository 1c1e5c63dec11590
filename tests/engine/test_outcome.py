"""What a game says about itself beyond the legal list: its outcome (won, blocked, playing),
what each legal move carries, and the finishing line of foundation moves (docs/engine.md)."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import (
    BLOCKED,
    PLAYING,
    WON,
    LegalMove,
    Masterpiece,
    Munger,
    new_game,
)
from tests.engine.positions import (
    DECK,
    masterpiece_position,
    masterpiece_won_in_56,
    munger_position,
    munger_won_in_69,
)
from tests.engine.test_properties import play_randomly


def tokens(moves: list[LegalMove]) -> list[str]:
    return [m.move for m in moves]


# -- outcome ------------------------------------------------------------------------------------


def test_outcome_of_a_new_game_is_playing() -> None:
    assert new_game("munger", seed=1).outcome() == PLAYING
    assert new_game("masterpiece", seed=1).outcome() == PLAYING


def test_outcome_is_won_once_every_card_is_up() -> None:
    for deal_string, line, cls in (
        (*munger_won_in_69(), Munger),
        (*masterpiece_won_in_56(), Masterpiece),
    ):
        game = cls.from_deal(deal_string)
        for token in line[:-1]:
            game.push(token)
        assert game.outcome() == PLAYING
        game.push(line[-1])
        assert game.outcome() == WON
        game.push("U")
        assert game.outcome() == PLAYING


def test_outcome_is_blocked_when_no_card_move_is_legal_even_if_undo_is() -> None:
    # The stock and reserve are empty and the waste top 2C cannot go anywhere: nothing moves.
    game = munger_position(W="KD 2C", T1="QS", R="", rest="W")
    assert game.legal_moves() == [] and game.outcome() == BLOCKED
    # With a move to take back, U is still legal, but no card move is: still blocked.
    game = munger_position(T1="5H", T2="6S", W="KD 2C", R="", rest="W")
    game.push("T1>T2")
    assert game.legal_moves() == [] and game.can_undo
    assert game.outcome() == BLOCKED
    game.push("U")
    assert game.outcome() == PLAYING


def test_outcome_blocked_masterpiece() -> None:
    # The cellar is full and both auxiliary rows still hold cards, so 5C stays put (rule 8);
    # the free cards, 7s and 9s, fit no foundation (open direction) and no other free card.
    free = ["7C", "7D", "7H", "7S", "9C", "9D", "9H", "9S"]
    rest = [c for c in DECK if c[0] != "A" and c not in {"5C", "KC", "KD", *free}]
    rows = {f"M{k + 1}": " ".join([*rest[k::8], card]) for k, card in enumerate(free)}
    game = Masterpiece.from_text(masterpiece_position(A1="KC", A2="KD", C="5C", **rows))
    assert game.legal_moves() == [] and game.outcome() == BLOCKED


# -- what a legal move carries ------------------------------------------------------------------


def test_carrying_has_the_same_moves_in_the_same_order() -> None:
    for name in ("munger", "masterpiece"):
        game = new_game(name, seed=7)
        assert tokens(game.legal_moves_carrying()) == [m.text for m in game.legal_moves()]


def test_munger_carrying_of_each_kind_of_move() -> None:
    # T1 holds the face-up run 9S 8H 7C on a face-down card; TD takes it whole, 8D the 7C alone.
    game = munger_position(
        F="- - 5H -",
        T1="*2S 9S 8H 7C",
        T2="TD",
        T3="8D",
        T4="7S",
        T5="6C",
        W="6H",
        R="AC",
        S="KS",
    )
    carried = {m.move: (m.card, m.count) for m in game.legal_moves_carrying()}
    assert carried["T1>T2"] == ("9S", 3)
    assert carried["T1>T3"] == ("7C", 1)
    assert carried["W>T4"] == ("6H", 1)
    assert carried["W>F"] == ("6H", 1)
    assert carried["R>F"] == ("AC", 1)
    assert carried["FH>T5"] == ("5H", 1)
    assert carried["S>W"] == (None, 1)  # the drawn card is face down: never named
    assert "KS" not in json.dumps([m.to_json() for m in game.legal_moves_carrying()])


def test_masterpiece_carrying_is_the_free_card_or_the_cellar_card() -> None:
    game = Masterpiece.from_text(
        masterpiece_position(
            M1="2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC",
            M2="2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD",
            M3="2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH",
            M4="3S 4S 5S 6S 7S 8S 9S TS JS QS KS",
            A1="2S",
        )
    )
    carried = {m.move: m.to_json() for m in game.legal_moves_carrying()}
    assert carried["M1>F"] == {"move": "M1>F", "card": "KC", "count": 1}
    assert carried["A1>C"] == {"move": "A1>C", "card": "2S", "count": 1}
    assert carried["A1>M5"]["card"] == "2S"
    game.push("A1>C")
    assert {m.move: m.card for m in game.legal_moves_carrying()}["C>F"] == "2S"


def test_legal_move_is_a_frozen_value_with_a_json_form() -> None:
    move = LegalMove("T2>T5", "9H", 3)
    assert move == LegalMove("T2>T5", "9H", 3)
    assert move.to_json() == {"move": "T2>T5", "card": "9H", "count": 3}
    assert json.loads(json.dumps(LegalMove("S>W", None, 1).to_json()))["card"] is None


SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(
    st.integers(min_value=0, max_value=2**64 - 1),
    st.lists(st.integers(min_value=0, max_value=10_000), max_size=120),
)
def test_a_carried_card_is_always_one_the_player_can_see(seed: int, picks: list[int]) -> None:
    def check(game, legal) -> None:
        shown = json.dumps(game.view())
        for move in game.legal_moves_carrying():
            if move.card is not None:
                assert f'"{move.card}"' in shown, (move, game.to_text())
            assert move.count >= 1

    play_randomly(new_game("munger", seed=seed), picks, check=check)


# -- finishing line -----------------------------------------------------------------------------


def test_munger_finishing_line_from_a_near_finished_position() -> None:
    game = munger_position(F="KC KD KH 9S", T1="TS", T2="KS QS", T3="JS", R="", rest="R")
    before = game.to_text()
    line = game.finishing_line()
    assert line == ["T1>F", "T3>F", "T2>F", "T2>F"]
    assert game.to_text() == before and game.history == []  # the game itself is untouched
    for token in line:
        game.push(token)
    assert game.outcome() == WON
    assert game.finishing_line() is None  # nothing left to finish


def test_munger_finishing_line_needs_an_empty_stock_and_no_face_down_card() -> None:
    # Foundation moves alone would win, but only by turning up KS: not a line to offer.
    game = munger_position(F="KC KD KH JS", T1="*KS QS", R="", rest="R")
    assert game.finishing_line() is None
    # The same with KS in the stock.
    game = munger_position(F="KC KD KH JS", T1="QS", S="KS", R="", rest="R")
    assert game.finishing_line() is None


def test_munger_finishing_line_gets_stuck_on_a_buried_card() -> None:
    # The whole stock drawn onto the waste: its top is KS, and TH lies at the bottom.
    deal_string, line = munger_won_in_69()
    game = Munger.from_deal(deal_string)
    for token in line[:35]:  # the tableau and the reserve go up
        game.push(token)
    for _ in range(17):
        game.push("S>W")
    assert game.finishing_line() is None
    # One move short of the end, the line is that move.
    game = Munger.from_deal(deal_string)
    for token in line[:-1]:
        game.push(token)
    assert game.finishing_line() == ["W>F"]


def test_masterpiece_finishing_line_and_auxiliary_rows() -> None:
    deal_string, line = masterpiece_won_in_56()
    game = Masterpiece.from_deal(deal_string)
    for token in line[:40]:  # every main row up; the Queens and Kings wait on A1 and A2
        game.push(token)
    assert game.finishing_line() is None  # auxiliary cards never go straight up (rule 10)
    for token in line[40:-2]:
        game.push(token)
    assert game.finishing_line() is None  # one card still on A2
    game.push(line[-2])
    assert game.finishing_line() == ["M1>F"]


def test_masterpiece_finishing_line_picks_the_direction_that_finishes() -> None:
    # Each suit: its 2 alone in a row, the rest in the next row from 3 (centre) to K (free).
    # The first move up in token order, M1>F, is the 2C, building up, and then 3C is buried;
    # starting with a King, building down, goes out.
    rows = {}
    for k, suit in enumerate("CDHS"):
        rows[f"M{2 * k + 1}"] = f"2{suit}"
        rows[f"M{2 * k + 2}"] = " ".join(r + suit for r in "3456789TJQK")
    game = Masterpiece.from_text(masterpiece_position(**rows))
    line = game.finishing_line()
    assert line is not None and line[0] == "M2>F" and len(line) == 48
    for token in line:
        game.push(token)
    assert game.outcome() == WON


def test_masterpiece_finishing_line_stuck_on_a_buried_card() -> None:
    rows = {
        "M1": "2C 3C 4C 5C 6C 7C 8C 9C TC JC KC QC",  # QC lies on KC: going down, stuck
        "M2": "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD",
        "M3": "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH",
        "M4": "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS",
    }
    game = Masterpiece.from_text(masterpiece_position(D="-", **rows))
    assert game.finishing_line() is None
