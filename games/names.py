"""Display names: what may be a name, and when two names are the same name.

Two names are the same when they look the same to a person. A name is folded into a key
(`name_key`): Unicode compatibility forms are unified (NFKC: full-width letters, ligatures),
case is folded (also outside ASCII, the same on every database), runs of spaces become one, and
letters of another script that look like Latin ones (Cyrillic "ѕ", Greek "Ο") are read as those.
The key is unique in the database, so "Alice", "ALICE" and "Аlice" (Cyrillic A) cannot all exist.

A name mixing scripts ("Gueѕt" with a Cyrillic s) is refused outright: it has no honest use and
is the usual way to imitate someone. Names whose key starts with "guest " are kept for the
generated names of new players.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

from confusable_homoglyphs import confusables

GUEST_PREFIX = "Guest "


@lru_cache(maxsize=4096)
def _latin_lookalike(char: str) -> str:
    """The Latin letter that `char` imitates, or `char` itself."""
    if char.isascii():
        return char
    found = confusables.is_confusable(char, preferred_aliases=["latin"], greedy=False)
    if not found:
        return char
    for glyph in found[0]["homoglyphs"]:
        text = glyph["c"]
        if text.isascii() and text.isalnum():
            return text.lower()
    return char


def name_key(name: str) -> str:
    """The comparison key of a display name.

    >>> name_key("  Alice   Smith ") == name_key("ALICE SMITH") == "alice smith"
    True
    >>> name_key("Ѕаѕһа") == name_key("Sasha")  # Cyrillic letters that look Latin
    True
    """
    text = unicodedata.normalize("NFKC", name).casefold()
    text = "".join(_latin_lookalike(char) for char in text)
    return " ".join(unicodedata.normalize("NFKC", text).casefold().split())


def mixes_scripts(name: str) -> bool:
    """True when letters of more than one script are mixed (digits, spaces, punctuation do
    not count).

    >>> mixes_scripts("Gueѕt 123"), mixes_scripts("Саша 2"), mixes_scripts("Sasha")
    (True, False, False)
    """
    return bool(confusables.is_mixed_script(unicodedata.normalize("NFKC", name)))


def is_reserved(key: str) -> bool:
    """Keys of the generated guest names ("Guest 123456") and their look-alikes."""
    return key.startswith(GUEST_PREFIX.casefold())
