"""Cards and move tokens: text forms that round-trip, and precise errors (docs/rules.md)."""

from __future__ import annotations

import pytest

from games.engine import (
    CARDS,
    UNDO,
    Card,
    IllegalMoveError,
    MalformedError,
    Masterpiece,
    Move,
    Munger,
    new_game,
)
from games.engine.cards import TEXT


def test_every_card_round_trips_and_reprs_rebuild_it() -> None:
    assert len({c.to_text() for c in CARDS}) == 52
    for card in CARDS:
        assert Card.from_text(card.to_text()) is card
        assert eval(repr(card)) == card  # noqa: S307 - repr shows how to rebuild it
        assert str(card) == TEXT[card]


def test_card_attributes_and_display_form() -> None:
    ten = Card.from_text("TS")
    assert (ten.rank, ten.suit, ten.is_red) == (10, "S", False)
    assert ten.pretty() == "10♠"
    assert Card.of(12, "H").to_text() == "QH" and Card.from_text("QH").is_red


@pytest.mark.parametrize("text", ["ts", "10S", "1S", "TX", "T", "TSS", "", " TS", "♠T"])
def test_card_parser_accepts_only_the_exact_form(text: str) -> None:
    with pytest.raises(MalformedError) as info:
        Card.from_text(text)
    assert info.value.token == text


@pytest.mark.parametrize("cls", [Munger, Masterpiece])
def test_every_token_of_a_game_round_trips(cls: type) -> None:
    for text, move in cls.MOVES.items():
        assert move.to_text() == text == str(move)
        assert Move.from_text(text) == move
        assert eval(repr(move)) == move  # noqa: S307
        assert cls.parse_move(text) is move
    assert cls.parse_move("U") is UNDO and UNDO.is_undo and UNDO.to_text() == "U"


def test_munger_token_set_is_exactly_the_pile_pairs() -> None:
    sources = [*(f"T{k}" for k in range(1, 8)), "R", "W", "S", "FC", "FD", "FH", "FS"]
    destinations = [*(f"T{k}" for k in range(1, 8)), "F", "W", "R", "S"]
    assert set(Munger.MOVES) == {f"{s}>{d}" for s in sources for d in destinations}


def test_masterpiece_token_set_is_exactly_the_pile_pairs() -> None:
    rows = [*(f"M{k}" for k in range(1, 9)), "A1", "A2"]
    assert set(Masterpiece.MOVES) == {f"{s}>{d}" for s in [*rows, "C"] for d in [*rows, "C", "F"]}


@pytest.mark.parametrize(
    ("cls", "token", "needle"),
    [
        (Munger, "Z9>Q", "'Z9' is not a source pile"),
        (Munger, "T8>T1", "'T8' is not a source pile"),
        (Munger, "T1>T0", "'T0' is not a destination pile"),
        (Munger, "F>T1", "'F' is not a source pile"),
        (Munger, "T1>FC", "'FC' is not a destination pile"),
        (Munger, "T1-T2", "SOURCE>DESTINATION"),
        (Munger, "t1>t2", "'t1' is not a source pile"),
        (Munger, "T1>T2>T3", "SOURCE>DESTINATION"),
        (Munger, "T1 >T2", "not a source pile"),
        (Munger, "u", "SOURCE>DESTINATION"),
        (Masterpiece, "M9>M1", "'M9' is not a source pile"),
        (Masterpiece, "F>M1", "'F' is not a source pile"),
        (Masterpiece, "M1>T1", "'T1' is not a destination pile"),
        (Masterpiece, "S>W", "'S' is not a source pile"),
    ],
)
def test_malformed_tokens_name_themselves(cls: type, token: str, needle: str) -> None:
    with pytest.raises(MalformedError) as info:
        cls.parse_move(token)
    assert info.value.token == token and needle in info.value.reason
    game = cls.from_seed(1)
    before = game.to_text()
    with pytest.raises(MalformedError) as info:
        game.push(token)
    assert info.value.index == 0 and game.to_text() == before and game.history == []


def test_well_formed_but_illegal_is_a_different_error() -> None:
    game = new_game("munger", seed=1)
    game.push("R>F")
    with pytest.raises(IllegalMoveError) as info:
        game.push("T1>T2")
    error = info.value
    assert (error.token, error.index) == ("T1>T2", 1)
    assert str(error).startswith("move 1 'T1>T2': ")
    assert not isinstance(error, MalformedError)


def test_push_accepts_move_objects_and_refuses_other_types() -> None:
    game = new_game("masterpiece", seed=1)
    game.push(Move("M5", "M7"))
    game.push(UNDO)
    assert game.history == ["M5>M7", "U"]
    with pytest.raises(MalformedError, match="a move is a string"):
        game.push(7)  # type: ignore[arg-type]
    assert not game.is_legal("U")  # M5>M7 was undone already
    assert not game.is_legal("A1>F") and game.is_legal("A1>M2")
    game.push("A1>M2")
    assert game.is_legal("U")
    assert not game.is_legal("nonsense")


def test_each_game_has_a_name_a_title_and_its_native_title() -> None:
    assert (Munger.name, Munger.title, Munger.native_title) == ("munger", "Munger", "")
    assert (Masterpiece.name, Masterpiece.title, Masterpiece.native_title) == (
        "masterpiece",
        "Masterpiece",
        "Шедевр",
    )
