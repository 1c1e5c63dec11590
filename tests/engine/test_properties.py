"""Invariants of both games over random legal play (Hypothesis).

- 52 distinct cards always;
- play then undo restores the position exactly;
- every replayed random legal game is valid and ends in the same position;
- position text round-trips and gives the same legal moves;
- the player's view never shows a card the player has not seen, nor does a refusal's reason.
"""

from __future__ import annotations

import json
import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import GAMES, Game, IllegalMoveError, new_game, replay
from games.engine.cards import TEXT

games = st.sampled_from(sorted(GAMES))
seeds = st.integers(min_value=0, max_value=2**64 - 1)
# Each choice picks among the legal moves (modulo their number); a few mean "undo".
choices = st.lists(st.integers(min_value=0, max_value=10_000), min_size=0, max_size=120)

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def play_randomly(game: Game, picks: list[int], *, check=None) -> Game:
    for pick in picks:
        legal = game.legal_moves()
        if check:
            check(game, legal)
        if game.can_undo and (not legal or pick % 11 == 0):
            game.push("U")
        elif legal:
            game.push(legal[pick % len(legal)])
        else:
            break
    return game


@SETTINGS
@given(games, seeds, choices)
def test_52_distinct_cards_always(name: str, seed: int, picks: list[int]) -> None:
    def check(game: Game, legal: list) -> None:
        assert sorted(game.cards()) == list(range(52))

    play_randomly(new_game(name, seed=seed), picks, check=check)


@SETTINGS
@given(games, seeds, choices)
def test_play_then_undo_restores_the_position_exactly(
    name: str, seed: int, picks: list[int]
) -> None:
    def check(game: Game, legal: list) -> None:
        before = game.to_text()
        for move in legal:
            game.push(move)
            game.push("U")
            assert game.to_text() == before, move
        assert [m.text for m in game.legal_moves()] == [m.text for m in legal]

    play_randomly(new_game(name, seed=seed), picks, check=check)


@SETTINGS
@given(games, seeds, choices)
def test_every_replayed_random_legal_game_is_valid(name: str, seed: int, picks: list[int]) -> None:
    game = play_randomly(new_game(name, seed=seed), picks)
    start = new_game(name, seed=seed)
    deal = " ".join(TEXT[c] for c in start.deal_cards)
    result = replay(name, deal, game.history)
    assert result.valid and result.error is None
    assert result.moves == len(game.history)
    assert result.won == game.is_won()
    assert result.foundation_cards == game.foundation_cards
    assert result.game is not None and result.game.to_text() == game.to_text()
    # The history as one string of tokens gives the same verdict.
    assert replay(name, deal, " ".join(game.history)) == result


@SETTINGS
@given(games, seeds, choices)
def test_position_text_round_trips(name: str, seed: int, picks: list[int]) -> None:
    game = play_randomly(new_game(name, seed=seed), picks)
    again = type(game).from_text(game.to_text())
    assert again.to_text() == game.to_text()
    assert again == game
    assert [m.text for m in again.legal_moves()] == [m.text for m in game.legal_moves()]
    assert again.view(full=True) == game.view(full=True)


@SETTINGS
@given(seeds, choices)
def test_munger_view_never_shows_an_unseen_card(seed: int, picks: list[int]) -> None:
    seen: set[str] = set()

    def check(game: Game, legal: list) -> None:
        full = game.view(full=True)
        # Everything face up now, plus what the player saw before, is all the player knows.
        seen.update(e["card"] for col in full["tableau"] for e in col if e["face_up"])
        seen.update(full["reserve"] + full["waste"])
        seen.update(f["top"] for f in full["foundations"] if f["top"])
        shown = json.dumps(game.view())
        for code in TEXT:
            if code not in seen:
                assert code not in shown, code

    game = new_game("munger", seed=seed)
    play_randomly(game, picks, check=check)


CARD_CODE = re.compile(r"\b[A2-9TJQK][CDHS]\b")


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seeds, st.lists(st.integers(min_value=0, max_value=10_000), max_size=80))
def test_munger_refusals_name_no_card_the_player_cannot_see(seed: int, picks: list[int]) -> None:
    def check(game: Game, legal: list) -> None:
        shown = set(CARD_CODE.findall(json.dumps(game.view())))
        for move in game.CANDIDATES:
            try:
                game.is_legal(move) or game.push(move)
            except IllegalMoveError as error:
                assert set(CARD_CODE.findall(error.reason)) <= shown, (error, game.to_text())

    play_randomly(new_game("munger", seed=seed), picks, check=check)


@SETTINGS
@given(games, seeds, choices)
def test_copy_is_independent(name: str, seed: int, picks: list[int]) -> None:
    game = play_randomly(new_game(name, seed=seed), picks)
    text, history = game.to_text(), list(game.history)
    twin = game.copy()
    play_randomly(twin, [3, 1, 4, 1, 5, 9, 2, 6])
    assert game.to_text() == text and game.history == history
