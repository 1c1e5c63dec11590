"""The scale on paper multiplies the measured figures as its model says."""

import argparse

import pytest

from benchmarks.scale import plan


def args(**changes):
    values = dict(
        games=2.0, moves=100.0, pace=2.0, rush=0.1, first_minute=0.5, requests=4.0,
        move_ms=3.0, request_ms=6.0, redis_per_move=8.0, watching=0.2, watchers=1000.0,
        watcher_mib=50.0, utilisation=0.5,
    )  # fmt: skip
    values.update(changes)
    return argparse.Namespace(**values)


def test_the_rush_sets_the_peak():
    p = plan(60_000, args())
    assert p["moves a day"] == 60_000 * 2 * 100
    assert p["players at the rush's peak"] == 6_000
    assert p["moves/s at the peak"] == 3_000  # 6,000 players, a move every 2 s
    assert p["other requests/s (first minute)"] == 200  # 3,000 new players in 60 s, 4 each
    assert p["web CPU, cores busy"] == pytest.approx(3_000 * 0.003 + 200 * 0.006)
    assert p["web cores planned"] == pytest.approx(p["web CPU, cores busy"] / 0.5)
    assert p["PostgreSQL write transactions/s"] == 3_200
    assert p["Redis commands/s"] == 3_000 * 8 + 200 * 2
    assert p["watchers"] == 1_200
    assert p["watchers' memory, GiB"] == pytest.approx(1.2 * 50 / 1024)


def test_watchers_can_set_the_process_count():
    few_cores = plan(60_000, args(move_ms=0.01, request_ms=0.01, watchers=100.0))
    assert few_cores["web processes (one a core, and for the watchers)"] == 12  # 1,200 / 100
