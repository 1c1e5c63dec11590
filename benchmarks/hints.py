"""Hint latency and answers as a player meets them: from positions a person reaches, off the
solver's line, with the winning lines the service knows (the deal's certificate, and those its
earlier hints found), through `games.services.hints.hint_from`, the service's own function.

Run: `.venv/bin/python benchmarks/hints.py munger --seeds 100001..100050 --budget 0.8`

For each deal the solver certifies (`solve`, the budget of a daily's candidate), it plays
`--walks` games: each leaves the certificate after a random number of its moves (0 to 70% of
it) and plays random legal moves from there (`--wander` of them at most, a person's detour),
then asks for a hint; a walk that gets a move plays it and asks again, `--follow` times (the
hints a player who follows them gets). It prints, per game, the answers by kind and the wall
time of each ask: median, 95th percentile, maximum. Nothing here reads a database.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import django  # noqa: E402

django.setup()

from games.engine import GAMES, deal  # noqa: E402
from games.engine.solver import candidate_seconds, solve  # noqa: E402
from games.services.hints import hint_from  # noqa: E402


def seed_range(text: str) -> range:
    first, _, last = text.partition("..")
    return range(int(first), int(last or first) + 1)


def walks(game: str, seed: int, options: argparse.Namespace) -> tuple[list[float], Counter]:
    text = deal(game, seed)
    certified = solve(game, text, time_limit=candidate_seconds(game))
    times: list[float] = []
    answers: Counter = Counter()
    if certified.status != "solved":
        return times, answers
    certificate = list(certified.moves)
    rng = random.Random(seed)
    for _ in range(options.walks):
        position = GAMES[game].from_deal(text)
        moves = certificate[: rng.randint(0, int(0.7 * len(certificate)))]
        for token in moves:
            position.push(token)
        for _ in range(rng.randint(1, options.wander)):
            legal = [m.text for m in position.legal_moves()]
            if not legal:
                break
            token = rng.choice(legal)
            position.push(token)
            moves.append(token)
        known = [certificate]
        for _ in range(options.follow + 1):
            if position.is_won():
                break
            clock = time.perf_counter()
            found, line = hint_from(game, text, moves, known, time_limit=options.budget)
            times.append(time.perf_counter() - clock)
            answers[found.status] += 1
            if line is not None:
                known.insert(0, line)
            if found.status != "move" or found.move is None:
                break
            position.push(found.move)
            moves.append(found.move)
    return times, answers


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("game", choices=sorted(GAMES))
    parser.add_argument("--seeds", default="100001..100050")
    parser.add_argument("--budget", type=float, default=0.8, help="the search's seconds")
    parser.add_argument("--walks", type=int, default=4)
    parser.add_argument("--wander", type=int, default=12)
    parser.add_argument("--follow", type=int, default=3)
    options = parser.parse_args()
    times: list[float] = []
    answers: Counter = Counter()
    deals = 0
    for seed in seed_range(options.seeds):
        found, said = walks(options.game, seed, options)
        deals += bool(found)
        times += found
        answers += said
    times.sort()
    p95 = times[int(0.95 * (len(times) - 1))] if times else float("nan")
    print(
        f"{options.game}: {deals} winnable deals, {len(times)} hints asked, search budget "
        f"{options.budget:g} s; wall time median {statistics.median(times):.3f} s, "
        f"p95 {p95:.3f} s, max {times[-1]:.3f} s"
    )
    print("answers: " + ", ".join(f"{kind} {count}" for kind, count in answers.most_common()))


if __name__ == "__main__":
    main()
