"""Refusals as data: every illegal move the engine refuses carries a stable code of
`REFUSALS` and exactly the facts that code lists, and every code can be met in play (random
games of both games, every well-formed token tried at each position)."""

from __future__ import annotations

import random

import pytest

from games.engine import GAMES, IllegalMoveError, new_game
from games.engine.cards import TEXT
from games.engine.errors import REFUSALS
from games.engine.moves import UNDO_TEXT

CARD_CODES = set(TEXT)


def refusals_met(game_name: str, seeds: range, moves: int) -> dict[str, IllegalMoveError]:
    """The first refusal met of each code, trying every token at each position of random
    games (the moves chosen at random among the legal ones, foundation moves first)."""
    met: dict[str, IllegalMoveError] = {}
    tokens = list(GAMES[game_name].DECODE)
    for seed in seeds:
        game = new_game(game_name, seed=seed)
        rng = random.Random(seed)
        with pytest.raises(IllegalMoveError) as nothing_to_undo:
            game.push(UNDO_TEXT)
        met.setdefault(nothing_to_undo.value.code, nothing_to_undo.value)
        for _ in range(moves):
            legal = game.legal_moves()
            allowed = {m.text for m in legal}
            before = game.to_text()
            for token in tokens:
                if token in allowed:
                    continue
                try:
                    game.push(token)
                except IllegalMoveError as exc:
                    met.setdefault(exc.code, exc)
                else:  # pragma: no cover - legal_moves lists every legal move
                    raise AssertionError(f"{token} was legal but not listed")
            assert game.to_text() == before
            if not legal:
                break
            home = [m for m in legal if m.destination == "F"]
            game.push(rng.choice(home if home and rng.random() < 0.7 else legal))
    return met


def check(exc: IllegalMoveError, game_name: str) -> None:
    assert exc.code in REFUSALS, exc.code
    facts = exc.facts
    keys = set(REFUSALS[exc.code])
    # Masterpiece's foundations say their direction too.
    extra = {"direction"} if exc.code == "foundation_next" and game_name == "masterpiece" else set()
    assert set(facts) == keys | extra, (exc.code, facts)
    for key in ("card", "onto"):
        if key in facts:
            assert facts[key] in CARD_CODES
    if "rank" in facts and facts["rank"] is not None:
        assert facts["rank"] in "A23456789TJQK"


@pytest.mark.slow
def test_every_refusal_code_is_met_in_play_with_its_facts() -> None:
    met: dict[str, str] = {}
    for game_name, seeds, moves in (("munger", range(1, 9), 80), ("masterpiece", range(1, 9), 80)):
        for code, exc in refusals_met(game_name, seeds, moves).items():
            check(exc, game_name)
            met.setdefault(code, game_name)
    assert set(met) == set(REFUSALS), sorted(set(REFUSALS) - set(met))


def test_a_refusal_still_says_why_in_english_with_its_rule() -> None:
    game = new_game("munger", seed=1)
    with pytest.raises(IllegalMoveError) as raised:
        game.push("T1>R")
    assert raised.value.code == "never_placed" and raised.value.facts == {"place": "R"}
    assert "(rule 11)" in raised.value.reason
    with pytest.raises(IllegalMoveError) as raised:
        game.push(UNDO_TEXT)
    assert raised.value.code == "nothing_to_undo" and raised.value.facts == {}
