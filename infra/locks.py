"""A lock held until the end of the current transaction, named by a few values: requests that
count something and then write (a limit per address, per network) take turns on the count, so a
crowd of them gets exactly the limit through.

On PostgreSQL an advisory lock (`pg_advisory_xact_lock` with one 64-bit key made from the
values); elsewhere nothing, since SQLite's writers already take turns. Call it inside
`transaction.atomic()`: outside one, the lock would end with the statement.
"""

from __future__ import annotations

import hashlib

from django.db import connection


def key_of(*parts: object) -> int:
    """A signed 64-bit key for the values, the same in every process.

    >>> key_of("league", "127.0.0.1") == key_of("league", "127.0.0.1") != key_of("league", "::1")
    True
    """
    digest = hashlib.blake2b("\x1f".join(map(str, parts)).encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big", signed=True)


def hold_until_commit(*parts: object) -> None:
    """Wait for, then hold until the transaction ends, the lock named by `parts`."""
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(%s::bigint)", [key_of(*parts)])
