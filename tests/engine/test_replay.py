"""Replay verification: the verdict the server trusts (docs/rules.md, "Move notation";
docs/engine.md, "Command line")."""

from __future__ import annotations

import pytest

from games.engine import MalformedError, deal, replay
from tests.engine.positions import masterpiece_won_in_56, munger_won_in_69


def test_munger_win_is_verified_with_its_move_count() -> None:
    deal_string, moves = munger_won_in_69()
    result = replay("munger", deal_string, moves)
    assert (result.valid, result.won, result.moves, result.foundation_cards) == (True, True, 69, 52)
    assert result.error is None
    # Every foundation's King may come back down onto any of the seven empty columns.
    assert result.to_json()["legal"] == [f"F{s}>T{k}" for s in "CDHS" for k in range(1, 8)]


def test_masterpiece_win_is_verified() -> None:
    deal_string, moves = masterpiece_won_in_56()
    result = replay("masterpiece", deal_string, moves)
    assert (result.valid, result.won, result.moves, result.foundation_cards) == (True, True, 56, 52)
    assert result.to_json()["legal"] == []


def test_undo_counts_as_a_move_and_a_win_after_undos_is_still_a_win() -> None:
    deal_string, moves = munger_won_in_69()
    history = moves[:10] + ["S>W", "U"] + moves[10:]
    result = replay("munger", deal_string, history)
    assert result.valid and result.won and result.moves == 71


def test_first_illegal_move_is_named_with_its_index_and_reason() -> None:
    deal_string, moves = munger_won_in_69()
    history = moves[:5] + ["T3>F"] + moves[5:]  # T3 holds 9C, and 6C is due
    result = replay("munger", deal_string, history)
    assert not result.valid and not result.won
    assert result.error is not None
    assert (result.error.index, result.error.move, result.error.kind) == (5, "T3>F", "illegal")
    assert "foundation" in result.error.reason
    # The counts describe the position before the bad token.
    assert result.moves == 5 and result.foundation_cards == 5


def test_malformed_token_is_its_own_kind_of_error() -> None:
    result = replay("munger", deal("munger", 1), ["R>F", "Z9>Q", "S>W"])
    assert result.error is not None
    assert (result.error.index, result.error.move, result.error.kind) == (1, "Z9>Q", "malformed")
    assert "Z9" in result.error.reason


def test_undo_of_nothing_is_illegal() -> None:
    result = replay("masterpiece", deal("masterpiece", 1), "U")
    assert result.error is not None
    assert (result.error.index, result.error.kind) == (0, "illegal")
    assert result.error.reason == "there is no move to undo"


def test_undo_goes_back_one_move_at_a_time() -> None:
    good = replay("munger", deal("munger", 1), "R>F T3>T5 U U")
    assert good.valid and good.foundation_cards == 0 and good.moves == 4
    bad = replay("munger", deal("munger", 1), "R>F U U")
    assert bad.error is not None and bad.error.index == 2


def test_moves_after_the_game_is_won_are_illegal() -> None:
    deal_string, moves = masterpiece_won_in_56()
    result = replay("masterpiece", deal_string, [*moves, "M1>C"])
    assert not result.valid and result.won and result.error.index == 56  # type: ignore[union-attr]


def test_empty_history_is_valid() -> None:
    result = replay("masterpiece", deal("masterpiece", 3), [])
    assert result.valid and result.moves == 0 and result.foundation_cards == 4


def test_malformed_request_raises_rather_than_judging_the_history() -> None:
    with pytest.raises(MalformedError, match="unknown game"):
        replay("chess", deal("munger", 1), [])
    with pytest.raises(MalformedError, match="52"):
        replay("munger", "AC 2C", [])


def test_verdict_json_shape() -> None:
    result = replay("munger", deal("munger", 1), "R>F T1>T2")
    assert result.error is not None
    assert result.to_json() == {
        "valid": False,
        "won": False,
        "moves": 1,
        "foundation_cards": 1,
        "legal": ["S>W", "T3>T5", "T6>T5"],
        "error": {"index": 1, "move": "T1>T2", "reason": result.error.reason},
    }
