"""Deal strings and seeded shuffles (docs/rules.md, "Deal strings"; docs/deals.md).

A seed maps to a deck order through SplitMix64 and a Fisher-Yates shuffle, both written out here
and in docs/deals.md so that any language can reproduce a daily. Python's `random` is never used:
its streams are not promised across versions.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable, Iterator

from .cards import CARDS, TEXT, Card
from .errors import MalformedError

MASK64 = (1 << 64) - 1
SEED_LIMIT = 1 << 64
#: The largest seed (seeds are 0 to 2^64 - 1).
SEED_MAX = SEED_LIMIT - 1
#: New random seeds are below this (2^63: they also fit a signed 64-bit number).
RANDOM_SEEDS = 1 << 63

#: SplitMix64 constants (Steele, Lea and Flood, "Fast splittable pseudorandom number
#: generators", OOPSLA 2014; the finaliser is Stafford's "Mix13").
GOLDEN_GAMMA = 0x9E3779B97F4A7C15
MIX_1 = 0xBF58476D1CE4E5B9
MIX_2 = 0x94D049BB133111EB


def splitmix64(seed: int) -> Iterator[int]:
    """The SplitMix64 stream of 64-bit outputs for `seed`.

    >>> next(splitmix64(0))
    16294208416658607535
    """
    state = seed & MASK64
    while True:
        state = (state + GOLDEN_GAMMA) & MASK64
        z = state
        z = ((z ^ (z >> 30)) * MIX_1) & MASK64
        z = ((z ^ (z >> 27)) * MIX_2) & MASK64
        yield z ^ (z >> 31)


def below(stream: Iterator[int], bound: int) -> int:
    """A uniform integer in [0, bound), by rejection: outputs at or above the largest multiple
    of `bound` that fits in 64 bits are drawn again, so no remainder is favoured."""
    limit = SEED_LIMIT - SEED_LIMIT % bound
    while True:
        x = next(stream)
        if x < limit:
            return x % bound


def random_seed() -> int:
    """A new seed, uniformly random below `RANDOM_SEEDS` (the operating system's randomness)."""
    return secrets.randbelow(RANDOM_SEEDS)


def check_seed(seed: int) -> int:
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < SEED_LIMIT:
        raise MalformedError(f"a seed is an integer from 0 to 2^64-1, not {seed!r}")
    return seed


def shuffled_deck(seed: int) -> list[Card]:
    """The deck for `seed`: start from AC 2C .. KC AD .. KD AH .. KH AS .. KS, then for i from
    51 down to 1 swap card i with card `below(stream, i + 1)`."""
    stream = splitmix64(check_seed(seed))
    deck = list(CARDS)
    for i in range(51, 0, -1):
        j = below(stream, i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def parse_deal_cards(text: str) -> list[Card]:
    """The 52 distinct cards of a deal string, in dealing order; `MalformedError` otherwise."""
    if not isinstance(text, str):
        raise MalformedError("a deal is a string of 52 card codes")
    tokens = text.split(" ")
    if text != text.strip() or "" in tokens:
        raise MalformedError("a deal is 52 card codes separated by single spaces")
    if len(tokens) != 52:
        raise MalformedError(f"a deal has 52 cards, this one has {len(tokens)}")
    cards = [Card.from_text(token) for token in tokens]
    seen: set[int] = set()
    for token, card in zip(tokens, cards, strict=True):
        if card in seen:
            raise MalformedError("this card appears twice in the deal", token=token)
        seen.add(card)
    return cards


def format_deal(cards: Iterable[int]) -> str:
    return " ".join(TEXT[c] for c in cards)
