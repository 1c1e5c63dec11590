"""Race codes: short, unguessable (from `secrets`), easy to read aloud and to type."""

from __future__ import annotations

import secrets

#: No 0/o, 1/l/i: nothing that reads as another character.
ALPHABET = "23456789abcdefghjkmnpqrstuvwxyz"
LENGTH = 10  # 31^10: about 2^49.5 codes


def code_new() -> str:
    return "".join(secrets.choice(ALPHABET) for _ in range(LENGTH))


def code_valid(text: str) -> bool:
    """Whether `text` has a code's form (anything else is not looked up)."""
    return len(text) == LENGTH and all(c in ALPHABET for c in text)
