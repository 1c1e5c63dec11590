"""What the night's work of a day costs: its ratings (`ratings.services.ratings_close_daily`) and
its seasons' points (`leagues.services.daily_points_compute`) on one daily of N players, in
PostgreSQL.

Run: `DATABASE_URL=postgres://... .venv/bin/python benchmarks/ratings.py [--players 100000]`

Makes a database of its own (`patience_bench_ratings`, migrated, dropped at the end), then, by
bulk inserts: N players, half of them rated before (ratings, deviations and last days drawn at
random), one closed daily, and one ranked attempt each (55% verified wins, 25% resignations,
18% left unfinished, 1% held for review, 1% disqualified). Times the day's rating (every counted
player and the deal, in one transaction), then a second run (which finds the day rated), then
the day's points (every counted player ranked as the board ranks them, the rows replaced whole),
and prints each with the players counted.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import django  # noqa: E402

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django.setup()

from django.db import connection  # noqa: E402

from games import clock, names  # noqa: E402
from games.models import Attempt, DailyChallenge, Deal, Player  # noqa: E402
from leagues.models import DailyPoints  # noqa: E402
from leagues.services import daily_points_compute  # noqa: E402
from ratings.models import PlayerRating, RatingChange  # noqa: E402
from ratings.services import ratings_close_daily  # noqa: E402

DATABASE = "patience_bench_ratings"
BATCH = 10_000


def fill(players: int, seed: int) -> DailyChallenge:
    """The day to rate: `players` players, their attempts, half of them rated before."""
    rng = random.Random(seed)
    day = clock.today() - dt.timedelta(days=2)
    deal = Deal.objects.create(
        game="masterpiece",
        deal_string="bench-ratings",
        solver_status=Deal.SolverStatus.SOLVED,
        par=90,
        certificate=["x"],
        curation=Deal.Curation.APPROVED,
        difficulty=3,
    )
    daily = DailyChallenge.objects.create(game="masterpiece", date=day, deal=deal)
    Player.objects.bulk_create(
        [Player(display_name=f"p{n}", name_key=names.name_key(f"p{n}")) for n in range(players)],
        batch_size=BATCH,
    )
    ids = list(Player.objects.order_by("pk").values_list("pk", flat=True))
    PlayerRating.objects.bulk_create(
        [
            PlayerRating(
                player_id=pk,
                game="masterpiece",
                rating=rng.gauss(1500, 250),
                rd=rng.uniform(45, 350),
                games=rng.randint(1, 300),
                last_date=day - dt.timedelta(days=rng.randint(1, 60)),
            )
            for pk in ids[::2]
        ],
        batch_size=BATCH,
    )
    now = clock.now()
    attempts = []
    for pk in ids:
        draw = rng.random()
        status = Attempt.Status.WON
        if draw >= 0.55:
            status = Attempt.Status.RESIGNED if draw < 0.80 else Attempt.Status.PLAYING
        attempts.append(
            Attempt(
                player_id=pk,
                game="masterpiece",
                daily=daily,
                deal_string=deal.deal_string,
                ranked=True,
                status=status,
                verified=status != Attempt.Status.PLAYING,
                move_count=(moves := rng.randint(60, 220)),
                next_seq=moves,
                foundation_cards=52 if status == Attempt.Status.WON else rng.randint(4, 51),
                started_at=now,
                first_move_at=now,
                last_move_at=now + dt.timedelta(seconds=moves * 3),
                finished_at=(
                    None
                    if status == Attempt.Status.PLAYING
                    else now + dt.timedelta(seconds=moves * 3 + 5)
                ),
                counted_ms=rng.randint(60_000, 1_800_000),
                review=Attempt.Review.HELD if 0.98 <= draw < 0.99 else "",
                disqualified=draw >= 0.99,
            )
        )
    Attempt.objects.bulk_create(attempts, batch_size=BATCH)
    DailyChallenge.objects.filter(pk=daily.pk).update(closed_at=now)
    return daily


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=1)
    options = parser.parse_args()
    if connection.vendor != "postgresql":
        sys.exit("Set DATABASE_URL=postgres://...: this benchmark runs on PostgreSQL.")
    connection.settings_dict["TEST"]["NAME"] = DATABASE
    original = connection.settings_dict["NAME"]
    connection.creation.create_test_db(verbosity=0, autoclobber=True, serialize=False)
    try:
        started = time.perf_counter()
        daily = fill(options.players, options.seed)
        print(f"{options.players} players filled in {time.perf_counter() - started:.1f} s")

        started = time.perf_counter()
        rated = ratings_close_daily(daily_id=daily.pk)
        first = time.perf_counter() - started
        started = time.perf_counter()
        again = ratings_close_daily(daily_id=daily.pk)
        second = time.perf_counter() - started

        assert rated == RatingChange.objects.count() and again is None
        print(f"ratings_close_daily: {rated} players rated in {first:.1f} s")
        print(f"a second run (the day rated already): {second * 1000:.0f} ms")

        started = time.perf_counter()
        scored = daily_points_compute(daily_id=daily.pk)
        points = time.perf_counter() - started
        assert scored == DailyPoints.objects.count()
        print(f"daily_points_compute: {scored} players scored in {points:.1f} s")
    finally:
        connection.creation.destroy_test_db(original, verbosity=0)


if __name__ == "__main__":
    main()
