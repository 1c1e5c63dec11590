"""Display names: what may be a name, and when two names are the same name.

Two names are the same when they look the same to a person. A name is folded into a key
(`name_key`): Unicode compatibility forms are unified (NFKC: full-width letters, ligatures),
case is folded (also outside ASCII, the same on every database), runs of spaces become one, and
letters of another script that look like Latin ones (Cyrillic "ѕ", Greek "Ο") are read as those.
The key is unique in the database, so "Alice", "ALICE" and "Аlice" (Cyrillic A) cannot all exist.

A name mixing scripts ("Gueѕt" with a Cyrillic s) is refused outright: it has no honest use and
is the usual way to imitate someone. So is a name written in another script whose every letter
reads as a Latin one ("МАХ" in Cyrillic capitals reads "MAX", `imitates_latin`): it would pass
for a Latin name that does not exist yet, or, taken first, hold that name; such a name is to
be written in Latin letters. Names whose letters and digits start with "guest" ("Guest 1",
"Guest_123456", "guest-1") are kept for the generated names of new players.

The look-alike table is the Unicode confusables data as the `confusable_homoglyphs` library
ships it (kept up to date with Unicode); this module only chooses how to use it.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

from confusable_homoglyphs import categories, confusables

GUEST_PREFIX = "Guest "
GUEST_WORD = GUEST_PREFIX.strip().casefold()


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


@lru_cache(maxsize=4096)
def _read_as_latin(char: str) -> str:
    """The Latin letter that a case-folded `char` or its capital imitates, or `char`: both
    cases count, so that case twins share a key (Cyrillic "М" looks like "M" while "м" looks
    like no Latin letter; "К" like "K", "к" like none)."""
    found = _latin_lookalike(char)
    if found == char and len(char.upper()) == 1:
        capital = _latin_lookalike(char.upper())
        if capital != char.upper():
            return capital
    return found


def name_key(name: str) -> str:
    """The comparison key of a display name.

    >>> name_key("  Alice   Smith ") == name_key("ALICE SMITH") == "alice smith"
    True
    >>> name_key("Ѕаѕһа") == name_key("Sasha")  # Cyrillic letters that look Latin
    True
    >>> name_key("МАХ") == name_key("мах") == name_key("max")  # Cyrillic, either case
    True
    """
    text = unicodedata.normalize("NFKC", name).casefold()
    text = "".join(_read_as_latin(char) for char in text)
    return " ".join(unicodedata.normalize("NFKC", text).casefold().split())


def mixes_scripts(name: str) -> bool:
    """True when letters of more than one script are mixed (digits, spaces, punctuation do
    not count).

    >>> mixes_scripts("Gueѕt 123"), mixes_scripts("Саша 2"), mixes_scripts("Sasha")
    (True, False, False)
    """
    return bool(confusables.is_mixed_script(unicodedata.normalize("NFKC", name)))


def imitates_latin(name: str) -> bool:
    """True when the name has letters, none of them Latin, and every one reads as a Latin
    letter (a whole-script look-alike of a Latin name).

    >>> imitates_latin("МАХ"), imitates_latin("Саша"), imitates_latin("José"), imitates_latin("42")
    (True, False, False, False)
    """
    letters = [char for char in unicodedata.normalize("NFKC", name) if char.isalpha()]
    if not letters or any(categories.alias(char) == "LATIN" for char in letters):
        return False
    return all(_latin_lookalike(char).isascii() for char in letters)


def is_reserved(key: str) -> bool:
    """Keys of the generated guest names ("Guest 123456") and their look-alikes: whatever
    separates "guest" from what follows ("Guest_1", "guest-1", "Guest1").

    >>> [is_reserved(name_key(n)) for n in ("Guest 12", "Guest_123456", "G.uest", "Guesser")]
    [True, True, True, False]
    """
    return "".join(char for char in key if char.isalnum()).startswith(GUEST_WORD)
