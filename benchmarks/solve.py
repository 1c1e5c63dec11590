"""Solver figures: decide a range of seeds and print the tables of docs/solver.md, "Figures".

Run: `.venv/bin/python benchmarks/solve.py munger --seeds 100001..100050 --time-limit 10 \
          --prove --hints --calibrate`

- `--par-time S` gives `solve`'s par search more time (0: none, to time deciding alone);
- `--prove [S]` then runs `prove_par` on each winnable deal's certificate with S seconds of CPU
  (the game's `PAR_SECONDS` without S; CPU rather than wall clock, since the machine is shared)
  and counts the pars proven optimal, with the floors of the rest;
- `--hints` times `hint` and `distance` from the positions 30%, 50% and 70% of the way along
  each certificate (`--hint-limit`, `--distance-limit`: their budgets);
- `--calibrate` prints the difficulty score quintiles used as cut points, and the machine's
  load average before and after the run (the machine is shared: the figures say how loaded);
- `--each` prints a line per seed; `-j 2` runs two processes, which the targets do not
  assume: they are for one core.
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
from games.engine.solver import RULES, distance, hint, prove_par, solve  # noqa: E402
from games.engine.solver.difficulty import score_of  # noqa: E402


def seed_range(text: str) -> range:
    first, _, last = text.partition("..")
    return range(int(first), int(last or first) + 1)


#: Where along a certificate the hint and distance latencies are measured.
HINT_POINTS = (0.3, 0.5, 0.7)


def run_one(args: tuple[str, int, argparse.Namespace]) -> tuple[int, dict]:
    game, seed, options = args
    if hasattr(os, "sched_setaffinity") and len(os.sched_getaffinity(0)) > 1:
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[seed % 2]})
    started, cpu = time.perf_counter(), time.process_time()
    cards = deal(game, seed)
    result = solve(game, cards, time_limit=options.time_limit, par_time=options.par_time)
    row = result.to_json()
    row["wall"] = time.perf_counter() - started
    row["cpu"] = time.process_time() - cpu
    if result.status != "solved":
        return seed, row
    if options.prove is not None:
        seconds = options.prove if options.prove > 0 else RULES[game].PAR_SECONDS
        clock = time.perf_counter()
        proof = prove_par(game, cards, time_limit=seconds, line=result.moves, cpu=True)
        row["proof"] = {
            "par": proof.par,
            "optimal": proof.optimal,
            "lower_bound": proof.lower_bound,
            "seconds": proof.stats["seconds"],
            "wall": round(time.perf_counter() - clock, 1),
            "positions": proof.stats.get("positions_par"),
        }
    if options.hints:
        row["hints"], row["distances"] = [], []
        for share in HINT_POINTS:
            history = result.moves[: round(share * len(result.moves))]
            clock = time.perf_counter()
            answer = hint(game, cards, history, time_limit=options.hint_limit)
            row["hints"].append((time.perf_counter() - clock, answer.status))
            clock = time.perf_counter()
            far = distance(game, cards, history, time_limit=options.distance_limit)
            row["distances"].append((time.perf_counter() - clock, far.status))
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
    parser.add_argument(
        "--prove", type=float, nargs="?", const=0.0, default=None, help="prove_par seconds"
    )
    parser.add_argument("--hints", action="store_true", help="hint and distance latencies")
    parser.add_argument("--hint-limit", type=float, default=10.0)
    parser.add_argument("--distance-limit", type=float, default=10.0)
    args = parser.parse_args()
    load_before = os.getloadavg()
    if args.jobs == 1 and hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})

    work = [(args.game, seed, args) for seed in args.seeds]
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
    within = [(r["stats"]["seconds_decide"], r["status"] != "unknown") for r in rows.values()]
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
        "| solved | unsolvable | unknown | decided | decide median | decide p90 | decide p95 "
        "| decide max | decided within 1 s | total median | total p95 | median par | par/bound "
        "| optimal pars | peak table |"
    )
    print("|" + "---|" * 15)
    median_par = statistics.median(pars) if pars else float("nan")
    print(
        f"| {counts['solved']} | {counts['unsolvable']} | {counts['unknown']} "
        f"| {100 * decided / n:.1f}% | {statistics.median(decide):.3f} s "
        f"| {percentile(decide, 0.9):.3f} s | {percentile(decide, 0.95):.3f} s "
        f"| {max(decide):.2f} s | {sum(d <= 1 and s for d, s in within):d}/{n} "
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
    cpu = [r["cpu"] for r in rows.values()]
    fast = sum(r["cpu"] <= 1 and r["status"] != "unknown" for r in rows.values())
    print(
        f"\nCPU time of solve (deciding alone with --par-time 0): "
        f"median {statistics.median(cpu):.3f} s, p90 {percentile(cpu, 0.9):.3f} s, "
        f"max {max(cpu):.2f} s; decided within 1 s of CPU: {fast}/{n}"
    )
    print_proofs(args.game, rows)
    print_latencies(rows)
    if args.calibrate:
        load = ", ".join(f"{a:.2f}" for a in load_before)
        after = ", ".join(f"{a:.2f}" for a in os.getloadavg())
        print(f"\nload average (1, 5, 15 min): before {load}; after {after}")
        scores = sorted(score_of(r["stats"]) for r in rows.values() if r["status"] == "solved")
        cuts = [percentile(scores, q) for q in (0.2, 0.4, 0.6, 0.8)]
        print("\ndifficulty score quintiles (cut points):", ", ".join(f"{c:.3f}" for c in cuts))
    levels = [r["difficulty"] for r in rows.values() if r["difficulty"]]
    if levels:
        print("difficulty levels:", {d: levels.count(d) for d in range(1, 6)})


def print_proofs(game: str, rows: dict[int, dict]) -> None:
    proofs = [r["proof"] for r in rows.values() if "proof" in r]
    if not proofs:
        return
    optimal = [p for p in proofs if p["optimal"]]
    gaps = [p["par"] - p["lower_bound"] for p in proofs if not p["optimal"]]
    seconds = [p["seconds"] for p in proofs]
    proven = [p["seconds"] for p in optimal]
    print(
        f"\nprove_par: {len(optimal)}/{len(proofs)} pars proven optimal; "
        f"CPU median {statistics.median(seconds):.2f} s, max {max(seconds):.1f} s; "
        + (
            f"the proven ones: CPU median {statistics.median(proven):.1f} s, "
            f"max {max(proven):.1f} s; "
            if proven
            else ""
        )
        + f"the rest (par - floor): {sorted(gaps)}"
    )


def print_latencies(rows: dict[int, dict]) -> None:
    for name in ("hints", "distances"):
        answers = [a for r in rows.values() for a in r.get(name, [])]
        if not answers:
            continue
        seconds = [a[0] for a in answers]
        statuses = [a[1] for a in answers]
        print(
            f"{name} from mid-game positions ({len(answers)}): "
            f"p50 {percentile(seconds, 0.5):.3f} s, p95 {percentile(seconds, 0.95):.3f} s, "
            f"max {max(seconds):.2f} s; "
            f"answers {dict(sorted((s, statuses.count(s)) for s in set(statuses)))}"
        )


def print_row(seed: int, row: dict) -> None:
    s = row["stats"]
    print(
        f"seed {seed:>4} {row['status']:<10} decide {s['seconds_decide']:7.3f} s "
        f"cpu {row['cpu']:7.3f} s total {s['seconds']:7.3f} s "
        f"par {row['par']!s:>4}{'*' if s.get('par_optimal') else ' '} "
        f"(first {s.get('first_length', '-')}) difficulty {row['difficulty']}"
        + (f" proof {row['proof']}" if "proof" in row else "")
        + (f" hints {[round(h[0], 3) for h in row['hints']]}" if "hints" in row else "")
        + (
            f" distances {[round(d[0], 3) for d in row['distances']]}" if "distances" in row else ""
        ),
        flush=True,
    )


if __name__ == "__main__":
    main()
