"""Replay verification speed: verified moves per second and time to verify a 300-move history.

Run: `make bench` or `.venv/bin/python benchmarks/replay.py [--runs 7] [--histories 20]`.

For each game, builds fixed 300-token histories by seeded random legal play (with undos, and
backing up with `U` when stuck, as real players do), then times `replay()` on each history, deal
parsing included, pinned to one core. Prints the median over runs of the median history, and for
comparison the naive verifier that lists all legal moves before every step.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.engine import GAMES, deal, new_game, replay  # noqa: E402

LENGTH = 300


def make_history(name: str, seed: int) -> list[str]:
    rng = random.Random(seed)
    game = new_game(name, seed=seed)
    while len(game.history) < LENGTH:
        legal = game.legal_moves()
        if game.can_undo and (not legal or rng.random() < 0.08):
            game.push("U")
        elif legal:
            game.push(rng.choice(legal))
        else:  # stuck at the very start: cannot happen in these deals
            raise RuntimeError(f"{name} seed {seed} has no move")
    return game.history


def naive_verify(name: str, deal_string: str, history: list[str]) -> bool:
    game = GAMES[name].from_deal(deal_string)
    for token in history:
        if token != "U" and token not in {m.text for m in game.legal_moves()}:
            return False
        game.push(token)
    return True


def time_each(fn, cases) -> list[float]:
    times = []
    for args in cases:
        start = time.perf_counter()
        ok = fn(*args)
        times.append(time.perf_counter() - start)
        assert ok, args
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--histories", type=int, default=20)
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})

    print(f"python {sys.version.split()[0]}, one core, {args.histories} histories of {LENGTH}")
    print(f"tokens, median of {args.runs} runs (deal parsing included)\n")
    header = f"{'game':<12} {'moves/s':>10} {'300 moves':>10} {'naive 300':>10} {'speed-up':>9}"
    print(header)
    print("-" * len(header))
    for name in GAMES:
        cases = []
        for seed in range(1, args.histories + 1):
            history = make_history(name, seed)
            cases.append((name, deal(name, seed), history))

        def fast(n: str, d: str, h: list[str]) -> bool:
            return replay(n, d, h).valid

        run_medians = []
        for _ in range(args.runs):
            run_medians.append(statistics.median(time_each(fast, cases)))
        per_history = statistics.median(run_medians)
        naive = statistics.median(
            statistics.median(time_each(naive_verify, cases)) for _ in range(max(1, args.runs // 2))
        )
        print(
            f"{name:<12} {LENGTH / per_history:>10,.0f} {per_history * 1e3:>8.3f}ms"
            f" {naive * 1e3:>8.2f}ms {naive / per_history:>8.0f}x"
        )
    print("\ntarget: >= 150,000 verified moves/s, a 300-move history in <= 2 ms")


if __name__ == "__main__":
    main()
