"""Solver figures: decide a range of seeds and print the table of docs/solver.md, "Figures".

Run: `.venv/bin/python benchmarks/solve.py munger --seeds 1..200 --time-limit 10`
     (`--par-time S` gives the par search more time; `--calibrate` prints the difficulty
     score quintiles used as cut points; `--each` prints a line per seed; `-j 2` runs two
     processes, which the targets do not assume: they are for one core.)
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.engine import deal  # noqa: E402
from games.engine.solver import RULES, solve  # noqa: E402
from games.engine.solver.difficulty import score_of  # noqa: E402


def seed_range(text: str) -> range:
    first, _, last = text.partition("..")
    return range(int(first), int(last or first) + 1)


def run_one(args: tuple[str, int, float, float | None]) -> tuple[int, dict]:
    game, seed, time_limit, par_time = args
    if hasattr(os, "sched_setaffinity") and len(os.sched_getaffinity(0)) > 1:
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[seed % 2]})
    started = time.perf_counter()
    result = solve(game, deal(game, seed), time_limit=time_limit, par_time=par_time)
    row = result.to_json()
    row["wall"] = time.perf_counter() - started
    return seed, row


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def main() -> None:
    parser = argparse.ArgumentParser(description="Solve a range of seeds and print a table.")
    parser.add_argument("game", choices=sorted(RULES))
    parser.add_argument("--seeds", type=seed_range, default=seed_range("1..200"))
    parser.add_argument("--time-limit", type=float, default=10.0)
    parser.add_argument("--par-time", type=float, default=None)
    parser.add_argument("-j", "--jobs", type=int, default=1)
    parser.add_argument("--each", action="store_true", help="a line per seed")
    parser.add_argument("--calibrate", action="store_true", help="difficulty score quintiles")
    args = parser.parse_args()
    if args.jobs == 1 and hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})

    work = [(args.game, seed, args.time_limit, args.par_time) for seed in args.seeds]
    rows: dict[int, dict] = {}
    if args.jobs == 1:
        for item in work:
            seed, row = run_one(item)
            rows[seed] = row
            if args.each:
                print_row(seed, row)
    else:
        with ProcessPoolExecutor(args.jobs) as pool:
            for seed, row in pool.map(run_one, work):
                rows[seed] = row
                if args.each:
                    print_row(seed, row)

    counts = {
        s: sum(r["status"] == s for r in rows.values()) for s in ("solved", "unsolvable", "unknown")
    }
    decide = [r["stats"]["seconds_decide"] for r in rows.values()]
    total = [r["stats"]["seconds"] for r in rows.values()]
    pars = [r["par"] for r in rows.values() if r["par"] is not None]
    optimal = sum(bool(r["stats"].get("par_optimal")) for r in rows.values())
    peak = max(
        max(r["stats"].get("table_bytes", 0), r["stats"].get("table_bytes_par", 0))
        for r in rows.values()
    )
    decided = counts["solved"] + counts["unsolvable"]
    bound = RULES[args.game].SIMPLE_BOUND
    n = len(rows)
    seeds = f"{args.seeds.start}..{args.seeds.stop - 1}"
    par_time = args.par_time or "default"
    print(f"\n{args.game}, seeds {seeds}, time limit {args.time_limit:g} s, par time {par_time}\n")
    print(
        "| solved | unsolvable | unknown | decided | decide median | decide p95 | decide max "
        "| total median | total p95 | median par | par/bound | optimal pars | peak table |"
    )
    print("|" + "---|" * 13)
    median_par = statistics.median(pars) if pars else float("nan")
    print(
        f"| {counts['solved']} | {counts['unsolvable']} | {counts['unknown']} "
        f"| {100 * decided / n:.1f}% | {statistics.median(decide):.3f} s "
        f"| {percentile(decide, 0.95):.3f} s | {max(decide):.2f} s "
        f"| {statistics.median(total):.3f} s | {percentile(total, 0.95):.3f} s "
        f"| {median_par:g} | {median_par / bound:.2f} "
        f"| {optimal}/{counts['solved']} | {peak / 2**20:.1f} MiB |"
    )
    proven = [r["par"] for r in rows.values() if r["stats"].get("par_optimal")]
    if proven:
        target = 1.5 * bound
        print(
            f"\nproven-optimal pars: {len(proven)}, median {statistics.median(proven):g}; "
            f"pars at most 1.5 x {bound} = {target:g}: "
            f"{sum(p <= target for p in pars)} of {len(pars)}"
        )
    if args.calibrate:
        scores = sorted(score_of(r["stats"]) for r in rows.values() if r["status"] == "solved")
        cuts = [percentile(scores, q) for q in (0.2, 0.4, 0.6, 0.8)]
        print("\ndifficulty score quintiles (cut points):", ", ".join(f"{c:.3f}" for c in cuts))
    levels = [r["difficulty"] for r in rows.values() if r["difficulty"]]
    if levels:
        print("difficulty levels:", {d: levels.count(d) for d in range(1, 6)})


def print_row(seed: int, row: dict) -> None:
    s = row["stats"]
    print(
        f"seed {seed:>4} {row['status']:<10} decide {s['seconds_decide']:7.3f} s "
        f"total {s['seconds']:7.3f} s par {row['par']!s:>4}{'*' if s.get('par_optimal') else ' '} "
        f"(first {s.get('first_length', '-')}) difficulty {row['difficulty']}",
        flush=True,
    )


if __name__ == "__main__":
    main()
