"""The safe foundation moves a position offers (`safe_foundation_moves`): the moves the solver
plays without branching (docs/solver.md), which the play state lists for a page's auto-move.
Each is legal, and a foundation move that could still be wanted elsewhere is not one of them."""

from __future__ import annotations

from games.engine import Game, Masterpiece, new_game
from games.engine.solver import safe_foundation_moves
from tests.engine.positions import masterpiece_position, munger_position


def legal(game: Game) -> set[str]:
    return {move.to_text() for move in game.legal_moves()}


def test_munger_a_card_goes_up_safely_when_the_cards_that_could_sit_on_it_are_up() -> None:
    # 8H (waste): both black foundations hold 8, diamonds 8: safe. 9D (column 4): black at 8,
    # hearts at 7: safe. 9C would be next on clubs but hearts is at 7: a red 8 may want it.
    game = munger_position(
        F="8C 8D 7H 8S",
        W="8H",
        T1="KD QS JH TS 9H",
        T2="KC QH JC TH 9C",
        T3="KS QD JS TD 9S",
        T4="KH QC JD TC 9D",
    )
    assert "T2>F" in legal(game)
    assert safe_foundation_moves(game) == ["T4>F", "W>F"]


def test_munger_aces_and_twos_are_safe_a_three_not_yet() -> None:
    game = munger_position(F="AC 2D AH AS", R="3H 2H", T1="2C", T2="3D")
    # 2H (reserve top) may go up: both black foundations hold an Ace. 2C too. 3D waits for the
    # black twos (a black 2 may want to go on it).
    assert {"R>F", "T1>F", "T2>F"} <= legal(game)
    assert safe_foundation_moves(game) == ["R>F", "T1>F"]


def test_masterpiece_nothing_is_safe_before_the_direction_is_fixed() -> None:
    game = new_game("masterpiece", seed=3)  # a 2 or a King is free on M1 and on M3
    assert {"M1>F", "M3>F"} <= legal(game)
    assert safe_foundation_moves(game) == []


def test_masterpiece_a_card_is_safe_when_no_later_card_of_its_suit_waits_in_an_aux_row() -> None:
    # Building up: TC, TD and TS could go up; JD waits in an auxiliary row (it needs a main
    # row to land on, such as TD), so TD is not safe. The cellar's 9H cannot leave (no
    # auxiliary row is empty).
    text = masterpiece_position(
        F="9C 9D 8H 9S",
        D="up",
        M1="JC TC",
        M2="QD TD",
        M3="KC QC",
        M4="QH JH TH",
        M5="KS QS JS TS",
        C="9H",
        A1="KD JD",
        A2="KH",
    )
    game = Masterpiece.from_text(text)
    assert {"M1>F", "M2>F", "M5>F"} <= legal(game) and "C>F" not in legal(game)
    assert safe_foundation_moves(game) == ["M1>F", "M5>F"]


def test_every_safe_move_is_legal_on_real_deals() -> None:
    for name in ("munger", "masterpiece"):
        for seed in range(1, 30):
            game = new_game(name, seed=seed)
            assert set(safe_foundation_moves(game)) <= legal(game), (name, seed)
