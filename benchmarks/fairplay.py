"""Fair-play figures: how often the checks of games/fairplay.py hold human-like games (false
holds) and catch bots, per game and per rule.

Run: `.venv/bin/python benchmarks/fairplay.py [--games 200] [--seed 2026]`.

No database and no server: each game is a move list with the server's per-move times (ms since
the deal was shown), played on real certified deals (solved here, in milliseconds), and
`games.fairplay.check` runs on it as the services run it on a finished ranked attempt. Every
game is drawn from a seeded RNG, so the table is the same on every run.

The players (the tests in tests/fairplay play the same through the real services):

- human: reads the deal 5-30 s, then thinks a few seconds a move (log-normal, long-tailed),
  pauses 10-60 s now and then, goes fast on streaks of obvious foundation moves and stock
  draws, tries a move and takes it back (undo) now and then, and often lets the server finish.
- fast human: the same person three times quicker (reads 2.5-10 s, about a second a move).
- instant bot: answers each position as soon as the server does (5-40 ms a move).
- 200 ms bot: a fixed 200 ms timer, with a few ms of network jitter.
- random-delay bot: waits a uniform 150-450 ms before each move.
- resampling bot: waits gaps drawn from a recorded human game's gaps (its first move too).
- patient bot: the same, after a human's reading time.

Every player plays the solver's winning line (the worst case for the certificate rule:
real people mostly find lines of their own); humans add detours they undo.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games import fairplay  # noqa: E402
from games.engine import GAMES, deal  # noqa: E402

#: Deals each game's figures are played on (each certified by the solver in a second or two).
SEEDS = {"masterpiece": [1, 4, 9, 12, 17], "munger": [11, 13, 33, 74, 95]}


@dataclass(frozen=True)
class Recorded:
    """A played game: its tokens and the server's ms since the deal was shown, per token."""

    moves: list[str]
    times: list[int]

    @property
    def gaps(self) -> list[int]:
        return [b - a for a, b in zip(self.times, self.times[1:], strict=False)]


@dataclass(frozen=True)
class Tempo:
    """How a person plays: reading time, thinking time per move, and the fast streaks."""

    read_s: tuple[float, float]  # first move after uniform(a, b) seconds
    think_ms: float  # median gap of an ordinary move (log-normal)
    think_sigma: float
    streak_ms: float  # median gap of a foundation move after a foundation move
    draw_ms: float  # median gap of a stock draw after a stock draw (Munger)
    pause_p: float  # chance of a 10-60 s pause before a move
    detour_p: float  # chance of trying another move first, then undoing it
    finish_p: float  # chance of letting the server play the finishing line


HUMAN = Tempo(
    read_s=(5, 30),
    think_ms=2800,
    think_sigma=0.7,
    streak_ms=700,
    draw_ms=550,
    pause_p=0.03,
    detour_p=0.06,
    finish_p=0.6,
)
FAST_HUMAN = Tempo(
    read_s=(2.5, 10),
    think_ms=950,
    think_sigma=0.6,
    streak_ms=420,
    draw_ms=330,
    pause_p=0.01,
    detour_p=0.04,
    finish_p=0.8,
)


def _lognormal(rng: random.Random, median: float, sigma: float) -> float:
    return median * math.exp(rng.gauss(0, sigma))


def human_gap(rng: random.Random, tempo: Tempo, token: str, previous: str | None) -> int:
    """Milliseconds a person takes before playing `token` after `previous`."""
    if rng.random() < tempo.pause_p:
        return int(rng.uniform(10_000, 60_000))
    if previous is not None and token.endswith(">F") and previous.endswith(">F"):
        gap = _lognormal(rng, tempo.streak_ms, 0.35)
    elif token == "S>W" and previous == "S>W":
        gap = _lognormal(rng, tempo.draw_ms, 0.3)
    else:
        gap = _lognormal(rng, tempo.think_ms, tempo.think_sigma)
    return max(180, int(gap))


def human_game(
    rng: random.Random, game: str, deal_string: str, line: Sequence[str], tempo: Tempo = HUMAN
) -> Recorded:
    """A person playing `line` to the end at `tempo`: detours undone, pauses, and the
    finishing line played by the server (one request, one time) when they choose to."""
    position = GAMES[game].from_deal(deal_string)
    finish = rng.random() < tempo.finish_p
    moves: list[str] = []
    times: list[int] = []
    now = int(rng.uniform(*tempo.read_s) * 1000)
    previous: str | None = None

    def play(token: str) -> None:
        nonlocal now, previous
        if moves:
            now += human_gap(rng, tempo, token, previous)
        position.push(token)
        moves.append(token)
        times.append(now)
        previous = token

    for index, token in enumerate(line):
        if finish and index >= len(line) // 2:
            rest = position.finishing_line()
            if rest:
                now += human_gap(rng, tempo, "finish", previous)
                for step in rest:
                    position.push(step)
                    moves.append(step)
                    times.append(now)
                break
        if moves and rng.random() < tempo.detour_p:
            other = [m.text for m in position.legal_moves() if m.text != token]
            if other:
                play(rng.choice(other))
                play("U")
        play(token)
    assert position.is_won(), "a human-like game ends won"
    return Recorded(moves, times)


def timed(line: Sequence[str], first: int, gaps: Callable[[int], int]) -> Recorded:
    """`line` played with the first move at `first` ms and gap `gaps(i)` before move i."""
    times = [first]
    for index in range(1, len(line)):
        times.append(times[-1] + max(0, gaps(index)))
    return Recorded(list(line), times)


def instant_bot(rng: random.Random, line: Sequence[str]) -> Recorded:
    return timed(line, rng.randint(20, 80), lambda _: rng.randint(5, 40))


def rhythm_bot(rng: random.Random, line: Sequence[str], period: int = 200) -> Recorded:
    return timed(line, period + rng.randint(0, 10), lambda _: period + int(rng.gauss(0, 4)))


def random_delay_bot(rng: random.Random, line: Sequence[str]) -> Recorded:
    return timed(line, rng.randint(150, 450), lambda _: rng.randint(150, 450))


def resampling_bot(
    rng: random.Random, line: Sequence[str], recorded: Recorded, *, read: bool = False
) -> Recorded:
    """Gaps drawn from a recorded human game's gaps; with `read`, a human's reading time
    first (the patient bot), else a first move after one drawn gap."""
    gaps = [g for g in recorded.gaps if g > 0]
    first = int(rng.uniform(*HUMAN.read_s) * 1000) if read else rng.choice(gaps)
    return timed(line, first, lambda _: rng.choice(gaps))


# -- the figures -----------------------------------------------------------------------------


def certified(game: str, seed: int) -> tuple[str, list[str]]:
    """A deal and its certificate, solved with a node budget (not a time budget), so that the
    line, and so the table, is the same on every machine."""
    from games.engine.solver import solve

    text = deal(game, seed)
    result = solve(game, text, time_limit=None, node_limit=50_000, par_time=1000)
    assert result.status == "solved", (game, seed, result.status)
    return text, list(result.moves)


def populations(
    rng: random.Random, game: str, text: str, line: list[str], recorded: Recorded
) -> dict[str, Callable[[], Recorded]]:
    return {
        "human": lambda: human_game(rng, game, text, line, HUMAN),
        "fast human": lambda: human_game(rng, game, text, line, FAST_HUMAN),
        "instant bot": lambda: instant_bot(rng, line),
        "200 ms bot": lambda: rhythm_bot(rng, line),
        "random-delay bot": lambda: random_delay_bot(rng, line),
        "resampling bot": lambda: resampling_bot(rng, line, recorded),
        "patient bot": lambda: resampling_bot(rng, line, recorded, read=True),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200, help="games per player and game")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    rules = [rule.name for rule in fairplay.RULES]

    print(f"{args.games} games per player and game, seed {args.seed}; % of games held, and")
    print("% tripping each rule (a game may trip several)\n")
    header = f"| game | player | held | {' | '.join(rules)} |"
    print(header)
    print("|" + "---|" * (header.count("|") - 1))
    for game, seeds in SEEDS.items():
        deals = [certified(game, seed) for seed in seeds]
        text0, line0 = deals[0]
        recorded = human_game(random.Random(args.seed), game, text0, line0, HUMAN)
        counts: dict[str, dict[str, int]] = {}
        for index in range(args.games):
            text, line = deals[index % len(deals)]
            for name, make in populations(rng, game, text, line, recorded).items():
                played = make()
                reasons = fairplay.check(game, played.moves, played.times, line)
                tally = counts.setdefault(name, {"held": 0, **dict.fromkeys(rules, 0)})
                tally["held"] += bool(reasons)
                for reason in reasons:
                    tally[reason["rule"]] += 1
        for name, tally in counts.items():
            cells = [f"{100 * tally[key] / args.games:.1f}%" for key in ["held", *rules]]
            print(f"| {game} | {name} | {' | '.join(cells)} |")
    print("\nhuman rows: the false-hold rate; bot rows: the catch rate.")


if __name__ == "__main__":
    main()
