"""What the analysis of a game costs: honest games of held-out deals analysed as the worker
does (`games.engine.solver.analysis.analyse` with the settings' budget), CPU seconds per game and
how much of each game the budget settles.

Run: `.venv/bin/python benchmarks/analysis.py --games 20`

For each game, deals of seeds 300001 and up (none of the test or fair-play seeds) that the
solver certifies within a daily candidate's budget; the par passed when `prove_par` proves it
within `--par-seconds` (a daily's is proven before its day; a random practice's is not). On
each, one honest game (benchmarks/_honest.py: levels in turn, each at its own pace), whatever its
outcome, then its analysis. Prints per game: the games' moves, the CPU seconds of an analysis
(median, worst), the share of positions settled exactly (median, least), the losses whose losing
move was named among the games that lost their win for good (a game resigned or left with a
win still there has none), and the stretches found. Nothing here reads a database.
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
sys.path.insert(0, str(Path(__file__).resolve().parent))

import django  # noqa: E402

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django.setup()

from _honest import SKILLS, honest_game  # noqa: E402
from django.conf import settings  # noqa: E402

from games.engine import deal  # noqa: E402
from games.engine.solver import (  # noqa: E402
    DECIDE,
    candidate_seconds,
    prove_par,
    rules_for,
    solve,
)
from games.engine.solver.analysis import analyse  # noqa: E402
from games.engine.solver.distance import position  # noqa: E402
from games.engine.solver.search import UNSOLVABLE, Budget, decide  # noqa: E402

FIRST_SEED = 300_001


def lost_for_good(game: str, text: str, moves: list[str]) -> bool:
    """Whether no win is left at the end of a game, while the deal itself had one."""
    end = position(game, text, moves)
    start = position(game, text, [])
    budget = Budget(None, 20_000_000)
    return (
        decide(rules_for(end, DECIDE), budget).status == UNSOLVABLE
        and decide(rules_for(start, DECIDE), budget).status != UNSOLVABLE
    )


def quantile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def run(game: str, options: argparse.Namespace) -> list[dict]:
    rows = []
    seed = FIRST_SEED
    while len(rows) < options.games:
        text = deal(game, seed)
        seed += 1
        if solve(game, text, time_limit=candidate_seconds(game)).status != "solved":
            continue
        par = None
        if options.par_seconds > 0:
            proof = prove_par(game, text, time_limit=options.par_seconds)
            if proof.status == "solved" and proof.optimal:
                par = proof.par
        skill = SKILLS[len(rows) % len(SKILLS)]
        played = honest_game(random.Random(f"{game}-{seed}"), game, text, skill)
        cpu, wall = time.process_time(), time.perf_counter()
        report = analyse(
            game,
            text,
            played.moves,
            par=par,
            time_limit=options.seconds,
            position_limit=options.position_seconds,
        )
        row = {
            "seed": seed - 1,
            "skill": skill.name,
            "moves": len(played.moves),
            "won": report.won,
            "par": par,
            "cpu": time.process_time() - cpu,
            "wall": time.perf_counter() - wall,
            "settled": report.settled / len(report.points),
            "lost_named": report.lost_at is not None,
            # Lost its win for good (decided here on a generous budget, outside the timing):
            # a game resigned or left with a win still there has no losing move.
            "lost": not report.won and lost_for_good(game, text, played.moves),
            "stretches": len(report.stretches),
        }
        rows.append(row)
        print(
            f"  {game} {row['seed']} {row['skill']:8} {row['moves']:4} moves "
            f"{'won ' if row['won'] else 'lost'} par {par} cpu {row['cpu']:5.1f} s "
            f"settled {row['settled']:.0%} stretches {row['stretches']}",
            flush=True,
        )
    return rows


def summary(game: str, rows: list[dict]) -> str:
    moves = [r["moves"] for r in rows]
    cpu = [r["cpu"] for r in rows]
    settled = [r["settled"] for r in rows]
    losses = [r for r in rows if r["lost"]]
    named = sum(1 for r in losses if r["lost_named"])
    left = sum(1 for r in rows if not r["won"] and not r["lost"])
    return (
        f"| {game} | {len(rows)} ({sum(r['won'] for r in rows)} won) "
        f"| {statistics.median(moves):.0f} / {max(moves)} "
        f"| {statistics.median(cpu):.1f} / {max(cpu):.1f} "
        f"| {statistics.median(settled):.0%} / {min(settled):.0%} "
        f"| {named} of {len(losses)} ({left} left with a win) "
        f"| {sum(r['par'] is not None for r in rows)} |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20, help="games analysed per game")
    parser.add_argument("--game", action="append", choices=["masterpiece", "munger"])
    parser.add_argument("--seconds", type=float, default=settings.ANALYSIS_SECONDS)
    parser.add_argument(
        "--position-seconds", type=float, default=settings.ANALYSIS_POSITION_SECONDS
    )
    parser.add_argument("--par-seconds", type=float, default=10.0)
    options = parser.parse_args()
    results = {}
    for game in options.game or ["masterpiece", "munger"]:
        results[game] = run(game, options)
    print(
        f"\nBudget: {options.seconds:g} s a game, {options.position_seconds:g} s a position; "
        f"pars proven within {options.par_seconds:g} s passed."
    )
    print(
        "| game | games | moves (median / most) | CPU s (median / worst) "
        "| settled exactly (median / least) | losing move named (of the games that lost their "
        "win) | par given |"
    )
    print("|---|---|---|---|---|---|---|")
    for game, rows in results.items():
        print(summary(game, rows))


if __name__ == "__main__":
    main()
