"""Leaderboard speed: ranking a board in Python (the database path) and reading the Redis index.

Run: `.venv/bin/python benchmarks/leaderboard.py [--rows 10000] [--runs 5]`; with
`REDIS_URL=redis://...` the index part runs too (under a key of its own, deleted afterwards).

Builds seeded random entries (two thirds wins), then times: scoring and sorting every entry
with ranks (what a board served without Redis costs beyond reading its rows), filling a sorted
set with them, and reading the top page of 50 with the rank of its first row, and one rank.
Prints the median over runs.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from leaderboards import ranking  # noqa: E402


def entries(count: int, seed: int = 1) -> list[ranking.Entry]:
    rng = random.Random(seed)
    out = []
    for n in range(1, count + 1):
        won = rng.random() < 2 / 3
        out.append(
            ranking.entry(
                attempt_id=n,
                won=won,
                moves=rng.randint(60, 250),
                play_seconds=rng.uniform(60, 3600),
                foundation_cards=52 if won else rng.randint(4, 51),
                finished_ms=1_764_547_200_000 + rng.randint(0, 86_400_000),
            )
        )
    return out


def timed(action, runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    rows = entries(args.rows)

    python = timed(lambda: ranking.competition_ranks(rows), args.runs)
    print(f"{args.rows} rows ranked in Python: {python * 1000:.1f} ms")

    url = os.environ.get("REDIS_URL")
    if not url:
        print("REDIS_URL not set: the index part is skipped")
        return
    import redis

    conn = redis.Redis.from_url(url, socket_connect_timeout=0.25, socket_timeout=5)
    key = f"bench:lb:{uuid.uuid4().hex}"
    mapping = {ranking.member(e): ranking.score(e) for e in rows}
    try:
        fill = timed(lambda: (conn.delete(key), conn.zadd(key, mapping)), args.runs)
        print(f"{args.rows} rows written to a sorted set: {fill * 1000:.1f} ms")

        def page() -> None:
            top = conn.zrange(key, 0, 49, withscores=True)
            conn.zcount(key, "-inf", f"({int(top[0][1])}")

        print(f"top page of 50 and its first rank: {timed(page, args.runs * 20) * 1000:.2f} ms")
        middle = ranking.score(rows[len(rows) // 2])
        one = timed(lambda: conn.zcount(key, "-inf", f"({middle}"), args.runs * 20)
        print(f"one rank: {one * 1000:.2f} ms")
    finally:
        conn.delete(key)


if __name__ == "__main__":
    main()
