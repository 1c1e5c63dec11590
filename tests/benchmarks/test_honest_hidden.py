"""The fair-play benchmark's honest Munger player (benchmarks/_honest.py) knows only what a
player sees: on two deals that differ only in where the unseen cards lie (face-down tableau
cards, the stock's order), it plays move for move alike until a card that differs is turned up.
"""

from __future__ import annotations

import dataclasses
import random

import pytest

from benchmarks import _honest as honest
from benchmarks._honest import EXPERT, determinized, honest_game, unseen_places
from games.engine import GAMES, deal

#: Munger's deal string: cards 1-7 and 15-21 are face down, 36-52 the stock (docs/rules.md).
FACE_DOWN = [*range(0, 7), *range(14, 21)]
STOCK = list(range(35, 52))


def rearranged(text: str, places: list[int], order: list[int]) -> str:
    """`text` with the cards at `places` (deal indices) put in `order` (a permutation of
    range(len(places)))."""
    cards = text.split()
    moved = [cards[places[i]] for i in order]
    for place, card in zip(places, moved, strict=True):
        cards[place] = card
    return " ".join(cards)


def alike_until_a_difference(text_a: str, text_b: str, seed: int, max_moves: int) -> int:
    """Play the honest expert on both deals from the same seed; assert that every move (and
    its time) is the same while both players see the same table. Returns how many moves were
    compared."""
    skill = dataclasses.replace(EXPERT, max_moves=max_moves)
    a = honest_game(random.Random(seed), "munger", text_a, skill)
    b = honest_game(random.Random(seed), "munger", text_b, skill)
    game_a, game_b = GAMES["munger"].from_deal(text_a), GAMES["munger"].from_deal(text_b)
    compared = 0
    for index, (move_a, move_b) in enumerate(zip(a.moves, b.moves, strict=False)):
        if game_a.view() != game_b.view():
            break  # a card that differs is in sight: from here the players may differ
        assert (move_a, a.times[index]) == (move_b, b.times[index]), index
        game_a.push(move_a)
        game_b.push(move_b)
        compared += 1
    else:
        assert len(a.moves) == len(b.moves) and a.outcome == b.outcome
    return compared


def test_a_sample_of_the_unseen_cards_depends_on_what_is_seen_only() -> None:
    text = deal("munger", 33)
    other = rearranged(text, FACE_DOWN + STOCK, list(range(len(FACE_DOWN + STOCK)))[::-1])
    a, b = GAMES["munger"].from_deal(text), GAMES["munger"].from_deal(other)
    assert a.view() == b.view() and a.to_text() != b.to_text()
    assert len(unseen_places(a)) == 31

    sample_a, sample_b = determinized(a, random.Random(5)), determinized(b, random.Random(5))

    assert sample_a.to_text() == sample_b.to_text()  # the same guess from the same table
    assert sample_a.view() == a.view()  # what is seen stays where it is
    assert sorted(sample_a.cards()) == sorted(a.cards())
    for token in ["S>W"] * 3 + ["U"]:
        a.push(token)
    # Drawn cards are known, even once an undo put the last of them back on the stock.
    assert len(unseen_places(a)) == 28
    kept = determinized(a, random.Random(6))
    assert kept.stock[-1] == a.stock[-1] and kept.waste == a.waste


@pytest.mark.slow
def test_the_honest_munger_player_never_reads_a_hidden_card(monkeypatch) -> None:
    # A smaller look than the benchmark's: what it reads does not depend on the budget.
    monkeypatch.setattr(honest, "INTUITION_NODES", 2_000)
    text = deal("munger", 33)
    # The last seven stock cards in reverse order: the two tables look alike for long.
    late = rearranged(text, list(range(45, 52)), list(range(7))[::-1])
    assert alike_until_a_difference(text, late, seed=1, max_moves=70) >= 30
    # Every unseen card shuffled: alike until the first card turned up or drawn differs.
    places = FACE_DOWN + STOCK
    order = list(range(len(places)))
    random.Random(2).shuffle(order)
    shuffled = rearranged(text, places, order)
    assert shuffled != text
    assert alike_until_a_difference(text, shuffled, seed=4, max_moves=40) >= 1


@pytest.mark.slow
def test_the_comparison_tells_a_player_who_reads_hidden_cards(monkeypatch) -> None:
    """The check above has teeth: a player whose intuition asks the solver on the real deal
    (the model before it determinized) plays the two deals differently while they look alike."""
    monkeypatch.setattr(honest, "INTUITION_NODES", 2_000)
    monkeypatch.setattr(honest, "_intuition", lambda game, rng: honest._decided(game))
    text = deal("munger", 33)
    late = rearranged(text, list(range(45, 52)), list(range(7))[::-1])
    with pytest.raises(AssertionError):
        alike_until_a_difference(text, late, seed=1, max_moves=70)
