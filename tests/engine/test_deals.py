"""Seeded deals are pinned: docs/deals.md's algorithm and vectors, and deal-string parsing."""

from __future__ import annotations

import pytest

from games.engine import MalformedError, Masterpiece, Munger, deal
from games.engine.cards import RANK
from games.engine.deals import (
    below,
    parse_deal_cards,
    shuffled_deck,
    splitmix64,
)

GOLDEN = {
    ("munger", 0): "8S JH 9C 2S 2D QD 6S TC 3D AC JC 7C 9H 8C QS KH 5H 2C 3H 5C AH 6C 4S TD 5D "
    "8H 8D AD QH TS QC JD 3S 4D 2H 9D 3C KD AS 7S 9S 7D JS 6H KS 4C 7H 5S 6D 4H KC TH",
    ("munger", 1): "7D 9C 4D 8H 8D 5S JD 6D 9S JC 5D KD 3C 2D JH 5H 7H 4H 2C AD 6S KC KH TH TS "
    "JS TD 8S QC 4S 6C 7C AS 5C AH KS 6H QS QH QD 9D 3D 3S AC 4C 2H 8C TC 3H 2S 9H 7S",
    ("munger", 42): "7C 3H KC AS 2S AC AH KD TD 5C 8S JH 2H 4S 6H 5D 2D 5S 6D AD 7D 2C 8H 8C 4D "
    "7H KS TS 4H 3D TH JS 4C 6S 7S 3S 8D QD 9S KH 5H 6C QS 9D JD QC 3C 9H QH 9C JC TC",
    ("munger", 2**64 - 1): "JC KS 7S 4C AD JH 5D 2H AH 7D 6D 6S 4D AS 4S 7H 3D 2D 9H QH 8D 3S 5S "
    "9S AC 8S QD TD 7C QS 9C 4H JD KH KC 6H 9D 8H 8C TH 6C KD 2S 3H QC JS 3C 5H TS 2C TC 5C",
    ("masterpiece", 0): "AC AH AD AS 8S JH 9C 2S 2D QD 6S TC 3D JC 7C 9H 8C QS KH 5H 2C 3H 5C 6C "
    "4S TD 5D 8H 8D QH TS QC JD 3S 4D 2H 9D 3C KD 7S 9S 7D JS 6H KS 4C 7H 5S 6D 4H KC TH",
    ("masterpiece", 1): "AD AS AH AC 7D 9C 4D 8H 8D 5S JD 6D 9S JC 5D KD 3C 2D JH 5H 7H 4H 2C 6S "
    "KC KH TH TS JS TD 8S QC 4S 6C 7C 5C KS 6H QS QH QD 9D 3D 3S 4C 2H 8C TC 3H 2S 9H 7S",
    ("masterpiece", 42): "AS AC AH AD 7C 3H KC 2S KD TD 5C 8S JH 2H 4S 6H 5D 2D 5S 6D 7D 2C 8H 8C "
    "4D 7H KS TS 4H 3D TH JS 4C 6S 7S 3S 8D QD 9S KH 5H 6C QS 9D JD QC 3C 9H QH 9C JC TC",
    ("masterpiece", 2**64 - 1): "AD AH AS AC JC KS 7S 4C JH 5D 2H 7D 6D 6S 4D 4S 7H 3D 2D 9H QH "
    "8D 3S 5S 9S 8S QD TD 7C QS 9C 4H JD KH KC 6H 9D 8H 8C TH 6C KD 2S 3H QC JS 3C 5H TS 2C TC 5C",
}


def test_splitmix64_matches_the_published_vectors() -> None:
    stream = splitmix64(0)
    assert [next(stream) for _ in range(3)] == [
        0xE220A8397B1DCDAF,
        0x6E789E6AA1B965F4,
        0x06C45D188009454F,
    ]
    stream = splitmix64(1)
    assert [next(stream) for _ in range(3)] == [
        0x910A2DEC89025CC1,
        0xBEEB8DA1658EEC67,
        0xF893A2EEFB32555E,
    ]


def test_first_swaps_of_seed_1_match_docs() -> None:
    stream = splitmix64(1)
    assert [(i, below(stream, i + 1)) for i in range(51, 45, -1)] == [
        (51, 45),
        (50, 34),
        (49, 40),
        (48, 28),
        (47, 9),
        (46, 7),
    ]


def test_below_rejects_outputs_past_the_last_whole_multiple() -> None:
    # With bound 3, 2^64 mod 3 == 1, so the single output 2^64 - 1 must be drawn again.
    outputs = iter([2**64 - 1, 7])
    assert below(outputs, 3) == 1


@pytest.mark.parametrize(("game", "seed"), sorted(GOLDEN))
def test_golden_deals(game: str, seed: int) -> None:
    assert deal(game, seed) == GOLDEN[game, seed]


def test_golden_deals_are_the_ones_in_docs() -> None:
    with open("docs/deals.md", encoding="utf-8") as f:
        docs = f.read()
    for (game, seed), text in GOLDEN.items():
        assert f"| {game} | {seed} | `{text}` |" in docs


def test_deal_is_pure_and_seeds_differ() -> None:
    assert deal("munger", 7) == deal("munger", 7)
    deals = {deal("munger", seed) for seed in range(200)}
    assert len(deals) == 200


def test_shuffle_is_a_permutation_and_not_visibly_biased() -> None:
    # Where the Ace of clubs lands over 2600 seeds: about 50 times per position, never wildly off.
    counts = [0] * 52
    for seed in range(2600):
        deck = shuffled_deck(seed)
        assert sorted(deck) == list(range(52))
        counts[deck.index(0)] += 1
    assert min(counts) > 20 and max(counts) < 90


def test_masterpiece_layout_takes_the_aces_first_then_the_rest_in_order() -> None:
    deck = shuffled_deck(123)
    cards = Masterpiece.layout_deck(deck)
    assert [RANK[c] for c in cards[:4]] == [1, 1, 1, 1]
    assert cards[:4] == [c for c in deck if RANK[c] == 1]
    assert cards[4:] == [c for c in deck if RANK[c] != 1]
    # And the same seed gives the same shuffled deck in both games.
    munger = deal("munger", 123).split()
    assert deal("masterpiece", 123).split()[4:] == [c for c in munger if c[0] != "A"]


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("AC 2C", "52 cards, this one has 2"),
        (" ".join(["AC"] * 52), "appears twice"),
        (GOLDEN["munger", 1].replace("7D", "7d"), "upper case"),
        (GOLDEN["munger", 1].replace("7D", "1D"), "not a rank"),
        (GOLDEN["munger", 1].replace("7D", "7X"), "not a suit"),
        (GOLDEN["munger", 1].replace("7D", "10D"), "two characters"),
        (GOLDEN["munger", 1].replace(" ", "  ", 1), "single spaces"),
        (GOLDEN["munger", 1] + " ", "single spaces"),
        ("", "52"),
    ],
)
def test_malformed_deal_strings_say_what_is_wrong(text: str, needle: str) -> None:
    with pytest.raises(MalformedError) as info:
        Munger.from_deal(text)
    assert needle in str(info.value)


def test_malformed_card_error_names_the_token() -> None:
    with pytest.raises(MalformedError) as info:
        parse_deal_cards(GOLDEN["munger", 1].replace("9C", "9Z"))
    assert info.value.token == "9Z"
    assert "'9Z'" in str(info.value)


def test_masterpiece_deal_must_start_with_the_aces() -> None:
    with pytest.raises(MalformedError, match="starts with the four Aces"):
        Masterpiece.from_deal(GOLDEN["munger", 1])
    Munger.from_deal(GOLDEN["masterpiece", 1])  # any order is a Munger deal


@pytest.mark.parametrize("seed", [-1, 2**64, "3", 1.5, True])
def test_seeds_outside_the_range_are_refused(seed: object) -> None:
    with pytest.raises(MalformedError, match="seed"):
        Munger.from_seed(seed)  # type: ignore[arg-type]


def test_deal_string_round_trips_through_a_game() -> None:
    for game, seed in GOLDEN:
        cls = Munger if game == "munger" else Masterpiece
        assert (
            " ".join(map(str, cls.from_deal(GOLDEN[game, seed]).deal_cards)) == GOLDEN[game, seed]
        )
