"""Hypothesis fuzzing of the engine's parsers: whatever a client sends, the engine answers with
a result or with its own `MalformedError` / `IllegalMoveError`, never another exception, and a
refused move changes nothing.

Covers `Game.parse_move`, `Game.push` (strings, non-strings, near-miss tokens, on positions
reached by random legal play), `replay` (histories as lists and as one string), deal strings
(`from_deal`, `replay` on a mangled deal), seeds and the position text form (`from_text`).
Pure Python: runs on any machine, no service needed.
"""

from __future__ import annotations

import contextlib
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import (
    GAMES,
    Game,
    IllegalMoveError,
    MalformedError,
    deal,
    game_class,
    new_game,
    replay,
)
from games.engine.cards import TEXT

FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
ENGINE_ERRORS = (MalformedError, IllegalMoveError)

games = st.sampled_from(sorted(GAMES))
pile_names = sorted(
    {name for cls in GAMES.values() for name in (*cls.SOURCES, *cls.DESTINATIONS)} | {"F", "S"}
)
#: Tokens that look like moves: known piles and near misses, arrows and spaces in odd places.
near_miss = st.builds(
    lambda a, sep, b, pad: f"{pad}{a}{sep}{b}{pad[::-1]}",
    st.sampled_from([*pile_names, "T0", "T8", "T10", "M0", "M9", "t1", "FC", "X", ""]),
    st.sampled_from([">", ">>", "<", "-", " > ", "", ">\x00"]),
    st.sampled_from([*pile_names, "T0", "T99", "F7", "f", "", "U"]),
    st.sampled_from(["", " ", "\t", "\u00a0", "\n"]),
)
all_tokens = sorted({token for cls in GAMES.values() for token in cls.MOVES} | {"U"})
tokens = st.one_of(
    st.sampled_from(all_tokens), near_miss, st.text(max_size=12), st.sampled_from(["U", "u", ""])
)
anything = st.one_of(
    tokens,
    st.none(),
    st.integers(),
    st.binary(max_size=8),
    st.booleans(),
    st.floats(),
    st.lists(st.text(max_size=3), max_size=3),
)


def played(game_name: str, seed: int, steps: int) -> Game:
    """A position after `steps` random legal moves (undos included) from the deal of `seed`."""
    game = new_game(game_name, seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        legal = [m.text for m in game.legal_moves()]
        if game.can_undo and rng.random() < 0.15:
            legal.append("U")
        if not legal:
            break
        game.push(rng.choice(legal))
    return game


positions = st.builds(played, games, st.integers(0, 10_000), st.integers(0, 60))


@FUZZ
@given(games, tokens)
def test_parse_move_answers_a_move_or_malformed(game_name, token):
    try:
        move = game_class(game_name).parse_move(token)
    except MalformedError:
        return
    assert move.text == token


@FUZZ
@given(positions, st.lists(anything, min_size=1, max_size=6))
def test_push_answers_cards_or_an_engine_error_and_a_refusal_changes_nothing(game, moves):
    for move in moves:
        before = (game.to_text(), list(game.history), set(game.revealed), game.view())
        try:
            cards = game.push(move)
        except ENGINE_ERRORS as exc:
            assert exc.reason
            assert (game.to_text(), game.history, game.revealed, game.view()) == before
            continue
        assert isinstance(cards, tuple) and all(c in range(52) for c in cards)
        if move != "U":
            assert game.history[-1] == move


@FUZZ
@given(games, st.integers(0, 10_000), st.lists(tokens, max_size=40), st.booleans())
def test_replay_judges_any_history_without_raising(game_name, seed, moves, as_text):
    deal_string = deal(game_name, seed)
    history = " ".join(moves) if as_text else moves
    result = replay(game_name, deal_string, history)
    if result.valid:
        assert result.error is None and result.moves == len(result.game.history)
    else:
        assert result.error is not None and result.error.kind in {"malformed", "illegal"}
        assert result.error.reason


def mangle(text: str, how: int, rng: random.Random) -> str:
    codes = text.split()
    if how == 0 and codes:  # a duplicate card
        codes[rng.randrange(len(codes))] = codes[rng.randrange(len(codes))]
    elif how == 1 and codes:  # a card missing
        codes.pop(rng.randrange(len(codes)))
    elif how == 2:  # lower case
        return text.lower()
    elif how == 3:  # other separators
        return rng.choice([",", "  ", "\t", "\n", ""]).join(codes)
    elif how == 4 and codes:  # a code that is not a card
        codes[rng.randrange(len(codes))] = rng.choice(["1S", "TX", "10H", "AA", "", "?", "🂡"])
    elif how == 5:  # a card too many
        codes.append(rng.choice(list(TEXT)))
    elif how == 6:  # shuffled: a valid deal, another one
        rng.shuffle(codes)
    return " ".join(codes)


@FUZZ
@given(games, st.integers(0, 10_000), st.integers(0, 6), st.randoms(use_true_random=False))
def test_a_mangled_deal_string_is_a_deal_or_malformed(game_name, seed, how, rng):
    text = mangle(deal(game_name, seed), how, rng)
    try:
        game = game_class(game_name).from_deal(text)
    except MalformedError:
        try:
            replay(game_name, text, ["U"])
        except MalformedError:
            return
        raise AssertionError("replay took a deal that from_deal refused") from None
    assert sorted(game.cards()) == list(range(52))


deal_texts = st.one_of(
    st.text(max_size=200),
    st.lists(st.sampled_from([*TEXT, "10S", "1H", "ZZ", "", "  "]), max_size=60).map(" ".join),
)


@FUZZ
@given(games, deal_texts)
def test_any_deal_text_is_a_deal_or_malformed(game_name, text):
    with contextlib.suppress(MalformedError):
        game = game_class(game_name).from_deal(text)
        assert sorted(game.cards()) == list(range(52))


@pytest.mark.parametrize(
    "cards",
    [list(range(1, 53)), [*range(51), -1], [*range(51), 51.0], [*range(51), True], [*range(51)]],
    ids=["52-is-no-card", "negative", "float", "bool", "51-cards"],
)
@pytest.mark.parametrize("game_name", ["munger", "masterpiece"])
def test_a_sequence_that_is_not_the_52_cards_is_malformed(game_name, cards):
    with pytest.raises(MalformedError):
        game_class(game_name).from_deal(cards)


@FUZZ
@given(games, st.one_of(st.integers(), st.booleans(), st.floats(), st.text(max_size=5)))
def test_any_seed_is_a_deal_or_malformed(game_name, seed):
    with contextlib.suppress(MalformedError):
        new_game(game_name, seed=seed)


@FUZZ
@given(positions, st.integers(0, 400), st.text(max_size=4))
def test_a_mangled_position_text_is_a_position_or_malformed(game, cut, noise):
    text = game.to_text()
    mangled = text[:cut] + noise + text[cut + len(noise) :]
    try:
        back = type(game).from_text(mangled)
    except MalformedError:
        return
    if mangled == text:
        assert back.to_text() == text
